import { rmSync } from "node:fs";
import { join, relative } from "node:path";
import { build } from "esbuild";
import { projectRoot } from "../../server/paths.ts";
import { serverBundleOptions } from "../../scripts/server-bundle-options.mjs";

/**
 * The Plume servers a run starts, bundled once per run as scripts/build-server.mjs bundles production's:
 * started from the sources, each one had tsx compile the server again (some 2 s of a core at each of a
 * run's dozen starts, and as much again at each Word conversion's cage). Inside the project, because
 * server/paths.ts finds the project root by walking up to package.json (docs/decisions/0084).
 */
const BUNDLE_FOLDER = join(projectRoot, "bench", ".cache", "server-bundle");

/** The scripts a benchmark starts, by their source path: the bundle keeps each one's path below its folder. */
const ENTRIES = {
  api: "test/reliability/api-server.ts",
  app: "bench/lib/app-server.ts",
  // server/system/caged-job.ts forks it by this path below SERVER_BUNDLE_FOLDER.
  wordView: "server/reading/word-view-process.ts",
} as const;

let built: Promise<void> | undefined;

async function buildBundle(): Promise<void> {
  // Chunks of an earlier run's bundle would pile up: no server of that run is still running.
  rmSync(BUNDLE_FOLDER, { recursive: true, force: true });
  await build({
    ...serverBundleOptions(relative(projectRoot, BUNDLE_FOLDER)),
    entryPoints: Object.values(ENTRIES),
    outbase: projectRoot,
    outdir: BUNDLE_FOLDER,
  });
}

/** The bundled script of a server, built at the first call of the run. */
export async function bundledServerScript(entry: "api" | "app"): Promise<string> {
  built ??= buildBundle();
  await built;
  return join(BUNDLE_FOLDER, ENTRIES[entry].replace(/\.ts$/, ".js"));
}
