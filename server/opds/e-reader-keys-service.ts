import { type CreatedEReaderKey, E_READER_KEYS_MAX, type EReaderKey } from "../../shared/e-reader-keys.ts";
import { findOpenAccount, lockOpenAccount } from "../accounts/users-repository.ts";
import type { Db } from "../db/client.ts";
import type { User } from "../db/schema.ts";
import { conflict, notFound, unauthorized } from "../http/errors.ts";
import { canonicalEReaderKey, hashEReaderKey, koreaderDigestsOf, newEReaderKey } from "./e-reader-key-secret.ts";
import { isOwnKey, namesKeyOwner } from "./e-reader-keys-policy.ts";
import {
  type EReaderKeyRow,
  countActiveKeysOf,
  deleteOldRevokedKeys,
  findActiveKeyByDigest,
  findActiveKeyByHash,
  findKey,
  insertKey,
  insertKeyDigests,
  listKeysOf,
  recordKeyUse,
  revokeKey,
} from "./e-reader-keys-repository.ts";
import { presentEReaderKey } from "./present-e-reader-key.ts";

/** Revoked keys an account's list keeps showing (with when); older ones are forgotten. */
const REVOKED_KEYS_KEPT = 20;

export async function listEReaderKeys(db: Db, owner: User): Promise<EReaderKey[]> {
  const rows = await listKeysOf(db, owner.id);
  // Keys in use first, each group newest first.
  return [...rows.filter((row) => !row.revokedAt), ...rows.filter((row) => row.revokedAt)].map(presentEReaderKey);
}

/**
 * A new key for one of the owner's devices, returned with its secret: the only time the secret
 * exists outside the device, since only its hash is stored. The owner's row is locked while the
 * keys in use are counted, so two requests at once cannot pass the cap together.
 */
export async function createEReaderKey(db: Db, owner: User, name: string, at: Date): Promise<CreatedEReaderKey> {
  const key = newEReaderKey();
  const row = await db.transaction(async (tx) => {
    if (!(await lockOpenAccount(tx, owner.id))) throw unauthorized("This account has been deleted.");
    if ((await countActiveKeysOf(tx, owner.id)) >= E_READER_KEYS_MAX) {
      throw conflict("too_many_e_reader_keys", `An account can have ${E_READER_KEYS_MAX} e-reader keys in use. Revoke one you no longer use first.`);
    }
    const inserted = await insertKey(tx, { userId: owner.id, name, keyHash: hashEReaderKey(canonicalEReaderKey(key)!), createdAt: at });
    await insertKeyDigests(tx, inserted.id, koreaderDigestsOf(key));
    return inserted;
  });
  return { ...presentEReaderKey(row), key };
}

/** Revokes one of the caller's keys at once: the next request with it is refused. Revoking twice changes nothing. */
export async function revokeEReaderKey(db: Db, caller: User, id: string, at: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const key = await findKey(tx, id);
    if (!key || !isOwnKey(key, caller)) throw notFound("This e-reader key does not exist.");
    if (key.revokedAt) return;
    await revokeKey(tx, id, at);
    await deleteOldRevokedKeys(tx, caller.id, REVOKED_KEYS_KEPT);
  });
}

/**
 * The account an e-reader app signs in as, or undefined: the key must be in use and the named
 * account (username or e-mail) its owner. Every way to fail gives the same undefined, so an app
 * learns nothing about which accounts or keys exist.
 */
export async function authenticateEReaderKey(db: Db, identifier: string, typedKey: string, at: Date): Promise<User | undefined> {
  const canonical = canonicalEReaderKey(typedKey);
  if (!canonical) return undefined;
  return ownerOfKey(db, await findActiveKeyByHash(db, hashEReaderKey(canonical)), identifier, at);
}

/**
 * The account KOReader's progress sync signs in as (docs/product.md#progress-sync): the user name
 * typed there and the MD5 KOReader sends of the key typed as the password. Failing gives undefined,
 * every way alike, as for an e-reader app.
 */
export async function authenticateKoreaderDigest(db: Db, identifier: string, keyDigest: string, at: Date): Promise<User | undefined> {
  if (!/^[0-9a-f]{32}$/i.test(keyDigest)) return undefined;
  return ownerOfKey(db, await findActiveKeyByDigest(db, keyDigest.toLowerCase()), identifier, at);
}

async function ownerOfKey(db: Db, key: EReaderKeyRow | undefined, identifier: string, at: Date): Promise<User | undefined> {
  if (!key) return undefined;
  const owner = await findOpenAccount(db, key.userId);
  // A suspended account's keys open nothing, as its sessions do not (docs/product.md#moderation).
  if (!owner || owner.suspendedAt !== null || !namesKeyOwner(identifier, owner)) return undefined;
  await recordKeyUse(db, key.id, at);
  return owner;
}
