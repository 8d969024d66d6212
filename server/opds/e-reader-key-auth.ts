import { type RequestHandler, Router } from "express";
import type { Db } from "../db/client.ts";
import { callerOf } from "../accounts/passport.ts";
import { unauthorized } from "../http/errors.ts";
import { authenticateEReaderKey } from "./e-reader-keys-service.ts";

export interface BasicCredentials {
  identifier: string;
  key: string;
}

const BASIC = /^Basic[ \t]+([A-Za-z0-9+/]+={0,2})[ \t]*$/i;

/**
 * The user name and password of an HTTP Basic `Authorization` header (RFC 7617, UTF-8 as the
 * challenge announces), or undefined when the header is missing, another scheme, not base64, or
 * holds no colon or an empty user name.
 */
export function basicCredentialsOf(header: string | undefined): BasicCredentials | undefined {
  const encoded = header === undefined ? undefined : BASIC.exec(header)?.[1];
  if (encoded === undefined || encoded.length % 4 !== 0) return undefined;
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon <= 0) return undefined;
  return { identifier: decoded.slice(0, colon), key: decoded.slice(colon + 1) };
}

/** The challenge of a refusal: e-reader apps ask for a user name and password when they see it. */
export const basicChallenge = (productName: string) => `Basic realm="${productName.replace(/["\\]/g, "")}", charset="UTF-8"`;

/**
 * The door check of the "e-reader-key" access (server/http/access.ts): HTTP Basic with the
 * account's username or e-mail and one of its e-reader keys (docs/product.md#opds). On success the
 * key's owner is the request's user, as a session would make them; every failure is the same 401
 * with the challenge. Failures count against the address's limit before anything is looked up.
 */
export function eReaderKeyAuth({
  db,
  adminEmail,
  productName,
  failureLimit,
}: {
  db: Db;
  /** The key's owner is the caller as a session would make them, the admin flag included (server/accounts/passport.ts). */
  adminEmail: string | undefined;
  productName: string;
  failureLimit: RequestHandler;
}): RequestHandler {
  return Router().use(failureLimit, async (req, res, next) => {
    const credentials = basicCredentialsOf(req.headers.authorization);
    const user = credentials && (await authenticateEReaderKey(db, credentials.identifier, credentials.key, new Date()));
    if (user) {
      req.user = callerOf(user, adminEmail);
      return next();
    }
    res.setHeader("WWW-Authenticate", basicChallenge(productName));
    next(unauthorized("Sign in with your username or e-mail and an e-reader key made on your dashboard."));
  });
}
