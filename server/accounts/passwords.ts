import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { availableParallelism } from "node:os";
import pLimit from "p-limit";
import type { PasswordHashCost } from "../config.ts";
import { serverBusy } from "../http/errors.ts";

/**
 * scrypt from node:crypto (memory-hard, no native dependency). Parameters follow OWASP's
 * equivalents of N=2^17,r=8,p=1: N=2^15, r=8, p=3 uses 32 MiB per hash. They are stored
 * in every hash, so they can be raised later without breaking existing accounts.
 */
const STANDARD = { N: 2 ** 15, r: 8, p: 3 };
/**
 * Test runs only (the setting is refused outside NODE_ENV=test): their hundreds of throwaway accounts
 * spent most of the suite's CPU hashing (docs/decisions/0027). Hashes of either cost verify alike.
 */
const TEST = { N: 2 ** 10, r: 8, p: 1 };
const PARAMETERS: Record<PasswordHashCost, ScryptOptions> = { standard: STANDARD, test: TEST };
const KEY_LENGTH = 64;
const SALT_BYTES = 16;

/**
 * A hash holds one of libuv's 4 threads and a whole core for ~190 ms, and the same threads read
 * book files for downloads: unbounded, a dozen sign-in loops stalled a 50 MB download. At most one
 * hash per core but one (two at most) runs at once and the rest wait their turn, so file reads keep
 * threads and sending keeps a core; a sign-in that would wait behind more than HASHES_WAITING others
 * (seconds) is refused at once instead (docs/decisions/0021).
 */
export const HASHES_AT_ONCE = Math.max(1, Math.min(2, availableParallelism() - 1));
export const HASHES_WAITING = 64;
/**
 * The longest a hash may wait for its turn. HASHES_WAITING bounds the count, not the time: on a busy
 * or small machine a hash took 600 ms to 4 s, not 190 ms, and the last of 64 waited past the server's
 * 30 s idle timeout, which closed its connection unanswered (docs/decisions/0054). A hash that waited
 * this long is refused at its turn instead of computed for someone who may be gone: the queue then
 * drains at once, and no sign-in waits much longer than this for its answer.
 */
export const HASH_WAIT_LIMIT_MS = 10_000;
const hashing = pLimit(HASHES_AT_ONCE);

const busy = () => serverBusy("Too many sign-ins are being checked right now. Try again in a few seconds.");

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  // Counted together: a call that is about to run still shows as pending until the next microtask.
  if (hashing.activeCount + hashing.pendingCount >= HASHES_AT_ONCE + HASHES_WAITING) return Promise.reject(busy());
  const maxmem = 256 * (options.N ?? 0) * (options.r ?? 0) + 16 * 1024 * 1024;
  const queuedAt = performance.now();
  return hashing(() =>
    performance.now() - queuedAt > HASH_WAIT_LIMIT_MS
      ? Promise.reject(busy())
      : new Promise<Buffer>((resolve, reject) =>
          scryptCallback(password.normalize("NFKC"), salt, KEY_LENGTH, { ...options, maxmem }, (error, key) => (error ? reject(error) : resolve(key))),
        ),
  );
}

/** How many hashes run and wait right now (for tests and benchmarks). */
export const passwordHashingLoad = () => ({ running: hashing.activeCount, waiting: hashing.pendingCount });

export async function hashPassword(password: string, cost: PasswordHashCost = "standard"): Promise<string> {
  const parameters = PARAMETERS[cost];
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, parameters);
  return ["scrypt", parameters.N, parameters.r, parameters.p, salt.toString("base64"), key.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [algorithm, n, r, p, salt, key] = stored.split("$");
  if (algorithm !== "scrypt" || !salt || !key) return false;
  const expected = Buffer.from(key, "base64");
  const actual = await scrypt(password, Buffer.from(salt, "base64"), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const unknownAccountHashes = new Map<PasswordHashCost, Promise<string>>();

/**
 * A hash of nothing anyone knows, at the cost new accounts get: checked against when the account
 * does not exist, so both cases take as long. A refused or failed making is forgotten: kept, it
 * would answer 503 to every unknown name for good while known ones got 401, telling them apart.
 */
export function unknownAccountHash(cost: PasswordHashCost): Promise<string> {
  let hash = unknownAccountHashes.get(cost);
  if (!hash) {
    hash = hashPassword(randomBytes(18).toString("base64"), cost);
    unknownAccountHashes.set(cost, hash);
    hash.catch(() => unknownAccountHashes.delete(cost));
  }
  return hash;
}
