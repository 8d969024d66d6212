import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The folder holding package.json, found the same way from the sources and from the built bundle. */
function findProjectRoot(start: string): string {
  let folder = start;
  while (!existsSync(join(folder, "package.json"))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`No package.json above ${start}`);
    folder = parent;
  }
  return folder;
}

export const projectRoot = findProjectRoot(dirname(fileURLToPath(import.meta.url)));
export const migrationsFolder = join(projectRoot, "migrations");
export const clientBuildFolder = join(projectRoot, "dist", "client");
