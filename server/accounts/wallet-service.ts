import { randomBytes } from "node:crypto";
import { ZeroAddress, getAddress, verifyMessage } from "ethers";
import { type WalletProofMessage, parseWalletProofMessage } from "../../shared/wallet-proof.ts";
import type { WalletChallenge } from "../../shared/wallet-schemas.ts";
import type { Db, Queryable } from "../db/client.ts";
import type { User } from "../db/schema.ts";
import { conflict, validationFailed } from "../http/errors.ts";
import { isWalletHeldByAnother, lockWalletAddress, setWalletAddress } from "./users-repository.ts";

/** How long a nonce may wait for its signature (docs/product.md#wallet). */
export const WALLET_NONCE_TTL_MS = 10 * 60 * 1000;
/** A wallet's clock may run a little ahead of ours: an issue time this far in the future still counts as now. */
const CLOCK_SKEW_MS = 60 * 1000;

/** The nonce waiting in the session for its signed message; spent by the first attempt, whatever its outcome. */
export interface PendingWalletProof {
  nonce: string;
  walletAddress: string;
  expiresAt: number;
}

/** What the signed message must name: where it was signed, for which chain, and the addresses that are never a payee. */
export interface WalletProofContext {
  origin: string;
  chainId: number;
  /** The hot wallet pays and the token contract holds nothing it could pass on: neither receives author payments. */
  refusedAddresses: string[];
  now: Date;
}

const proofRefused = (message: string, field = "walletProof.errors.invalid") => validationFailed(message, { signature: field });

/**
 * The EIP-55 form of an address: an all-lowercase (or all-uppercase) address is accepted and
 * checksummed; a mixed-case one must already carry the right checksum, or it was mistyped.
 */
export function checksummedAddress(address: string): string {
  let checksummed: string;
  try {
    checksummed = getAddress(address);
  } catch {
    throw validationFailed("The wallet address has a wrong EIP-55 checksum.", { walletAddress: "validation.walletChecksum" });
  }
  // Tokens sent to the zero address are burnt (and PME refuses the transfer): never a payout target.
  if (checksummed === ZeroAddress) throw validationFailed("The zero address cannot receive payments.", { walletAddress: "validation.walletInvalid" });
  return checksummed;
}

/** Refuses an address that may not become this author's payee; run again under the address's lock before saving. */
async function assertAttachable(db: Queryable, user: User, address: string, refusedAddresses: string[]): Promise<void> {
  if (refusedAddresses.some((refused) => refused.toLowerCase() === address.toLowerCase())) {
    throw validationFailed("This address belongs to the platform and cannot receive author payments.", { walletAddress: "walletProof.errors.platformAddress" });
  }
  if (await isWalletHeldByAnother(db, address, user.id)) {
    throw conflict("wallet_taken", "This wallet is already connected to another account.", { walletAddress: "walletProof.errors.taken" });
  }
}

/** A fresh nonce for this account, once the address is one the author could attach. */
export async function issueWalletChallenge(
  db: Db,
  user: User,
  address: string,
  { chainId, refusedAddresses, now }: Omit<WalletProofContext, "origin">,
): Promise<{ challenge: WalletChallenge; pending: PendingWalletProof }> {
  const walletAddress = checksummedAddress(address);
  await assertAttachable(db, user, walletAddress, refusedAddresses);
  const nonce = randomBytes(16).toString("hex");
  const expiresAt = now.getTime() + WALLET_NONCE_TTL_MS;
  return {
    challenge: { nonce, walletAddress, chainId, expiresAt: new Date(expiresAt).toISOString() },
    pending: { nonce, walletAddress, expiresAt },
  };
}

/** Everything in the message that is not the signature's business: origin, chain, nonce, time. */
function checkMessage(message: WalletProofMessage, pending: PendingWalletProof | undefined, { origin, chainId, now }: WalletProofContext): void {
  const expected = new URL(origin);
  let uri: URL;
  try {
    uri = new URL(message.uri);
  } catch {
    throw proofRefused("The signed message's URI is not a URL.");
  }
  if (message.domain !== expected.host || uri.origin !== expected.origin) {
    throw proofRefused("The signed message was made for another site.", "walletProof.errors.otherSite");
  }
  if (message.chainId !== chainId) throw proofRefused("The signed message names another chain.", "walletProof.errors.otherChain");
  if (!pending || pending.nonce !== message.nonce) throw proofRefused("This sign-in request was already used or never issued.", "walletProof.errors.expired");
  if (pending.expiresAt <= now.getTime()) throw proofRefused("This sign-in request has expired.", "walletProof.errors.expired");
  if (Date.parse(message.issuedAt) > now.getTime() + CLOCK_SKEW_MS) throw proofRefused("The signed message was issued in the future.");
  if (message.address !== pending.walletAddress) throw proofRefused("The signed message names another account than the one asked for.", "walletProof.errors.otherAccount");
}

/**
 * Saves the wallet once the signed EIP-4361 message proves the author holds its key
 * (docs/decisions/0035-wallet-proof.md). The caller has already spent `pending`.
 */
export async function connectWallet(
  db: Db,
  user: User,
  { message, signature }: { message: string; signature: string },
  pending: PendingWalletProof | undefined,
  context: WalletProofContext,
): Promise<User> {
  const parsed = parseWalletProofMessage(message);
  if (!parsed) throw proofRefused("The signed message is not a Plume sign-in message.");
  checkMessage(parsed, pending, context);
  let signer: string;
  try {
    signer = verifyMessage(message, signature);
  } catch {
    throw proofRefused("The signature cannot be read.");
  }
  if (signer !== parsed.address) throw proofRefused("The message was signed by another key than the account's.", "walletProof.errors.otherSigner");
  const address = checksummedAddress(parsed.address);
  return db.transaction(async (tx) => {
    await lockWalletAddress(tx, address);
    await assertAttachable(tx, user, address, context.refusedAddresses);
    return setWalletAddress(tx, user.id, address);
  });
}
