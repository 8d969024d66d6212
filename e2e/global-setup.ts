import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { buildClient } from "../server/http/client-build.ts";
import { startE2eServer } from "./test-server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    /** Where the server writes its mail as .eml files (no SMTP_URL): journeys follow the links in them. */
    mailDir: string;
    /** The built app, for a suite that starts a server of its own with other settings. */
    clientFolder: string;
  }
}

/**
 * Builds the browser app into a throwaway folder (so runs side by side never overwrite each other's
 * build) and serves it with the real server on a free port and a throwaway data folder.
 */
export default async function setup(project: TestProject) {
  const clientFolder = mkdtempSync(join(tmpdir(), "plume-e2e-client-"));
  await buildClient(clientFolder);
  const server = await startE2eServer(clientFolder);
  project.provide("baseUrl", server.url);
  project.provide("mailDir", server.mailDir);
  project.provide("clientFolder", clientFolder);
  return async () => {
    await server.close();
    rmSync(clientFolder, { recursive: true, force: true });
  };
}
