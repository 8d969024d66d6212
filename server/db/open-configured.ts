import type { Config } from "../config.ts";
import { type Database, openDatabase } from "./client.ts";

/** The database the settings name: PostgreSQL at DATABASE_URL, else the embedded one under DATA_DIR. */
export function openConfiguredDatabase(config: Config): Promise<Database> {
  return config.databaseUrl
    ? openDatabase({ kind: "postgres", url: config.databaseUrl })
    : openDatabase({ kind: "pglite", dataDir: config.dataDir, sharedBuffers: config.pgliteSharedBuffers });
}
