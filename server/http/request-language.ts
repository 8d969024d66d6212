import type { Request } from "express";
import { DEFAULT_LANGUAGE, INTERFACE_LANGUAGES, type InterfaceLanguage, isInterfaceLanguage, LANGUAGE_COOKIE } from "../../shared/languages.ts";
import { cookieValue } from "../../shared/cookies.ts";
import { LANGUAGE_PARAM } from "../../shared/page-meta.ts";

/** The interface language the browser app last chose (client/src/lib/i18n.ts mirrors it into a cookie), if any. */
export function chosenLanguage(req: Request): InterfaceLanguage | undefined {
  const language = cookieValue(req.headers.cookie ?? "", LANGUAGE_COOKIE);
  return isInterfaceLanguage(language) ? language : undefined;
}

/**
 * The language a request is read in, the one the app is about to pick or has picked: the one the
 * address names (`?lang=es`, docs/decisions/0028), else the reader's stored choice (mirrored in a
 * cookie), else the browser's. Pages are written in it and the catalog orders titles by it.
 */
export function likelyLanguage(req: Request): InterfaceLanguage {
  const addressed = req.query[LANGUAGE_PARAM];
  if (typeof addressed === "string" && isInterfaceLanguage(addressed)) return addressed;
  const chosen = chosenLanguage(req);
  if (chosen) return chosen;
  const accepted = req.acceptsLanguages(...INTERFACE_LANGUAGES);
  return isInterfaceLanguage(accepted || undefined) ? (accepted as InterfaceLanguage) : DEFAULT_LANGUAGE;
}
