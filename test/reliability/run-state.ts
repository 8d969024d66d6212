import { readdirSync } from "node:fs";
import { Contract, type JsonRpcProvider } from "ethers";
import { pmeArtifact } from "../../server/chain/pme-artifact.ts";
import type { Config } from "../../server/config.ts";
import type { Db } from "../../server/db/client.ts";
import { books, downloads, payments, users } from "../../server/db/schema.ts";
import type { StoredKind } from "../../server/storage/file-store.ts";
import { openFileStore } from "../../server/storage/open-store.ts";
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

/** The stored files of a run, through the store its settings name (on disk or in a bucket), and the temporary ones. */
export async function readStoredFiles(config: Pick<Config, "dataDir" | "storage">): Promise<RunState["files"]> {
  const store = await openFileStore(config);
  try {
    const namesOf = async (kind: StoredKind) => (await store.list(kind)).map((entry) => entry.name);
    const tmp = readdirSync(store.temp.dir, { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name);
    return { books: await namesOf("books"), covers: await namesOf("covers"), tmp };
  } finally {
    store.close();
  }
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
