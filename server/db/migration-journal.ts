import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { migrationsFolder } from "../paths.ts";
import type { Queryable } from "./client.ts";

/** A committed migration as drizzle-kit's journal names it. */
export interface MigrationLevel {
  index: number;
  /** The file's name without `.sql` (0016_payout_batches). */
  tag: string;
  /** When it was generated: what drizzle records for each migration it applies, and their order. */
  when: number;
}

export function committedMigrations(): MigrationLevel[] {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
    entries: { idx: number; tag: string; when: number }[];
  };
  return journal.entries.map(({ idx, tag, when }) => ({ index: idx, tag, when }));
}

export function newestCommittedMigration(): MigrationLevel {
  return committedMigrations().reduce((newest, entry) => (entry.when > newest.when ? entry : newest));
}

/** The `when` of the newest migration the database has applied; 0 when none. */
export async function newestAppliedMigrationMillis(db: Queryable): Promise<number> {
  const [row] = await db.select({ latest: sql<string | null>`max(created_at)::text` }).from(sql`drizzle.__drizzle_migrations`);
  return Number(row?.latest ?? 0);
}
