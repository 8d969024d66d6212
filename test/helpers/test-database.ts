import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { type Database, openDatabase } from "../../server/db/client.ts";
import { PGLITE_TEMPLATE_VARIABLE } from "./pglite-template.ts";
import { POSTGRES_TEMPLATE_VARIABLE, onServer } from "./postgres-template.ts";

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a brand-new
 * database on the PostgreSQL server of TEST_DATABASE_URL when the suite runs as "api-postgres".
 */
export async function openTestDatabase(): Promise<Database> {
  const database = process.env.PLUME_TEST_BACKEND === "postgres" ? await freshPostgresDatabase() : await openDatabase({ kind: "pglite", dataDir: null, ...templateOfThisRun() });
  // A no-op on a copy of the template, which holds every migration; a file run alone has no template and migrates here.
  await database.migrate();
  return database;
}

async function freshPostgresDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error("PLUME_TEST_BACKEND=postgres needs TEST_DATABASE_URL");
  const name = `plume_test_${randomBytes(6).toString("hex")}`;
  const template = process.env[POSTGRES_TEMPLATE_VARIABLE];
  await onServer(serverUrl, template ? `create database ${name} template ${template}` : `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: "postgres", url: url.toString(), poolSize: 5 });
  return {
    ...database,
    async close() {
      await database.close();
      await onServer(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/** The migrated template the API project's global setup dumped, when there is one: ~1 s to load where initdb takes ~3 s. */
function templateOfThisRun(): { startFrom?: Blob } {
  const path = process.env[PGLITE_TEMPLATE_VARIABLE];
  return path ? { startFrom: new Blob([readFileSync(path)]) } : {};
}
