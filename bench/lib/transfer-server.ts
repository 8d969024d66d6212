import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { projectRoot } from "../../server/paths.ts";
import { recreatePostgresDatabase } from "../seed.ts";
import { startPlumeServer } from "./plume-server.ts";
import type { ReadyProcess } from "./ready-process.ts";

/** The transfer benchmarks' own database: the catalog benchmark's holds its seed. */
export const TRANSFERS_DATABASE_URL = process.env.BENCH_TRANSFERS_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/plume_bench_transfers";
export const CACHE_DIR = join(projectRoot, "bench", ".cache");
export const RESULTS_DIR = join(projectRoot, "bench", "results");

export interface TransferServer {
  server: ReadyProcess;
  /** DATA_DIR/uploads: where the server keeps books (books/), covers and uploads in flight (tmp/). */
  uploadsDir: string;
}

/**
 * The real server in production mode on an empty database and data folder, as behind the TLS proxy
 * production runs behind (TRUST_PROXY=loopback: the benchmark sends X-Forwarded-Proto), so its
 * Secure session cookie works over the benchmark's plain HTTP. Every reader downloads from the same
 * address: the per-address cap on counted downloads is lifted like the abuse limits. `settings` adds
 * to them (a bucket's, for instance).
 */
export async function startTransferServer(benchmark: string, settings: Record<string, string> = {}): Promise<TransferServer> {
  await recreatePostgresDatabase(TRANSFERS_DATABASE_URL);
  const dataDir = join(CACHE_DIR, benchmark, "plume-data");
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  return startAnotherTransferServer(benchmark, benchmark, settings);
}

/**
 * One more server on the database and data folder startTransferServer made for `benchmark` (as the
 * processes of docs/deploy.md share them), with settings of its own; `name` names its log.
 */
export async function startAnotherTransferServer(benchmark: string, name: string, settings: Record<string, string>): Promise<TransferServer> {
  const dataDir = join(CACHE_DIR, benchmark, "plume-data");
  const server = await startPlumeServer(
    { kind: "postgres", url: TRANSFERS_DATABASE_URL },
    {
      dataDir,
      logFile: join(RESULTS_DIR, `plume-${name}.log`),
      settings: { TRUST_PROXY: "loopback", COUNTED_PER_IP_PER_BOOK_PER_DAY: "1000", ...settings },
    },
  );
  return { server, uploadsDir: join(dataDir, "uploads") };
}

/**
 * Published PDFs get their first page drawn and their pages counted in the background, one at a time,
 * in a process of their own (docs/decisions/0031-covers-for-every-book.md): waits until every book has
 * its page count, so that what a benchmark measures next (files left behind, a download's CPU) is not
 * the cover's work.
 */
export async function coversDrawn(timeoutMs = 180_000): Promise<void> {
  const client = new pg.Client({ connectionString: TRANSFERS_DATABASE_URL });
  await client.connect();
  try {
    for (const started = Date.now(); Date.now() - started < timeoutMs; await new Promise((resolve) => setTimeout(resolve, 250))) {
      const { rows } = await client.query<{ count: number }>("select count(*)::int as count from books where page_count is null");
      if (rows[0]!.count === 0) return;
    }
    throw new Error(`Published books still lack their page count after ${timeoutMs / 1000} s`);
  } finally {
    await client.end();
  }
}
