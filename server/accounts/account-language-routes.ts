import { type AccountLanguageInput, accountLanguageSchema } from "../../shared/account-language.ts";
import { setAccountLanguage } from "./accounts-service.ts";
import type { Db } from "../db/client.ts";
import { GuardedRouter } from "../http/access.ts";
import { validate } from "../http/validate.ts";

/** The browser app reports each change of interface language, so the account's mail follows it. */
export function accountLanguageRoutes({ db, adminEmail }: { db: Db; adminEmail: string | undefined }): GuardedRouter {
  return new GuardedRouter("/api/auth", adminEmail).put("/language", validate("body", accountLanguageSchema), async (req, res) => {
    await setAccountLanguage(db, req.user!.id, (res.locals.body as AccountLanguageInput).language);
    res.status(204).end();
  });
}
