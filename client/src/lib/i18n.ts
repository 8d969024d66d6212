import i18n, { type BackendModule } from "i18next";
import { initReactI18next } from "react-i18next";
import {
  DEFAULT_LANGUAGE,
  FIRST_SCREEN_TEXTS,
  INTERFACE_LANGUAGES,
  type InterfaceLanguage,
  isInterfaceLanguage,
  LANGUAGE_COOKIE,
  OTHER_SCREEN_TEXTS,
  type TextNamespace,
} from "@shared/languages";
import { choiceCookie } from "@shared/cookies";
import { languageDetector } from "@/lib/language-detector";

// One chunk per namespace and language, fetched on demand: a reader downloads only the texts of the
// language shown, and a first visit only those of the screens it lands on.
const loadTexts: Record<TextNamespace, Record<InterfaceLanguage, () => Promise<{ default: object }>>> = {
  [FIRST_SCREEN_TEXTS]: {
    en: () => import("@shared/locales/first-screens/en.json"),
    es: () => import("@shared/locales/first-screens/es.json"),
    fr: () => import("@shared/locales/first-screens/fr.json"),
  },
  [OTHER_SCREEN_TEXTS]: {
    en: () => import("@shared/locales/other-screens/en.json"),
    es: () => import("@shared/locales/other-screens/es.json"),
    fr: () => import("@shared/locales/other-screens/fr.json"),
  },
};

const isTextNamespace = (namespace: string): namespace is TextNamespace => namespace === FIRST_SCREEN_TEXTS || namespace === OTHER_SCREEN_TEXTS;

/** Gives i18next the texts it asks for from their chunks; a language or namespace without texts reads as empty. */
const textChunks: BackendModule = {
  type: "backend",
  init: () => {},
  read(language, namespace, done) {
    const texts = isInterfaceLanguage(language) && isTextNamespace(namespace) ? loadTexts[namespace][language]() : Promise.resolve({ default: {} });
    texts.then(({ default: loaded }) => done(null, loaded), (error: Error) => done(error, false));
  },
};

i18n.on("languageChanged", (language) => {
  document.documentElement.lang = language;
  document.cookie = choiceCookie(LANGUAGE_COOKIE, language);
});

/** Resolves once the detected language's first-screen texts are loaded; the app renders after it, so its first paint has text. */
export const i18nReady = i18n
  .use(languageDetector)
  .use(textChunks)
  .use(initReactI18next)
  .init({
    supportedLngs: INTERFACE_LANGUAGES,
    // Every key exists in every language (a test checks it), so a supported language needs no fallback
    // texts loaded beside it; only an unsupported one falls back to English.
    fallbackLng: (code) => (isInterfaceLanguage(code) ? [] : [DEFAULT_LANGUAGE]),
    ns: [FIRST_SCREEN_TEXTS],
    defaultNS: FIRST_SCREEN_TEXTS,
    // Components name no namespace: a key missing from the first screens' texts is looked up in the others.
    fallbackNS: OTHER_SCREEN_TEXTS,
    interpolation: { escapeValue: false },
  });

/**
 * Loads the texts of the screens that come after the first, in the current language; once loaded, a
 * language switch loads them too before it shows.
 */
export function loadOtherScreenTexts(): Promise<void> {
  return i18n.loadNamespaces(OTHER_SCREEN_TEXTS);
}

export default i18n;
