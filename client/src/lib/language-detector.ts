import { addressedLanguage } from "@shared/page-meta";
import type { LanguageDetectorModule } from "i18next";

/** The key i18next-browser-languagedetector used, kept so that readers who chose a language before keep it. */
const STORED_LANGUAGE_KEY = "i18nextLng";

/** Local storage can be refused (site data blocked): the browser's language then decides. */
function storedLanguage(): string | null {
  try {
    return localStorage.getItem(STORED_LANGUAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * The reader's language by docs/product.md#languages (docs/decisions/0016, 0028): the one the address
 * names (`?lang=es`, where the language alternates of a page lead), then the stored choice, then the browser's
 * languages, then `<html lang>`. Each is reduced to its base ("es-ES" → "es") before i18next picks the
 * first one it speaks: it would otherwise prefer an exact match further down the list, such as the
 * page's own lang="en", over the reader's regional browser language.
 */
export const languageDetector: LanguageDetectorModule = {
  type: "languageDetector",
  detect: () =>
    [addressedLanguage(window.location.search), storedLanguage(), ...navigator.languages, document.documentElement.lang]
      .filter((language): language is string => Boolean(language))
      .map((language) => language.replace(/[-_].*$/, "")),
  cacheUserLanguage(language) {
    try {
      localStorage.setItem(STORED_LANGUAGE_KEY, language);
    } catch {
      // Without storage the choice lasts until the page is left.
    }
  },
};
