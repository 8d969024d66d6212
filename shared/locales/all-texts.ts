import type { INFO_PAGE_TEXTS, InterfaceLanguage, TextNamespace } from "../languages.ts";
import enFirstScreens from "./first-screens/en.json" with { type: "json" };
import esFirstScreens from "./first-screens/es.json" with { type: "json" };
import frFirstScreens from "./first-screens/fr.json" with { type: "json" };
import enInfoPages from "./info-pages/en.json" with { type: "json" };
import esInfoPages from "./info-pages/es.json" with { type: "json" };
import frInfoPages from "./info-pages/fr.json" with { type: "json" };
import enOtherScreens from "./other-screens/en.json" with { type: "json" };
import esOtherScreens from "./other-screens/es.json" with { type: "json" };
import frOtherScreens from "./other-screens/fr.json" with { type: "json" };

/** Each namespace's file of each language, as the browser app loads them. */
export const TEXTS_BY_NAMESPACE = {
  "first-screens": { en: enFirstScreens, es: esFirstScreens, fr: frFirstScreens },
  "other-screens": { en: enOtherScreens, es: esOtherScreens, fr: frOtherScreens },
  "info-pages": { en: enInfoPages, es: esInfoPages, fr: frInfoPages },
} satisfies Record<TextNamespace | typeof INFO_PAGE_TEXTS, Record<InterfaceLanguage, object>>;

/**
 * Every text of a language in one tree ("upload.title" beside "catalog.title"), for the server's API
 * messages and the tests. The browser app never imports this module: it would bundle every text of
 * every language into the first script (client/src/lib/i18n.ts fetches them by namespace instead).
 */
export const ALL_TEXTS = {
  en: { ...enFirstScreens, ...enOtherScreens, ...enInfoPages },
  es: { ...esFirstScreens, ...esOtherScreens, ...esInfoPages },
  fr: { ...frFirstScreens, ...frOtherScreens, ...frInfoPages },
} satisfies Record<InterfaceLanguage, object>;
