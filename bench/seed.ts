// `npx tsx bench/seed.ts --books 100000 --users 10000 --downloads 1000000 --seed 42 (--database-url URL | --pglite DIR) [--fresh]`:
// fills a database with the benchmark catalog (bench/seed/catalog-data.ts) and prints how long it took.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { hashPassword } from "../server/accounts/passwords.ts";
import { type Database, openDatabase } from "../server/db/client.ts";
import { bookEditions, books, downloads, payments, users } from "../server/db/schema.ts";
import { type BulkConnection, continueIdentityAfterRows, copyRows, pgliteConnection, postgresConnection, setIndexesAside } from "./seed/bulk-load.ts";
import { type SeedSizes, generateCatalog } from "./seed/catalog-data.ts";

/** Every seeded account signs in with this password (benchmarks of signed-in calls need one). */
export const BENCH_PASSWORD = "bench-password";

export const FULL_SIZES: SeedSizes = { books: 100_000, users: 10_000, downloads: 1_000_000, seed: 42 };

export type SeedTarget = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };

export interface SeedReport {
  sizes: SeedSizes;
  rows: { users: number; books: number; editions: number; downloads: number; payments: number };
  /** Making the rows in memory, loading them (COPY), building indexes and keys, VACUUM ANALYZE. */
  timingsMs: { generate: number; load: number; indexes: number; analyze: number; total: number };
}

const SEEDED_TABLES = ["users", "books", "book_editions", "downloads", "payments"];

/** A PostgreSQL database name the seed may drop and create: plain, so it needs no quoting. */
function databaseNameOf(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`The database name "${name}" must be lower-case letters, digits and underscores`);
  return name;
}

/** Work on the server of `url` through its maintenance database, given the (plain) name of `url`'s own. */
export async function onMaintenanceDatabase<T>(url: string, work: (admin: pg.Client, name: string) => Promise<T>): Promise<T> {
  const name = databaseNameOf(url);
  const maintenance = new URL(url);
  maintenance.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: maintenance.toString() });
  await admin.connect();
  try {
    return await work(admin, name);
  } finally {
    await admin.end();
  }
}

/** Drops and creates the database of `url`, empty or as a copy of `template`. */
export async function recreatePostgresDatabase(url: string, template?: string): Promise<void> {
  await onMaintenanceDatabase(url, async (admin, name) => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}${template ? ` template ${template}` : ""}`);
  });
}

/** One connection of the driver under Drizzle (its documented `$client`), as COPY needs, and what gives it back. */
async function bulkConnectionOf(database: Database): Promise<{ connection: BulkConnection; release: () => void }> {
  const client = (database.db as unknown as { $client: unknown }).$client;
  if (client instanceof pg.Pool) {
    const pooled = await client.connect();
    return { connection: postgresConnection(pooled), release: () => pooled.release() };
  }
  if (client instanceof PGlite) return { connection: pgliteConnection(client), release: () => {} };
  throw new Error("The database is neither a pg pool nor PGlite");
}

async function timed<T>(work: () => Promise<T> | T): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, Math.round(performance.now() - started)];
}

/**
 * Seeds a database with the app's own schema (openDatabase + migrate): `fresh` drops what was
 * there first; otherwise the database must be empty. Everything is loaded in one transaction.
 */
export async function seedDatabase(target: SeedTarget, sizes: SeedSizes, options: { fresh: boolean; log: (line: string) => void }): Promise<SeedReport> {
  const started = performance.now();
  if (options.fresh && target.kind === "postgres") await recreatePostgresDatabase(target.url);
  if (options.fresh && target.kind === "pglite") rmSync(join(target.dataDir, "pglite"), { recursive: true, force: true });
  const database = await openDatabase(target.kind === "postgres" ? { kind: "postgres", url: target.url, poolSize: 2 } : target);
  let release = () => {};
  try {
    await database.migrate();
    const bulk = await bulkConnectionOf(database);
    release = bulk.release;
    const { connection } = bulk;
    const [existing] = await connection.query("select count(*)::int as count from users");
    if (existing!.count !== 0) throw new Error("The database already has users: seed an empty database, or pass --fresh");

    const passwordHash = await hashPassword(BENCH_PASSWORD);
    const [catalog, generate] = await timed(() => generateCatalog(sizes, passwordHash));
    options.log(`generated ${catalog.books.length} books (${catalog.editions.length} editions), ${catalog.users.length} users, ${catalog.downloadTotal} downloads, ${catalog.payments.length} payments in ${generate} ms`);

    await connection.query("begin");
    try {
      if (target.kind === "postgres") {
        await connection.query("set local synchronous_commit = off");
        await connection.query("set local maintenance_work_mem = '256MB'");
      }
      const restoreIndexes = await setIndexesAside(connection, SEEDED_TABLES);
      const [rows, load] = await timed(async () => ({
        users: await copyRows(connection, users, catalog.users),
        books: await copyRows(connection, books, catalog.books),
        editions: await copyRows(connection, bookEditions, catalog.editions),
        downloads: await copyRows(connection, downloads, catalog.downloadRows()),
        payments: await copyRows(connection, payments, catalog.payments),
      }));
      for (const table of ["books", "book_editions", "downloads", "payments"]) await continueIdentityAfterRows(connection, table);
      options.log(`loaded the rows in ${load} ms`);
      const [, indexes] = await timed(restoreIndexes);
      options.log(`built indexes and foreign keys in ${indexes} ms`);
      await connection.query("commit");
      const [, analyze] = await timed(() => connection.query(`vacuum analyze ${SEEDED_TABLES.join(", ")}`));
      return { sizes, rows, timingsMs: { generate, load, indexes, analyze, total: Math.round(performance.now() - started) } };
    } catch (error) {
      await connection.query("rollback");
      throw error;
    }
  } finally {
    release();
    await database.close();
  }
}

function wholeNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new Error(`--${name} must be a whole number`);
  return Number(value);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      books: { type: "string" },
      users: { type: "string" },
      downloads: { type: "string" },
      seed: { type: "string" },
      "database-url": { type: "string" },
      pglite: { type: "string" },
      fresh: { type: "boolean", default: false },
    },
  });
  const sizes: SeedSizes = {
    books: wholeNumber("books", values.books, FULL_SIZES.books),
    users: wholeNumber("users", values.users, FULL_SIZES.users),
    downloads: wholeNumber("downloads", values.downloads, FULL_SIZES.downloads),
    seed: wholeNumber("seed", values.seed, FULL_SIZES.seed),
  };
  const url = values["database-url"];
  if (Boolean(url) === Boolean(values.pglite)) throw new Error("Give exactly one of --database-url URL and --pglite DIR");
  const target: SeedTarget = url ? { kind: "postgres", url } : { kind: "pglite", dataDir: values.pglite! };
  const report = await seedDatabase(target, sizes, { fresh: values.fresh, log: (line) => console.log(line) });
  console.log(`Seeded ${target.kind} in ${(report.timingsMs.total / 1000).toFixed(1)} s: ${JSON.stringify(report.rows)} (${JSON.stringify(report.timingsMs)} ms)`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error: Error) => {
    console.error(`Seeding failed: ${error.message}`);
    process.exit(1);
  });
}
