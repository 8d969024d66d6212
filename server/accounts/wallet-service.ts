import { eq } from "drizzle-orm";
import { getAddress } from "ethers";
import type { Db } from "../db/client.ts";
import { type User, users } from "../db/schema.ts";
import { validationFailed } from "../http/errors.ts";

/**
 * The EIP-55 form of an address: an all-lowercase (or all-uppercase) address is accepted and
 * checksummed; a mixed-case one must already carry the right checksum, or it was mistyped.
 */
export function checksummedAddress(address: string): string {
  try {
    return getAddress(address);
  } catch {
    throw validationFailed("The wallet address has a wrong EIP-55 checksum.", { walletAddress: "validation.walletChecksum" });
  }
}

export async function connectWallet(db: Db, user: User, address: string): Promise<User> {
  const [updated] = await db
    .update(users)
    .set({ walletAddress: checksummedAddress(address) })
    .where(eq(users.id, user.id))
    .returning();
  return updated!;
}
