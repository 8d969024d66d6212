import { ZeroAddress, getAddress } from "ethers";
import type { Db } from "../db/client.ts";
import type { User } from "../db/schema.ts";
import { validationFailed } from "../http/errors.ts";
import { setWalletAddress } from "./users-repository.ts";

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

export async function connectWallet(db: Db, user: User, address: string): Promise<User> {
  return setWalletAddress(db, user.id, checksummedAddress(address));
}
