import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { migrationsFolder, projectRoot } from "../../server/paths.ts";
import { contentKey } from "../lib/content-key.ts";
import { type SeedReport, type SeedTarget, onMaintenanceDatabase, recreatePostgresDatabase, seedDatabase } from "../seed.ts";
import type { SeedSizes } from "./catalog-data.ts";

/**
 * The quick run's seeds, kept between runs and keyed by their content: the sizes, the migrations and
 * every source that shapes the rows. A kept seed is copied in (PostgreSQL: `create database … template`;
 * PGlite: its data folder) and reports the time it took when it was made; a change to any of those
 * sources makes and times it anew.
 */

export interface KeptSeed {
  report: SeedReport;
  seededAt: string;
  reused: boolean;
}

/** What decides the seeded rows, besides the sizes. */
const SOURCES = [
  migrationsFolder,
  join(projectRoot, "server", "db", "schema.ts"),
  join(projectRoot, "server", "accounts", "passwords.ts"),
  join(projectRoot, "bench", "seed.ts"),
  join(projectRoot, "bench", "seed"),
];

const seedKey = (sizes: SeedSizes) => contentKey(SOURCES, JSON.stringify(sizes));

interface Kept {
  report: SeedReport;
  seededAt: string;
}

const readKept = (file: string): Kept | null => (existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Kept) : null);

/** A PostgreSQL seed is kept as a template database beside the target, `<name>_seed_<key>`; older ones are dropped. */
async function keptPostgres(url: string, sizes: SeedSizes, cacheDir: string, log: (line: string) => void): Promise<KeptSeed> {
  const key = seedKey(sizes);
  const reportFile = join(cacheDir, `postgres-seed-${key}.json`);
  const kept = readKept(reportFile);
  const template = await onMaintenanceDatabase(url, async (admin, name) => {
    const found = await admin.query("select 1 from pg_database where datname = $1", [`${name}_seed_${key}`]);
    return { name: `${name}_seed_${key}`, exists: found.rowCount === 1, prefix: `${name}_seed_` };
  });
  if (kept && template.exists) {
    await recreatePostgresDatabase(url, template.name);
    return { ...kept, reused: true };
  }
  const report = await seedDatabase({ kind: "postgres", url }, sizes, { fresh: true, log });
  await onMaintenanceDatabase(url, async (admin, name) => {
    const older = await admin.query<{ datname: string }>("select datname from pg_database where starts_with(datname, $1)", [template.prefix]);
    for (const { datname } of older.rows) await admin.query(`drop database ${datname} with (force)`);
    await admin.query(`create database ${template.name} template ${name}`);
  });
  const made: Kept = { report, seededAt: new Date().toISOString() };
  writeFileSync(reportFile, JSON.stringify(made));
  return { ...made, reused: false };
}

/** A PGlite seed is kept as a copy of its data folder, `pglite-seed-<key>` in the cache; older ones are removed. */
async function keptPglite(dataDir: string, sizes: SeedSizes, cacheDir: string, log: (line: string) => void): Promise<KeptSeed> {
  const key = seedKey(sizes);
  const folder = join(cacheDir, `pglite-seed-${key}`);
  const reportFile = join(folder, "seed.json");
  const kept = readKept(reportFile);
  const database = join(dataDir, "pglite");
  if (kept) {
    rmSync(database, { recursive: true, force: true });
    cpSync(join(folder, "pglite"), database, { recursive: true });
    return { ...kept, reused: true };
  }
  const report = await seedDatabase({ kind: "pglite", dataDir }, sizes, { fresh: true, log });
  for (const entry of readdirSync(cacheDir)) if (entry.startsWith("pglite-seed-")) rmSync(join(cacheDir, entry), { recursive: true, force: true });
  cpSync(database, join(folder, "pglite"), { recursive: true });
  const made: Kept = { report, seededAt: new Date().toISOString() };
  // Written last: a folder without it is an interrupted copy, made again next time.
  writeFileSync(reportFile, JSON.stringify(made));
  return { ...made, reused: false };
}

export async function keptSeed(target: SeedTarget, sizes: SeedSizes, options: { cacheDir: string; log: (line: string) => void }): Promise<KeptSeed> {
  return target.kind === "postgres" ? keptPostgres(target.url, sizes, options.cacheDir, options.log) : keptPglite(target.dataDir, sizes, options.cacheDir, options.log);
}

/**
 * A run's seed: the quick run's kept one (in `cacheDir`, which keeps one seed per kind: a benchmark
 * with seeds of its own sizes gives its own folder), the full run's made afresh and timed.
 */
export async function seedForRun(target: SeedTarget, sizes: SeedSizes, options: { quick: boolean; cacheDir: string; log: (line: string) => void }): Promise<KeptSeed> {
  if (options.quick) return keptSeed(target, sizes, options);
  return { report: await seedDatabase(target, sizes, { fresh: true, log: options.log }), seededAt: new Date().toISOString(), reused: false };
}
