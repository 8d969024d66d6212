import type { Request } from "express";
import { type InterfaceLanguage, isInterfaceLanguage, LANGUAGE_COOKIE } from "../../shared/languages.ts";

const languageCookie = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=(\\w+)`);

/** The interface language the browser app last chose (client/src/i18n.ts mirrors it into a cookie), if any. */
export function chosenLanguage(req: Request): InterfaceLanguage | undefined {
  const language = languageCookie.exec(req.headers.cookie ?? "")?.[1];
  return isInterfaceLanguage(language) ? language : undefined;
}
