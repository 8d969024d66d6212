import { describe, expect, it } from "vitest";
import { INTERFACE_LANGUAGES } from "../languages.ts";
import { stringsOf } from "./text-strings.ts";
import { ALL_TEXTS } from "./all-texts.ts";

/** What "counted" is in each language (docs/product.md#glossary). */
const COUNTED = { en: /counted download/i, es: /descargas? contadas?/i, fr: /téléchargements? comptés?/i } as const;

/** The labels of figures that are counted downloads (a book's downloadCount, an author's total, rewards' progress). */
const COUNTED_FIGURES = [
  "book.downloadsLabel",
  "bookPage.downloads",
  "authorPage.downloads",
  "landing.stats.downloads",
  "home.stats.downloads",
  "dashboard.summary.downloads",
  "dashboard.books.downloads_other",
  "dashboard.chart.title",
  "dashboard.chart.downloads",
  "rewards.progressValue",
  "rewards.toNextPme_other",
  "rewards.home.rule",
  "admin.fields.countedDownloads",
  "mail.paymentCompleted.milestone",
];

const textAt = (tree: object, key: string) => key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], tree);

describe("one word, one number (docs/product.md#glossary)", () => {
  it("calls a wallet a wallet in Spanish, and the hot wallet the sending wallet", () => {
    const spanish = stringsOf(ALL_TEXTS.es).join("\n");
    expect(spanish).not.toMatch(/billetera|monedero|hot wallet/i);
  });

  for (const language of INTERFACE_LANGUAGES) {
    it(`says "counted" wherever a figure is of counted downloads, in ${language}`, () => {
      const uncounted = COUNTED_FIGURES.filter((key) => !COUNTED[language].test(String(textAt(ALL_TEXTS[language], key))));
      expect(uncounted).toEqual([]);
    });
  }
});
