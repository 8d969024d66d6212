import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const map = readFileSync(join(root, "docs/ARCHITECTURE.md"), "utf8");

/** Every folder that holds a committed file, but generated outputs and benchmark results. */
function committedFolders(): string[] {
  const files = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean);
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split("/").slice(0, -1);
    for (let depth = 1; depth <= parts.length; depth++) folders.add(parts.slice(0, depth).join("/"));
  }
  return [...folders].filter((folder) => !folder.startsWith("bench/results")).sort();
}

describe("docs/ARCHITECTURE.md", () => {
  // One hop to any rule: a newcomer finds every folder in the map, by its path or the end of it
  // written as its section does (`features/books/` in the client's, `books/` in the server's).
  const named = (folder: string) => folder.split("/").some((_part, start, parts) => map.includes(`\`${parts.slice(start).join("/")}/`));
  it("names every folder of the repository", () => {
    const unnamed = committedFolders().filter((folder) => !named(folder));
    expect(unnamed).toEqual([]);
  });
});
