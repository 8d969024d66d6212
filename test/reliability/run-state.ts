import { readdirSync } from "node:fs";
import { join } from "node:path";
import { Contract, type JsonRpcProvider } from "ethers";
import { pmeArtifact } from "../../server/chain/pme-artifact.ts";
import type { Db } from "../../server/db/client.ts";
import { books, downloads, payments, users } from "../../server/db/schema.ts";
import type { RunState } from "./invariants.ts";

/** The hot wallet's PME transfers from a block on (a run's hot wallet is new, so nothing before counts). */
export async function readHotWalletTransfers(
  provider: JsonRpcProvider,
  tokenAddress: string,
  hotWallet: string,
  fromBlock: number,
): Promise<RunState["transfers"]> {
  const token = new Contract(tokenAddress, pmeArtifact.abi, provider);
  const events = await token.queryFilter(token.filters.Transfer!(hotWallet), fromBlock, "latest");
  return events.map((event) => {
    const [, to, amount] = token.interface.parseLog(event)!.args;
    return { transactionHash: event.transactionHash, logIndex: event.index, to: to as string, amount: amount as bigint };
  });
}

const filesIn = (folder: string) => readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name);

/** The stored files by folder, as FileStore lays them out under DATA_DIR/uploads. */
export function readStoredFiles(uploadsDir: string): RunState["files"] {
  return { books: filesIn(join(uploadsDir, "books")), covers: filesIn(join(uploadsDir, "covers")), tmp: filesIn(join(uploadsDir, "tmp")) };
}

/** The rows the invariants look at, read straight from the database the server used. */
export async function readLedger(db: Db): Promise<Pick<RunState, "users" | "books" | "downloads" | "payments">> {
  const [userRows, bookRows, downloadRows, paymentRows] = await Promise.all([
    db.select().from(users),
    db.select().from(books),
    db.select().from(downloads),
    db.select().from(payments),
  ]);
  return { users: userRows, books: bookRows, downloads: downloadRows, payments: paymentRows };
}
