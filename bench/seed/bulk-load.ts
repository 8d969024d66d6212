import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { PGlite } from "@electric-sql/pglite";
import { type Table, getTableColumns, getTableName } from "drizzle-orm";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

/**
 * Bulk loading for the seed: rows go in with COPY (text format) on both backends, PostgreSQL
 * through pg-copy-streams and PGlite through its /dev/blob device, and the indexes and foreign
 * keys are built once at the end instead of row by row.
 */

/** What the seed needs of a connection, whichever the backend: plain SQL and COPY FROM. */
export interface BulkConnection {
  query(text: string, params?: unknown[]): Promise<Array<Record<string, unknown>>>;
  copyIn(table: string, columns: string[], chunks: Iterable<string>): Promise<void>;
}

export function postgresConnection(client: pg.PoolClient): BulkConnection {
  return {
    async query(text, params) {
      return (await client.query(text, params)).rows;
    },
    async copyIn(table, columns, chunks) {
      await pipeline(Readable.from(chunks), client.query(copyFrom(`copy ${table} (${columns.join(", ")}) from stdin`)));
    },
  };
}

export function pgliteConnection(client: PGlite): BulkConnection {
  return {
    async query(text, params) {
      return (await client.query<Record<string, unknown>>(text, params)).rows;
    },
    async copyIn(table, columns, chunks) {
      // One COPY per chunk: the WebAssembly heap holds a chunk, not the whole table.
      for (const chunk of chunks) {
        await client.query(`copy ${table} (${columns.join(", ")}) from '/dev/blob'`, [], { blob: new Blob([chunk]) });
      }
    },
  };
}

/** A value in COPY's text format: \N for null, backslash escapes, ISO dates, JSON for json columns. */
export function copyText(value: unknown): string {
  if (value === null || value === undefined) return "\\N";
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "boolean") return value ? "t" : "f";
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  return text.replace(/[\\\t\n\r]/g, (character) => ({ "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" })[character]!);
}

const ROWS_PER_CHUNK = 20_000;

/** Copies rows typed by a Drizzle table into it, every column named, in chunks of text lines. */
export async function copyRows<T extends Table>(connection: BulkConnection, table: T, rows: Iterable<T["$inferSelect"]>): Promise<number> {
  const columns = Object.entries(getTableColumns(table));
  let copied = 0;
  function* chunks(): Generator<string> {
    let lines: string[] = [];
    for (const row of rows) {
      const record = row as Record<string, unknown>;
      lines.push(columns.map(([key]) => copyText(record[key])).join("\t"));
      copied += 1;
      if (lines.length === ROWS_PER_CHUNK) {
        yield `${lines.join("\n")}\n`;
        lines = [];
      }
    }
    if (lines.length > 0) yield `${lines.join("\n")}\n`;
  }
  const names = columns.map(([, column]) => `"${column.name}"`);
  await connection.copyIn(`"${getTableName(table)}"`, names, chunks());
  return copied;
}

/** Identity columns were given explicit ids: the next insert must continue after them. */
export async function continueIdentityAfterRows(connection: BulkConnection, table: string): Promise<void> {
  await connection.query(`select setval(pg_get_serial_sequence($1, 'id'), greatest((select max(id) from "${table}"), 1))`, [table]);
}

/**
 * Drops the secondary indexes and the foreign keys of these tables, exactly as the migrations
 * made them (pg_get_indexdef / pg_get_constraintdef), and returns what puts them back. Primary
 * keys stay: the search trigger looks authors up by id while rows arrive.
 */
export async function setIndexesAside(connection: BulkConnection, tables: string[]): Promise<() => Promise<void>> {
  const indexes = await connection.query(
    `select index_class.relname as name, pg_get_indexdef(i.indexrelid) as definition
       from pg_index i
       join pg_class index_class on index_class.oid = i.indexrelid
       join pg_class table_class on table_class.oid = i.indrelid
      where table_class.relname = any($1) and not i.indisprimary
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    [tables],
  );
  const foreignKeys = await connection.query(
    `select conname as name, conrelid::regclass::text as "table", pg_get_constraintdef(oid) as definition
       from pg_constraint where contype = 'f' and conrelid::regclass::text = any($1)`,
    [tables],
  );
  for (const key of foreignKeys) await connection.query(`alter table ${key.table} drop constraint "${key.name}"`);
  for (const index of indexes) await connection.query(`drop index "${index.name}"`);
  return async () => {
    for (const index of indexes) await connection.query(String(index.definition));
    for (const key of foreignKeys) await connection.query(`alter table ${key.table} add constraint "${key.name}" ${key.definition}`);
  };
}
