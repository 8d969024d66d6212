import { eReaderKeyIdSchema, eReaderKeyNameSchema } from "../../shared/e-reader-keys.ts";
import type { Db } from "../db/client.ts";
import { GuardedRouter } from "../http/access.ts";
import { validate } from "../http/validate.ts";
import { createEReaderKey, listEReaderKeys, revokeEReaderKey } from "./e-reader-keys-service.ts";

/** A signed-in reader's keys for e-reader apps (docs/product.md#opds): list, create (shown once), revoke. */
export function eReaderKeysRoutes({ db, adminEmail }: { db: Db; adminEmail: string | undefined }): GuardedRouter {
  return new GuardedRouter("/api/e-reader-keys", adminEmail)
    .get("/", async (req, res) => {
      res.setHeader("Cache-Control", "private, no-store");
      res.json(await listEReaderKeys(db, req.user!));
    })
    .post("/", validate("body", eReaderKeyNameSchema), async (req, res) => {
      const { name } = res.locals.body as { name: string };
      // The only answer that ever holds the key: no cache may keep it.
      res.setHeader("Cache-Control", "no-store");
      res.status(201).json(await createEReaderKey(db, req.user!, name, new Date()));
    })
    .delete("/:id", validate("params", eReaderKeyIdSchema), async (req, res) => {
      await revokeEReaderKey(db, req.user!, (res.locals.params as { id: string }).id, new Date());
      res.status(204).end();
    });
}
