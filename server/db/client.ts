import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { migrationsFolder } from "../paths.ts";
import { lockDataDir } from "./data-dir-lock.ts";
import * as schema from "./schema.ts";
import { logger } from "../system/logger.ts";

type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Repositories take either, so a service decides where the transaction boundary is. */
export type Queryable = Db | Tx;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** Applies the committed SQL migrations that the database has not seen yet. */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: its data folder as one tar file, which `startFrom` opens again (the test suites' template). */
  dumpDataDir?(): Promise<Blob>;
}

export type DatabaseTarget =
  | { kind: "postgres"; url: string; poolSize?: number }
  /**
   * `dataDir` null keeps the embedded database in memory (tests); `startFrom` is a dump of another
   * one's data folder to start from, which skips initdb (the test suites' migrated template).
   */
  | { kind: "pglite"; dataDir: string | null; startFrom?: Blob };

/** Connections a server's PostgreSQL pool opens at most (benchmarked in docs/performance.md). */
export const DEFAULT_POOL_SIZE = 10;

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize ?? DEFAULT_POOL_SIZE });
    // An idle client losing its server must not crash the process; the next query reconnects.
    pool.on("error", (error) => logger.error({ component: "db", error: error.message }, "idle connection error"));
    return {
      db: drizzleNodePg(pool, { schema }),
      kind: "postgres",
      migrate: () => migratePostgres(pool),
      close: () => pool.end(),
    };
  }

  const unlock = target.dataDir ? lockDataDir(target.dataDir) : () => {};
  try {
    const client = await PGlite.create(target.dataDir ? join(target.dataDir, "pglite") : undefined, {
      extensions: { unaccent, pg_trgm },
      ...(target.startFrom ? { loadDataDir: target.startFrom } : {}),
    });
    const db = drizzlePglite(client, { schema });
    return {
      db,
      kind: "pglite",
      migrate: () => migratePglite(db, { migrationsFolder }),
      dumpDataDir: () => client.dumpDataDir("none"),
      close: async () => {
        await client.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

// Any fixed number: every Plume process agrees on it, so servers starting together migrate one at a time.
const MIGRATION_LOCK_KEY = 72_617_001;

async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      await migrateNodePg(drizzleNodePg(client), { migrationsFolder });
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}
