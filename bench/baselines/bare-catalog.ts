// The floor the catalog is measured against: `node:http` and a `pg` Pool running, for each
// benchmarked URL, the very SQL Plume's repository generates for it (captured with Drizzle's
// toSQL()), answering the same JSON. Nothing else: no framework, validation, session, security
// headers or compression. Run as a child: `tsx bench/baselines/bare-catalog.ts <routes.json>`.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import pg from "pg";
import type { BookCardRow } from "../../server/books/books-repository.ts";
import { presentBook } from "../../server/books/present-book.ts";

export interface BareRoute {
  sql: string;
  params: unknown[];
  /** The selection's keys in column order (the query builder's selected fields), to name the array rows. */
  fields: string[];
  /** "books": a page of book cards; "row": the single row as it is (the public totals). */
  answer: "books" | "row";
}

/** Keyed by the request's path and query, exactly as the benchmark sends them. */
export type BareRoutes = Record<string, BareRoute>;

export const BARE_READY_LINE = /bare catalog ready on http:\/\/127\.0\.0\.1:(\d+)/;

function answerOf(route: BareRoute, rows: unknown[][]): unknown {
  const records = rows.map((row) => Object.fromEntries(route.fields.map((field, index) => [field, row[index]])));
  if (route.answer === "row") return records[0];
  // pg leaves bigint as text; Drizzle's column reads it as a number (mode "number").
  return records.map((record) => presentBook({ ...record, fileSize: Number(record.fileSize) } as BookCardRow));
}

function serve(routesFile: string, databaseUrl: string, poolSize: number): void {
  const routes = JSON.parse(readFileSync(routesFile, "utf8")) as BareRoutes;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  const server = createServer((request, response) => {
    const route = routes[request.url ?? ""];
    if (!route) {
      response.writeHead(404).end();
      return;
    }
    // Nothing awaits a request handler; this one turns any failure into a 500, so it never rejects.
    void (async () => {
      try {
        const result = await pool.query({ text: route.sql, values: route.params, rowMode: "array" });
        response.writeHead(200, { "Content-Type": "application/json; charset=utf-8" }).end(JSON.stringify(answerOf(route, result.rows)));
      } catch (error) {
        response.writeHead(500, { "Content-Type": "text/plain" }).end((error as Error).message);
      }
    })();
  });
  server.listen(0, "127.0.0.1", () => console.log(`bare catalog ready on http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  process.on("SIGTERM", () => {
    server.closeAllConnections();
    server.close(() => void pool.end());
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [routesFile] = process.argv.slice(2);
  const { DATABASE_URL: databaseUrl, POOL_SIZE: poolSize } = process.env;
  if (!routesFile || !databaseUrl || !poolSize) throw new Error("Usage: DATABASE_URL=… POOL_SIZE=… bare-catalog.ts <routes.json>");
  serve(routesFile, databaseUrl, Number(poolSize));
}
