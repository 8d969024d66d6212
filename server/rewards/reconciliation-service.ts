import { formatUnits } from "ethers";
import type { Reconciliation } from "../../shared/admin.ts";
import type { Db } from "../db/client.ts";
import { listCompletedPayments } from "./payments-repository.ts";
import { chainScanKey, listScannedTransfers, readNextBlock, storeScannedRange } from "./chain-scan-repository.ts";
import type { OutgoingTransfer, PmeChain } from "../chain/pme-chain.ts";

/** Reads the hot wallet's transfers in these blocks, at most `blockRange` blocks per call. */
async function transfersInRanges(chain: PmeChain, fromBlock: number, toBlock: number, blockRange: number, each: (transfers: OutgoingTransfer[], lastBlock: number) => Promise<void>) {
  for (let start = fromBlock; start <= toBlock; start += blockRange) {
    const end = Math.min(start + blockRange - 1, toBlock);
    await each(await chain.outgoingTransfers(start, end), end);
  }
}

/**
 * The hot wallet's transfers so far. Settled blocks (finalized, or `confirmations` deep on a node without the tag) are read
 * once, in bounded ranges from the token's deployment, and kept with a cursor
 * (docs/decisions/0024); the few newer blocks, which a reorganisation could still change, are read
 * afresh every time.
 */
async function hotWalletTransfers(db: Db, chain: PmeChain, blockRange: number): Promise<OutgoingTransfer[]> {
  const key = chainScanKey(await chain.identity(), chain.hotWallet.address);
  const { latest, settled } = await chain.heads();
  let next = (await readNextBlock(db, key)) ?? (await chain.deploymentBlock());
  await transfersInRanges(chain, next, settled, blockRange, async (transfers, lastBlock) => {
    await storeScannedRange(db, key, transfers, lastBlock + 1);
    next = lastBlock + 1;
  });
  const recent: OutgoingTransfer[] = [];
  await transfersInRanges(chain, next, latest, blockRange, async (transfers) => void recent.push(...transfers));
  return [...(await listScannedTransfers(db, key)), ...recent];
}

/** Compares the hot wallet's PME transfers on chain with the completed payments of the ledger. */
export async function reconcile(db: Db, chain: PmeChain, { blockRange }: { blockRange: number }): Promise<Reconciliation> {
  try {
    const identity = await chain.identity();
    const [transfers, completed] = await Promise.all([
      hotWalletTransfers(db, chain, blockRange),
      listCompletedPayments(db),
    ]);
    const sameChain = (row: (typeof completed)[number]) =>
      row.chainId === identity.chainId && row.genesisHash === identity.genesisHash && row.tokenAddress === identity.tokenAddress;
    const current = completed.filter(sameChain);
    // A transfer is one log of a transaction: a batch makes many under one hash. Payments completed
    // before batches have no log index, and their transaction made one transfer: the hash names it.
    const keyOf = (hash: string | null, logIndex: number | null) => `${hash?.toLowerCase() ?? ""}:${logIndex ?? "single"}`;
    const transferByKey = new Map(transfers.map((transfer) => [keyOf(transfer.transactionHash, transfer.logIndex), transfer]));
    const singleTransferOf = new Map(transfers.map((transfer) => [keyOf(transfer.transactionHash, null), transfer]));
    const transferOf = (row: (typeof current)[number]) =>
      row.logIndex === null ? singleTransferOf.get(keyOf(row.transactionHash, null)) : transferByKey.get(keyOf(row.transactionHash, row.logIndex));
    const paid = new Set(current.map((row) => transferOf(row)));
    const matches = (row: (typeof current)[number]) => {
      const transfer = transferOf(row);
      return transfer && transfer.to.toLowerCase() === row.walletAddress?.toLowerCase() && transfer.amount.toString() === row.tokensSent;
    };
    return {
      available: true,
      sentOnChain: formatUnits(transfers.reduce((sum, transfer) => sum + transfer.amount, 0n), 18),
      completedInLedger: formatUnits(current.reduce((sum, row) => sum + BigInt(row.tokensSent ?? "0"), 0n), 18),
      transfersWithoutPayment: transfers
        .filter((transfer) => !paid.has(transfer))
        .map((transfer) => ({ transactionHash: transfer.transactionHash, to: transfer.to, amount: formatUnits(transfer.amount, 18) })),
      paymentsWithoutTransfer: current.filter((row) => !matches(row)).map((row) => ({ paymentId: row.id, transactionHash: row.transactionHash })),
      completedOnEarlierChain: completed.filter((row) => !sameChain(row)).map((row) => row.id),
    };
  } catch (error) {
    return { available: false, reason: `The chain could not be read: ${(error as Error).message.split("\n")[0]}` };
  }
}
