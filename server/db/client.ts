import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { migrationsFolder, projectRoot } from "../paths.ts";
import { lockDataDir } from "./data-dir-lock.ts";
import type { Database } from "./database.ts";
import { PGLITE_SHARED_BUFFERS } from "./pglite-shared-buffers.ts";
import * as schema from "./schema.ts";

// Where the code has always imported them from; they live apart so that the PostgreSQL opener, loaded
// from here on demand, does not import this file back.
export type { Database, Db, Queryable, Tx } from "./database.ts";

export type DatabaseTarget =
  | { kind: "postgres"; url: string; poolSize?: number }
  /**
   * `dataDir` null keeps the embedded database in memory (tests); `startFrom` is a dump of another
   * one's data folder to start from, which skips initdb (the test suites' migrated template).
   */
  | { kind: "pglite"; dataDir: string | null; startFrom?: Blob; sharedBuffers?: string };

/** Connections a server's PostgreSQL pool opens at most (benchmarked in docs/performance.md). */
export const DEFAULT_POOL_SIZE = 10;

const INITDB_PROCESS = join(projectRoot, "server", "db", "pglite-initdb-process.mjs");

/** Creates the embedded database of a new data folder in a process of its own (pglite-initdb-process.mjs says why). */
async function initializePgliteFolder(folder: string): Promise<void> {
  if (existsSync(join(folder, "PG_VERSION"))) return;
  await promisify(execFile)(process.execPath, [INITDB_PROCESS, folder]);
}

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === "postgres") {
    // Loaded for PostgreSQL only: the driver weighs 15 MB resident beside the embedded database (docs/decisions/0045).
    const { openPostgres } = await import("./postgres.ts");
    return openPostgres(target.url, target.poolSize ?? DEFAULT_POOL_SIZE);
  }

  const unlock = target.dataDir ? lockDataDir(target.dataDir) : () => {};
  try {
    const folder = target.dataDir ? join(target.dataDir, "pglite") : undefined;
    if (folder && !target.startFrom) await initializePgliteFolder(folder);
    const client = await PGlite.create(folder, {
      extensions: { unaccent, pg_trgm },
      startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${target.sharedBuffers ?? PGLITE_SHARED_BUFFERS}`],
      ...(target.startFrom ? { loadDataDir: target.startFrom } : {}),
    });
    const db = drizzle(client, { schema });
    return {
      db,
      kind: "pglite",
      migrate: () => migrate(db, { migrationsFolder }),
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
