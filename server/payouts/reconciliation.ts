import { eq } from "drizzle-orm";
import { formatUnits } from "ethers";
import type { Reconciliation } from "../../shared/admin.ts";
import type { Db } from "../db/client.ts";
import { payments } from "../db/schema.ts";
import type { PmeChain } from "./pme-chain.ts";

/** Compares the hot wallet's PME transfers on chain with the completed payments of the ledger. */
export async function reconcile(db: Db, chain: PmeChain): Promise<Reconciliation> {
  try {
    const identity = await chain.identity();
    const [transfers, completed] = await Promise.all([
      chain.outgoingTransfers(),
      db.select().from(payments).where(eq(payments.status, "completed")),
    ]);
    const sameChain = (row: (typeof completed)[number]) =>
      row.chainId === identity.chainId && row.genesisHash === identity.genesisHash && row.tokenAddress === identity.tokenAddress;
    const current = completed.filter(sameChain);
    const transferByHash = new Map(transfers.map((transfer) => [transfer.transactionHash.toLowerCase(), transfer]));
    const paidHashes = new Set(current.map((row) => row.transactionHash?.toLowerCase()));
    const matches = (row: (typeof current)[number]) => {
      const transfer = transferByHash.get(row.transactionHash?.toLowerCase() ?? "");
      return transfer && transfer.to.toLowerCase() === row.walletAddress?.toLowerCase() && transfer.amount.toString() === row.tokensSent;
    };
    return {
      available: true,
      sentOnChain: formatUnits(transfers.reduce((sum, transfer) => sum + transfer.amount, 0n), 18),
      completedInLedger: formatUnits(current.reduce((sum, row) => sum + BigInt(row.tokensSent ?? "0"), 0n), 18),
      transfersWithoutPayment: transfers
        .filter((transfer) => !paidHashes.has(transfer.transactionHash.toLowerCase()))
        .map((transfer) => ({ transactionHash: transfer.transactionHash, to: transfer.to, amount: formatUnits(transfer.amount, 18) })),
      paymentsWithoutTransfer: current.filter((row) => !matches(row)).map((row) => ({ paymentId: row.id, transactionHash: row.transactionHash })),
      completedOnEarlierChain: completed.filter((row) => !sameChain(row)).map((row) => row.id),
    };
  } catch (error) {
    return { available: false, reason: `The chain could not be read: ${(error as Error).message.split("\n")[0]}` };
  }
}

