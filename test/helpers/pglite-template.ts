import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../server/db/client.ts";

/** Where the API project's test files find the template (test/helpers/test-database.ts). */
export const PGLITE_TEMPLATE_VARIABLE = "PLUME_PGLITE_TEMPLATE";

/**
 * Vitest global setup of the API project on PGlite: one migrated in-memory database, its data folder
 * dumped to a file the test files start from. Each of them skipped ~3 s of initdb (most of a small
 * file's time) and loads the dump in ~1 s instead; the database they get is the same.
 */
export default async function setup(): Promise<() => void> {
  const folder = mkdtempSync(join(tmpdir(), "plume-pglite-template-"));
  const database = await openDatabase({ kind: "pglite", dataDir: null });
  try {
    await database.migrate();
    const dump = await database.dumpDataDir!();
    const path = join(folder, "migrated.tar");
    writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
    process.env[PGLITE_TEMPLATE_VARIABLE] = path;
  } finally {
    await database.close();
  }
  return () => {
    delete process.env[PGLITE_TEMPLATE_VARIABLE];
    rmSync(folder, { recursive: true, force: true });
  };
}
