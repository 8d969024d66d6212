import { rmSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll } from "vitest";
import { projectRoot } from "../../server/paths.ts";
import { migrationsBefore } from "./migrations-before.ts";

/**
 * An embedded database for a test of one migration: `migrateToBefore` brings it to the schema just
 * before `tag`, the test writes rows of that shape with `client`, and `migrateRest` runs `tag` and
 * everything after it on them. Closed, with its copy of the migrations, after the file.
 */
export async function migrationUnderTest(tag: string) {
  const client = await PGlite.create({ extensions: { unaccent, pg_trgm } });
  const db = drizzle(client);
  const earlier = migrationsBefore(tag);
  afterAll(async () => {
    await client.close();
    rmSync(earlier, { recursive: true, force: true });
  });
  return {
    client,
    migrateToBefore: () => migrate(db, { migrationsFolder: earlier }),
    migrateRest: () => migrate(db, { migrationsFolder: join(projectRoot, "migrations") }),
  };
}
