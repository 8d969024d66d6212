import { rmSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../../server/paths.ts";
import { buildServerBundle, bundledScript } from "../../test/helpers/server-bundle.ts";
import { API_SERVER_SOURCE } from "../../test/reliability/server-process.ts";

/** The Plume servers a benchmark starts, bundled once per run as production's is (docs/decisions/0084). */
const BUNDLE_FOLDER = join(projectRoot, "bench", ".cache", "server-bundle");

/** The scripts a benchmark starts, by their source path. */
const ENTRIES = {
  api: API_SERVER_SOURCE,
  app: "bench/lib/app-server.ts",
} as const;

let built: Promise<void> | undefined;

async function buildBundle(): Promise<void> {
  // Chunks of an earlier run's bundle would pile up: no server of that run is still running.
  rmSync(BUNDLE_FOLDER, { recursive: true, force: true });
  await buildServerBundle(BUNDLE_FOLDER, Object.values(ENTRIES));
}

/** The bundled script of a server, built at the first call of the run. */
export async function bundledServerScript(entry: keyof typeof ENTRIES): Promise<string> {
  built ??= buildBundle();
  await built;
  return bundledScript(BUNDLE_FOLDER, ENTRIES[entry]);
}
