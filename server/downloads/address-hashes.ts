import { createHmac, hkdfSync } from "node:crypto";
import { SUSPICIOUS_ACTIVITY_DAYS } from "../../shared/suspicious-activity.ts";
import type { Db } from "../db/client.ts";
import { logger } from "../system/logger.ts";
import { forgetAddressHashesBefore } from "./downloads-repository.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The counting rule's window: an address's counted downloads of a book in the last 24 hours (docs/product.md#counting-downloads). */
export const COUNTING_WINDOW_MS = DAY_MS;

/**
 * How long a download keeps its address's hash: the longer of the counting window and the admin's
 * look-back at suspicious activity, the two things that read it (docs/decisions/0049).
 */
export const ADDRESS_HASH_KEPT_MS = Math.max(COUNTING_WINDOW_MS, SUSPICIOUS_ACTIVITY_DAYS * DAY_MS);

const SWEEP_EVERY_MS = 15 * 60 * 1000;

/** A counting address (security/client-address.ts) to its keyed hash, 64 hex characters. */
export type AddressHasher = (countingAddress: string) => string;

/**
 * HMAC-SHA256 under a key derived (HKDF) from the session secret: stable across restarts (the
 * embedded default keeps its secret under DATA_DIR, production sets SESSION_SECRET) and shared by
 * every server on one database, which must share that secret for sessions anyway, so each server
 * hashes an address alike. Derived rather than the secret itself, so the two uses never mix; without
 * the key an address cannot be tried against the hashes, as a plain SHA-256 of 2^32 IPv4 addresses
 * could be (docs/decisions/0049).
 */
export function addressHasherFor(sessionSecret: string): AddressHasher {
  const key = Buffer.from(hkdfSync("sha256", sessionSecret, "plume", "download address hash", 32));
  return (countingAddress) => createHmac("sha256", key).update(countingAddress).digest("hex");
}

/**
 * Forgets the hashes of downloads older than ADDRESS_HASH_KEPT_MS every quarter of an hour: past it
 * nothing reads them, and a deleted reader's address is then forgotten altogether. Every server runs
 * it; the update is the same whoever runs it.
 */
export class AddressHashSweep {
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly db: Db) {
    this.timer = setInterval(() => this.run(), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  async sweep(now: Date): Promise<void> {
    await forgetAddressHashesBefore(this.db, new Date(now.getTime() - ADDRESS_HASH_KEPT_MS));
  }

  close(): void {
    clearInterval(this.timer);
  }

  private run(): void {
    this.sweep(new Date()).catch((error: Error) => logger.error({ component: "downloads", error: error.message }, "old address hashes were not forgotten"));
  }
}
