import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../server/config.ts";
import { serveBuiltClient } from "../server/http/serve-client.ts";
import { startServer } from "../server/server.ts";
import { freePort } from "../test/helpers/free-port.ts";
import { LIFTED_RATE_LIMITS, TEST_BACKGROUND_WORK, TEST_PASSWORD_HASHING, TEST_COPY_CHECKS } from "../test/helpers/test-app.ts";

export interface E2eServer {
  url: string;
  /** Where the server writes its mail as .eml files (no SMTP_URL): journeys follow the links in them. */
  mailDir: string;
  close(): Promise<void>;
}

/**
 * The real server on a free port with a throwaway data folder and local chain, serving the built app.
 * `settings` adds to the journeys' environment: a suite that needs another setting (WalletConnect's)
 * starts a server of its own beside the shared one.
 */
export async function startE2eServer(clientFolder: string, settings: NodeJS.ProcessEnv = {}): Promise<E2eServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "plume-e2e-"));
  const config = loadConfig({
    NODE_ENV: "test",
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    ADMIN_EMAIL: "admin@plume.test",
    LOCAL_CHAIN_PORT: String(await freePort()),
    // Journeys play many readers from one machine: each gets an address of its own through the header.
    TRUST_PROXY: "loopback",
    EXPLORER_URL: "http://explorer.test",
    // A line per request of every journey would bury what a failing test prints.
    LOG_LEVEL: "warn",
    // Suites run side by side: a background child below their priority would wait behind them (docs/decisions/0051, 0073).
    ...TEST_BACKGROUND_WORK,
    ...TEST_COPY_CHECKS,
    ...LIFTED_RATE_LIMITS,
    ...TEST_PASSWORD_HASHING,
    ...settings,
  });
  const server = await startServer(config, serveBuiltClient(clientFolder));
  return {
    url: server.url,
    mailDir: join(dataDir, "mail"),
    close: async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
