import { z } from "zod";
import { eReaderKeyIdSchema, eReaderKeyNameSchema } from "../../shared/e-reader-keys.ts";
import type { Db } from "../db/client.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import * as answers from "../openapi/answer-schemas.ts";
import { createEReaderKey, listEReaderKeys, revokeEReaderKey } from "./e-reader-keys-service.ts";

export interface EReaderKeysRoutesDeps {
  db: Db;
}

const route = routesOf<EReaderKeysRoutesDeps>();

/** A signed-in reader's keys for e-reader apps (docs/product.md#opds): list, create (shown once), revoke. */
export const eReaderKeysRoutes = routeGroup("/api/e-reader-keys", [
  route(
    {
      method: "GET",
      path: "/api/e-reader-keys",
      access: "signed-in",
      summary: "The caller's e-reader keys (never the keys themselves)",
      tag: "e-reader keys",
      answer: { status: 200, description: "The keys.", json: z.array(answers.eReaderKeySchema) },
      errors: [],
    },
    async ({ caller, res }, { db }) => {
      res.setHeader("Cache-Control", "private, no-store");
      return listEReaderKeys(db, caller);
    },
  ),
  route(
    {
      method: "POST",
      path: "/api/e-reader-keys",
      access: "signed-in",
      summary: "Create an e-reader key for OPDS downloads; the key is shown this once",
      tag: "e-reader keys",
      body: eReaderKeyNameSchema,
      answer: { status: 201, description: "The key, in full.", json: answers.createdEReaderKeySchema },
      errors: [400, 409],
    },
    async ({ body, caller, res }, { db }) => {
      // The only answer that ever holds the key: no cache may keep it.
      res.setHeader("Cache-Control", "no-store");
      return createEReaderKey(db, caller, body.name, new Date());
    },
  ),
  route(
    {
      method: "DELETE",
      path: "/api/e-reader-keys/:id",
      access: "signed-in",
      summary: "Revoke one of the caller's e-reader keys",
      tag: "e-reader keys",
      params: eReaderKeyIdSchema,
      answer: { status: 204, description: "Revoked." },
      errors: [400, 404],
    },
    ({ params, caller }, { db }) => revokeEReaderKey(db, caller, params.id, new Date()),
  ),
]);
