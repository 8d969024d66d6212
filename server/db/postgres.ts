import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { migrationsFolder } from "../paths.ts";
import { logger } from "../system/logger.ts";
import type { Database } from "./database.ts";
import * as schema from "./schema.ts";

/** PostgreSQL at `url` through a pool of at most `poolSize` connections (server/db/client.ts opens it). */
export function openPostgres(url: string, poolSize: number): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on("error", (error) => logger.error({ component: "db", error: error.message }, "idle connection error"));
  return {
    db: drizzle(pool, { schema }),
    kind: "postgres",
    migrate: () => migratePostgres(pool),
    close: () => pool.end(),
  };
}

// Any fixed number: every Plume process agrees on it, so servers starting together migrate one at a time.
const MIGRATION_LOCK_KEY = 72_617_001;

async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      await migrate(drizzle(client), { migrationsFolder });
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}
