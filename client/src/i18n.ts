import en from "@shared/locales/en.json";
import es from "@shared/locales/es.json";
import fr from "@shared/locales/fr.json";
import i18n from "i18next";
import LanguageDetector from "i18next-browser-languagedetector";
import { initReactI18next } from "react-i18next";

export const SUPPORTED_LANGUAGES = ["en", "es", "fr"] as const;

i18n.on("languageChanged", (language) => {
  document.documentElement.lang = language;
});

void i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources: {
      en: { translation: en },
      es: { translation: es },
      fr: { translation: fr },
    },
    supportedLngs: SUPPORTED_LANGUAGES,
    fallbackLng: "en",
    // The texts are bundled, so the first render already has them.
    initAsync: false,
    interpolation: { escapeValue: false },
    detection: {
      order: ["localStorage", "navigator", "htmlTag"],
      caches: ["localStorage"],
      // Reduce "es-ES" to "es" before matching: i18next otherwise prefers any exact match further
      // down the list, such as the page's own lang="en", over the reader's regional browser language.
      convertDetectedLanguage: (language) => language.replace(/[-_].*$/, ""),
    },
  });

export default i18n;
