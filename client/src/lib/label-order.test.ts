import { GENRE_KEYS } from "@shared/genres";
import { INTERFACE_LANGUAGES } from "@shared/languages";
import { describe, expect, it } from "vitest";
import i18n from "@/lib/i18n";
import { compareLabels } from "@/lib/label-order";

describe("compareLabels", () => {
  it.each(INTERFACE_LANGUAGES)("orders the genre names of %s as the language's collator does", async (language) => {
    await i18n.changeLanguage(language);
    const labels = GENRE_KEYS.map((key) => i18n.t(`genres.${key}`));
    expect([...labels].sort(compareLabels)).toEqual([...labels].sort(new Intl.Collator(language).compare));
  });

  it("sets case and accents aside", () => {
    expect(["zèbre", "Été", "ete", "Arbre"].sort(compareLabels)).toEqual(["Arbre", "Été", "ete", "zèbre"]);
  });
});
