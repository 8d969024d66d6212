import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { projectRoot } from "../../server/paths.ts";

/** The migrations folder as it stood before a migration: a copy with the journal cut just before `tag`. */
export function migrationsBefore(tag: string): string {
  const folder = mkdtempSync(join(tmpdir(), "plume-migrations-"));
  cpSync(join(projectRoot, "migrations"), folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: Array<{ tag: string }> };
  journal.entries = journal.entries.slice(0, journal.entries.findIndex((entry) => entry.tag === tag));
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}
