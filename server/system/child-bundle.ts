import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { basename, join, relative } from "node:path";
import { serverBundleOptions } from "../../scripts/server-bundle-options.mjs";
import { projectRoot } from "../paths.ts";

/**
 * Inside the project, so that the bundle's imports of packages (left to node_modules, as production's
 * build leaves them) resolve from it. Files are named by their content: processes of one checkout, or of
 * worktrees sharing its node_modules, never overwrite each other's bundle of other sources.
 */
const CACHE_FOLDER = join(projectRoot, "node_modules", ".cache", "plume-cages");

/**
 * Bundles a cage's TypeScript child from the sources into one plain JavaScript file with production's
 * esbuild options (scripts/server-bundle-options.mjs) and answers its path (docs/decisions/0113): run
 * under tsx's loader instead, each child's start had tsx rewrite pdf.js's 3 MB again, 1.5 s of a core
 * per PDF. About 40 ms; written once per content, atomically.
 */
export async function bundleChildSources(sourcePath: string): Promise<string> {
  const { build } = await import("esbuild");
  const outfile = join(CACHE_FOLDER, basename(sourcePath).replace(/\.ts$/, ".js"));
  const { outputFiles } = await build({
    ...serverBundleOptions(relative(projectRoot, CACHE_FOLDER)),
    splitting: false,
    entryPoints: [join(projectRoot, sourcePath)],
    outfile,
    write: false,
  });
  const code = outputFiles![0]!.contents;
  const path = outfile.replace(/\.js$/, `-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.js`);
  if (!existsSync(path)) {
    await mkdir(CACHE_FOLDER, { recursive: true });
    const written = `${path}.${process.pid}.tmp`;
    await writeFile(written, code);
    await rename(written, path);
  }
  return path;
}
