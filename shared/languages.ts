/** The languages the interface speaks (docs/product.md#languages); English is the default and the fallback. */
export const INTERFACE_LANGUAGES = ["en", "es", "fr"] as const;
export type InterfaceLanguage = (typeof INTERFACE_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: InterfaceLanguage = "en";

export const isInterfaceLanguage = (language: string | undefined): language is InterfaceLanguage =>
  INTERFACE_LANGUAGES.some((supported) => supported === language);

/**
 * The reader's chosen language, mirrored from local storage (where the client keeps it) into a
 * cookie, so the server can preload the right texts with the page.
 */
export const LANGUAGE_COOKIE = "plume-lang";

/**
 * The browser app's texts come in two namespaces, `shared/locales/<namespace>/<language>.json`: what
 * the screens of a first visit show (layout, landing page, catalog, 404 and the messages they raise),
 * fetched with the app, and the rest, fetched with the first screen that needs it (docs/decisions/0016).
 */
export const FIRST_SCREEN_TEXTS = "first-screens";
export const OTHER_SCREEN_TEXTS = "other-screens";
export type TextNamespace = typeof FIRST_SCREEN_TEXTS | typeof OTHER_SCREEN_TEXTS;

/**
 * The long texts of the pages that explain Plume (shared/info-pages.ts), a third namespace: fetched by
 * those pages alone, so no other screen carries their weight (docs/decisions/0070).
 */
export const INFO_PAGE_TEXTS = "info-pages";
