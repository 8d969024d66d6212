import { sql } from "drizzle-orm";
import type { PmeChain } from "../chain/pme-chain.ts";
import type { Db } from "../db/client.ts";
import { newestAppliedMigrationMillis, newestCommittedMigration } from "../db/migration-journal.ts";
import { readPayoutHealth } from "../rewards/payout-health-repository.ts";
import type { FileStore } from "../storage/file-store.ts";
import { logger } from "./logger.ts";

/** A probe must answer before the prober gives up (Kubernetes waits 1 s by default; load balancers a few). */
const CHECK_TIMEOUT_MS = 2_000;

type Outcome = "ok" | "failed";

export interface Readiness {
  ready: boolean;
  checks: { database: Outcome; migrations: Outcome; storage: Outcome };
  /** Reported, never counted against readiness: payouts can wait, pages cannot (docs/decisions/0040). */
  chain: { reachable: boolean; latestBlock: number | null; finalityLagSeconds: number | null; payouts: string | null };
}

export interface ReadinessDeps {
  db: Db;
  store: FileStore;
  payoutChain: PmeChain;
}

function withinTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The probe's answer says which check failed, never why (an error can name a host or a user); the log says why. */
async function outcomeOf(check: string, run: () => Promise<unknown>): Promise<Outcome> {
  try {
    await withinTimeout(run());
    return "ok";
  } catch (error) {
    logger.warn({ check, error: (error as Error).message }, "readiness check failed");
    return "failed";
  }
}

/** Whether this process can serve pages: its database answers and is migrated, and uploads can be written. */
export function readinessCheck({ db, store, payoutChain }: ReadinessDeps): () => Promise<Readiness> {
  const migrationsWanted = newestCommittedMigration().when;
  const migrationsApplied = async () => {
    if ((await newestAppliedMigrationMillis(db)) < migrationsWanted) throw new Error("migrations are not all applied");
  };
  const chainReport = async (): Promise<Readiness["chain"]> => {
    const [latestBlock, health] = await Promise.all([
      withinTimeout(payoutChain.blockNumber()).catch(() => null),
      readPayoutHealth(db, payoutChain.hotWallet.address).catch(() => null),
    ]);
    return { reachable: latestBlock !== null, latestBlock, finalityLagSeconds: health?.finalityLagSeconds ?? null, payouts: health?.state ?? null };
  };
  return async () => {
    const [database, migrations, storage, chain] = await Promise.all([
      outcomeOf("database", () => db.execute(sql`select 1`)),
      outcomeOf("migrations", migrationsApplied),
      outcomeOf("storage", () => store.check()),
      chainReport(),
    ]);
    const checks = { database, migrations, storage };
    return { ready: Object.values(checks).every((outcome) => outcome === "ok"), checks, chain };
  };
}
