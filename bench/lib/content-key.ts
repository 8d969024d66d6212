import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { projectRoot } from "../../server/paths.ts";

function filesBelow(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((entry) => filesBelow(join(path, entry)));
}

/**
 * What a kept copy in bench/.cache is keyed by: a short hash of `extra` and of every file under
 * `paths` (their names within the project and their contents). Tests are left out: they shape nothing
 * a benchmark builds.
 */
export function contentKey(paths: string[], extra = ""): string {
  const hash = createHash("sha256").update(extra);
  for (const file of paths.flatMap(filesBelow).filter((name) => !/\.test\.tsx?$/.test(name))) hash.update(relative(projectRoot, file)).update(readFileSync(file));
  return hash.digest("hex").slice(0, 12);
}
