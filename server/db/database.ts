import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type * as schema from "./schema.ts";

type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Repositories take either, so a service decides where the transaction boundary is. */
export type Queryable = Db | Tx;

/** What either engine gives the server: client.ts opens PGlite, postgres.ts a PostgreSQL pool. */
export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** Applies the committed SQL migrations that the database has not seen yet. */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: its data folder as one tar file, which `startFrom` opens again (the test suites' template). */
  dumpDataDir?(): Promise<Blob>;
}
