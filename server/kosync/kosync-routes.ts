import { z } from "zod";
import { KOSYNC_PATH, koreaderDocumentParamsSchema, koreaderProgressSchema } from "../../shared/kosync.ts";
import type { Db } from "../db/client.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import { HttpError } from "../http/errors.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import { koreaderKeyAuth } from "./koreader-key-auth.ts";
import { koreaderProgress, saveKoreaderProgress } from "./kosync-service.ts";

export interface KosyncRoutesDeps {
  db: Db;
  adminEmail: string | undefined;
  limits: AbuseLimits;
}

const route = routesOf<KosyncRoutesDeps>();

const UNMATCHED_MESSAGE =
  "Plume's progress sync has no such call. There is nothing to register: sign up on Plume, then type your username and one of your e-reader keys (from Plume's settings) here and choose Login.";

const savedProgressSchema = z
  .union([
    z.strictObject({
      document: z.string(),
      progress: z.string().meta({ description: "A PDF's page, or an XPointer into an EPUB (`/body/DocFragment[N]…`)." }),
      percentage: z.number(),
      device: z.string(),
      device_id: z.string(),
      timestamp: z.number().int().meta({ description: "Seconds since 1970." }),
    }),
    z.strictObject({}).meta({ description: "No place KOReader could go to: none saved, or saved where KOReader's paths cannot follow." }),
  ])
  .meta({ id: "KoreaderProgress" });

/**
 * KOReader's progress sync (the kosync protocol, docs/product.md#progress-sync), at `/kosync`: the
 * address a reader types in KOReader as a custom sync server. Its calls sign in with the account's
 * username and an e-reader key (`x-auth-user`, `x-auth-key`), never a session.
 */
export const kosyncRoutes = routeGroup(
  KOSYNC_PATH,
  [
    route(
      {
        method: "GET",
        path: `${KOSYNC_PATH}/users/auth`,
        access: "e-reader-key",
        summary: "KOReader's sign-in check: the username and the MD5 of an e-reader key",
        tag: "kosync",
        answer: { status: 200, description: "The key is in use and the username names its owner.", json: z.strictObject({ authorized: z.literal("OK") }) },
        errors: [429],
      },
      () => ({ authorized: "OK" as const }),
    ),
    route(
      {
        method: "PUT",
        path: `${KOSYNC_PATH}/syncs/progress`,
        access: "e-reader-key",
        summary: "Save KOReader's place in a book the caller took from Plume",
        tag: "kosync",
        body: koreaderProgressSchema,
        answer: {
          status: 200,
          description: "Saved as the reader's place in the book, which the browser reader opens at.",
          json: z.strictObject({ document: z.string(), timestamp: z.number().int() }),
        },
        // 404 document_unknown: no file Plume served the caller has this id.
        errors: [400, 404, 429],
      },
      ({ body, caller }, { db }) => saveKoreaderProgress(db, caller, body, new Date()),
    ),
    route(
      {
        method: "GET",
        path: `${KOSYNC_PATH}/syncs/progress/:document`,
        access: "e-reader-key",
        summary: "The reader's last place in a book, from the browser or any device, as KOReader reads it",
        tag: "kosync",
        params: koreaderDocumentParamsSchema,
        answer: { status: 200, description: "The place in the terms of the file KOReader holds, or `{}`.", json: savedProgressSchema },
        errors: [400, 404, 429],
      },
      async ({ params, caller, res }, { db }) => {
        res.setHeader("Cache-Control", "private, no-store");
        return koreaderProgress(db, caller, params.document);
      },
    ),
  ],
  {
    authenticators: ({ db, adminEmail, limits }) => ({ eReaderKey: koreaderKeyAuth({ db, adminEmail, failureLimit: limits.eReaderKeyFailures }) }),
    // KOReader's "Register" lands here too (POST /users/create), and shows the message: accounts are made on Plume.
    unmatched: (_req, _res, next) => next(new HttpError(404, "not_found", UNMATCHED_MESSAGE)),
  },
);
