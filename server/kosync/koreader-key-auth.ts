import { type RequestHandler, Router } from "express";
import { callerOf } from "../accounts/passport.ts";
import type { Db } from "../db/client.ts";
import { unauthorized } from "../http/errors.ts";
import { authenticateKoreaderDigest } from "../opds/e-reader-keys-service.ts";

/**
 * The door check of KOReader's progress sync (docs/product.md#progress-sync): the `x-auth-user` and
 * `x-auth-key` headers its plugin sends, the account's username or e-mail and the MD5 of one of its
 * e-reader keys. On success the key's owner is the caller; failures count against the address's
 * limit on wrong e-reader keys, as OPDS's do, and are all the same 401.
 */
export function koreaderKeyAuth({ db, adminEmail, failureLimit }: { db: Db; adminEmail: string | undefined; failureLimit: RequestHandler }): RequestHandler {
  return Router().use(failureLimit, async (req, _res, next) => {
    const identifier = req.get("x-auth-user");
    const keyDigest = req.get("x-auth-key");
    const owner = identifier && keyDigest ? await authenticateKoreaderDigest(db, identifier, keyDigest, new Date()) : undefined;
    if (owner) {
      req.user = callerOf(owner, adminEmail);
      return next();
    }
    next(unauthorized("Type your Plume username and one of your e-reader keys (from Plume's settings) in KOReader's progress sync."));
  });
}
