import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { chainScanCursors, chainTransfers } from "../db/schema.ts";
import type { ChainIdentity, OutgoingTransfer } from "../chain/pme-chain.ts";

/** One scan per chain identity, token and hot wallet: a restarted local chain is scanned anew. */
export const chainScanKey = (identity: ChainIdentity, wallet: string) =>
  [identity.chainId, identity.genesisHash, identity.tokenAddress, wallet].join(":").toLowerCase();

export async function readNextBlock(db: Db, chain: string): Promise<number | undefined> {
  const [row] = await db.select({ nextBlock: chainScanCursors.nextBlock }).from(chainScanCursors).where(eq(chainScanCursors.chain, chain));
  return row?.nextBlock;
}

/**
 * Keeps the transfers of a scanned block range and moves the cursor past it, together: a crash
 * between the two would skip the range or read it twice (reading twice is harmless, the rows are
 * keyed by transaction and log). Two scans at once only ever move the cursor forward.
 */
export async function storeScannedRange(db: Db, chain: string, transfers: OutgoingTransfer[], nextBlock: number): Promise<void> {
  await db.transaction(async (tx) => {
    if (transfers.length > 0) {
      await tx
        .insert(chainTransfers)
        .values(transfers.map((transfer) => ({ chain, ...transfer, toAddress: transfer.to, amount: transfer.amount.toString() })))
        .onConflictDoNothing();
    }
    await tx
      .insert(chainScanCursors)
      .values({ chain, nextBlock })
      .onConflictDoUpdate({ target: chainScanCursors.chain, set: { nextBlock: sql`greatest(${chainScanCursors.nextBlock}, excluded.next_block)` } });
  });
}

export async function listScannedTransfers(db: Db, chain: string): Promise<OutgoingTransfer[]> {
  const rows = await db.select().from(chainTransfers).where(eq(chainTransfers.chain, chain)).orderBy(chainTransfers.blockNumber, chainTransfers.logIndex);
  return rows.map((row) => ({
    transactionHash: row.transactionHash,
    logIndex: row.logIndex,
    to: row.toAddress,
    amount: BigInt(row.amount),
    blockNumber: row.blockNumber,
  }));
}
