import { projectRoot } from "../../server/paths.ts";
import { LIFTED_RATE_LIMITS, TEST_CHAIN, TEST_COPY_CHECKS } from "../../test/helpers/test-app.ts";
import { type ReadyProcess, startReadyProcess } from "./ready-process.ts";
import { bundledServerScript } from "./server-bundle.ts";

export type PlumeDatabase = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };

/**
 * The real Plume server (server/server.ts startServer: migrations, API, payout worker), without
 * the browser app unless given the folder it was built into, in a process of its own, the abuse
 * limits lifted (one machine plays every reader). PostgreSQL runs it as production does; the
 * embedded database is the development default (production requires DATABASE_URL). The chain is
 * an address where nothing listens: the seeded catalog owes no payment, and the worker backs off.
 * Started from the run's bundle (server-bundle.ts), as production starts its own.
 */
export async function startPlumeServer(
  database: PlumeDatabase,
  options: {
    dataDir: string;
    logFile: string;
    /** Settings a benchmark adds or overrides. */
    settings?: Record<string, string>;
    /** A folder buildClient() wrote, served as production serves dist/client. */
    clientFolder?: string;
    /** Options for node itself, before the script (`--max-semi-space-size=2`). */
    nodeFlags?: string[];
  },
): Promise<ReadyProcess> {
  const settings: Record<string, string> = {
    NODE_ENV: database.kind === "postgres" ? "production" : "development",
    HOST: "127.0.0.1",
    PORT: "0",
    DATA_DIR: database.kind === "pglite" ? database.dataDir : options.dataDir,
    ...(database.kind === "postgres" ? { DATABASE_URL: database.url } : {}),
    // Production requires it (docs/decisions/0053); no benchmark follows a link.
    PUBLIC_URL: "https://plume.bench.test",
    SESSION_SECRET: "bench-session-secret-".padEnd(48, "x"),
    RPC_URL: TEST_CHAIN.rpcUrl,
    CHAIN_ID: String(TEST_CHAIN.chainId),
    PME_TOKEN_ADDRESS: TEST_CHAIN.tokenAddress,
    BATCH_PAYER_ADDRESS: TEST_CHAIN.batchPayerAddress,
    PAYOUT_PRIVATE_KEY: TEST_CHAIN.payoutPrivateKey,
    ...LIFTED_RATE_LIMITS,
    // These benchmarks publish one fixture many times, from one account or many: the copy checks would
    // refuse or hide them. What the checks cost an upload is bench/fingerprints.ts's figure.
    ...TEST_COPY_CHECKS,
    ...options.settings,
  };
  return startReadyProcess({
    name: `plume (${database.kind})`,
    command: process.execPath,
    args: [
      ...(options.nodeFlags ?? []),
      ...(options.clientFolder ? [await bundledServerScript("app"), options.clientFolder] : [await bundledServerScript("api")]),
    ],
    env: settings,
    cwd: projectRoot,
    readyLine: /Plume is ready on https?:\/\/[^:\s]+:(\d+)/,
    logFile: options.logFile,
  });
}
