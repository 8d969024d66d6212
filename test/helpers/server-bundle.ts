import { join, relative } from "node:path";
import { build } from "esbuild";
import { projectRoot } from "../../server/paths.ts";
import { CAGE_ENTRIES, serverBundleOptions } from "../../scripts/server-bundle-options.mjs";

/**
 * Bundles the scripts at `entries` (paths below the project root) into `folder` with production's
 * options (scripts/server-bundle-options.mjs), each keeping its path below the folder. Started from
 * the sources, a server had tsx compile it again at each start, some 2 s of a core, and each Word
 * conversion's cage as much (docs/decisions/0084, 0087). `folder` must be inside the project:
 * server/paths.ts finds the project root by walking up to package.json, and the bundle reads the
 * migrations and contracts from there.
 */
export async function buildServerBundle(folder: string, entries: readonly string[]): Promise<void> {
  await build({
    ...serverBundleOptions(relative(projectRoot, folder)),
    entryPoints: [...entries, ...CAGE_ENTRIES],
    outbase: projectRoot,
    outdir: folder,
  });
}

/** The bundled script of the entry at `entry` (a path below the project root) in `folder`. */
export const bundledScript = (folder: string, entry: string): string => join(folder, entry.replace(/\.ts$/, ".js"));
