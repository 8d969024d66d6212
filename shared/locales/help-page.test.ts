import { describe, expect, it } from "vitest";
import { INTERFACE_LANGUAGES } from "../languages.ts";
import { stringsOf } from "./text-strings.ts";
import { TEXTS_BY_NAMESPACE } from "./all-texts.ts";

/** The names the help page quotes: “…” in English, «…» in Spanish and French. */
const quotedNames = (text: string) => [...text.matchAll(/[“«]\s?([^”»]+?)\s?[”»]/g)].map((match) => match[1]!);

/**
 * The help page names the screens' own buttons and sections (docs/product.md#info-pages): each name it
 * quotes must be a label the interface shows in that language, so a renamed or moved screen makes it
 * fail instead of leaving readers to look for a tab that no longer exists.
 */
describe("the help page against the screens", () => {
  for (const language of INTERFACE_LANGUAGES) {
    it(`quotes only labels the interface shows, in ${language}`, () => {
      const help = TEXTS_BY_NAMESPACE["info-pages"][language].infoPages.help;
      const labels = new Set([...stringsOf(TEXTS_BY_NAMESPACE["first-screens"][language]), ...stringsOf(TEXTS_BY_NAMESPACE["other-screens"][language])]);
      const quoted = stringsOf(help).flatMap(quotedNames);
      expect(quoted.length).toBeGreaterThan(2);
      expect(quoted.filter((name) => !labels.has(name))).toEqual([]);
    });

    it(`sends readers to Settings for e-reader keys and the e-reader's address, not to the dashboard, in ${language}`, () => {
      const screens = TEXTS_BY_NAMESPACE["first-screens"][language];
      const others = TEXTS_BY_NAMESPACE["other-screens"][language];
      const eReaders = stringsOf(TEXTS_BY_NAMESPACE["info-pages"][language].infoPages.help.sections.eReaders).join(" ");
      expect(eReaders).toContain(screens.nav.settings);
      expect(eReaders).toContain(others.eReaders.title);
      expect(eReaders).toContain(others.settings.eReaderEmail.title);
      expect(eReaders).not.toContain(screens.nav.dashboard);
    });
  }
});
