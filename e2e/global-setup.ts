import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { build } from "vite";
import { loadConfig } from "../server/config.ts";
import { serveBuiltClient } from "../server/http/serve-client.ts";
import { clientBuildFolder, projectRoot } from "../server/paths.ts";
import { startServer } from "../server/server.ts";
import { freePort } from "../server/test/free-port.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

/** Builds the browser app and serves it with the real server on a free port and a throwaway data folder. */
export default async function setup(project: TestProject) {
  await build({ configFile: join(projectRoot, "vite.config.ts"), logLevel: "warn" });
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
  });
  const server = await startServer(config, serveBuiltClient(clientBuildFolder));
  project.provide("baseUrl", server.url);
  return async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
