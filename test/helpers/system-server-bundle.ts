import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../../server/paths.ts";
import { API_SERVER_SOURCE, BUNDLED_SERVER_VARIABLE } from "../reliability/server-process.ts";
import { buildServerBundle, bundledScript } from "./server-bundle.ts";

/**
 * One folder per run, named by the runner's process id, so that two runs side by side (a file run
 * alone beside `npm test`) never remove each other's bundle. Ignored by git.
 */
const BUNDLES_FOLDER = join(projectRoot, "test", ".cache", "server-bundles");

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Vitest global setup of the system project: the server its scenarios start some 25 times (crashes,
 * chain faults, shutdowns, the cluster) is bundled once per run, as production's is, and each start
 * runs the bundle (test/reliability/server-process.ts) instead of having tsx compile the server again,
 * about 2 s of a core each (docs/decisions/0087). Built afresh at every run, it is never older than the
 * sources; it takes about a second.
 */
export default async function setup(): Promise<() => void> {
  // Left by runs killed before their teardown.
  for (const name of existsSync(BUNDLES_FOLDER) ? readdirSync(BUNDLES_FOLDER) : []) {
    if (!/^\d+$/.test(name) || !isRunning(Number(name))) rmSync(join(BUNDLES_FOLDER, name), { recursive: true, force: true });
  }
  const folder = join(BUNDLES_FOLDER, String(process.pid));
  await buildServerBundle(folder, [API_SERVER_SOURCE]);
  process.env[BUNDLED_SERVER_VARIABLE] = bundledScript(folder, API_SERVER_SOURCE);
  return () => {
    delete process.env[BUNDLED_SERVER_VARIABLE];
    rmSync(folder, { recursive: true, force: true });
  };
}
