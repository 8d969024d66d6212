import { accountLanguageSchema } from "../../shared/account-language.ts";
import { setAccountLanguage } from "./accounts-service.ts";
import type { Db } from "../db/client.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";

export interface AccountLanguageRoutesDeps {
  db: Db;
}

const route = routesOf<AccountLanguageRoutesDeps>();

/** The browser app reports each change of interface language, so the account's mail follows it. */
export const accountLanguageRoutes = routeGroup("/api/auth", [
  route(
    {
      method: "PUT",
      path: "/api/auth/language",
      access: "signed-in",
      summary: "Set the language the signed-in account's mail is written in (the interface language it chose)",
      tag: "accounts",
      body: accountLanguageSchema,
      answer: { status: 204, description: "Saved." },
      errors: [400],
    },
    ({ body, caller }, { db }) => setAccountLanguage(db, caller.id, body.language),
  ),
]);
