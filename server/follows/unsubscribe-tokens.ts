import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { UNSUBSCRIBE_TOKEN } from "../../shared/follows.ts";

/**
 * The digest's one-click unsubscribe links (docs/product.md#follows, RFC 8058): the account's id and
 * an HMAC-SHA256 of it under a key derived (HKDF) from the session secret, which every server on one
 * database shares. No session is needed and nothing is stored; a link works for as long as the secret
 * stays, and it can do one thing only: turn that account's digest off (docs/decisions/0101).
 */
export interface UnsubscribeTokens {
  tokenFor(userId: string): string;
  /** The account a token names, or undefined when its signature is not ours. */
  userOf(token: string): string | undefined;
}

export function unsubscribeTokensFor(sessionSecret: string): UnsubscribeTokens {
  const key = Buffer.from(hkdfSync("sha256", sessionSecret, "plume", "digest unsubscribe link", 32));
  const signatureOf = (userId: string) => createHmac("sha256", key).update(userId.toLowerCase()).digest();
  return {
    tokenFor: (userId) => `${userId.toLowerCase()}.${signatureOf(userId).toString("base64url")}`,
    userOf(token) {
      if (!UNSUBSCRIBE_TOKEN.test(token)) return undefined;
      const [userId, signature] = token.split(".") as [string, string];
      // Compared as written: base64url's last character carries two spare bits, so decoding first would take four spellings of one signature.
      const given = Buffer.from(signature, "ascii");
      const expected = Buffer.from(signatureOf(userId).toString("base64url"), "ascii");
      return given.length === expected.length && timingSafeEqual(given, expected) ? userId.toLowerCase() : undefined;
    },
  };
}
