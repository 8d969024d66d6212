import { sql } from "drizzle-orm";
import { filesUnder } from "./book-fixtures.ts";
import type { TestApp } from "./test-app.ts";

/** What a refused request must leave as it was: the row counts that matter and every file under uploads. */
export interface WriteSnapshot {
  /** users/books/downloads/reviews/payments counts, read in one query. */
  rows: string;
  files: string;
}

export async function rowCounts(testApp: TestApp): Promise<string> {
  const result = await testApp.database.db.execute(
    sql`select concat_ws('/', (select count(*) from users), (select count(*) from books), (select count(*) from downloads), (select count(*) from reviews), (select count(*) from payments)) as counts`,
  );
  // PGlite and node-postgres both answer { rows }; Drizzle's shared type leaves it unknown.
  return (result as unknown as { rows: Array<{ counts: string }> }).rows[0]!.counts;
}

export const uploadedFiles = (testApp: TestApp) => filesUnder(testApp.uploadsDir).sort().join("\n");

/**
 * The state before a request, once no upload is in flight: a refused upload's temporary file can be
 * created a moment after its answer (its open was under way) and is removed right after that, and an
 * accepted PDF's cover is drawn after its answer (docs/product.md#covers).
 */
export async function takeSnapshot(testApp: TestApp): Promise<WriteSnapshot> {
  await testApp.coversDone();
  await waitUntil(() => filesUnder(testApp.store.temp.dir).length === 0, 2_000);
  return { rows: await rowCounts(testApp), files: uploadedFiles(testApp) };
}

export async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  return condition();
}

/**
 * The files once a refused request has settled: a temporary upload is unlinked as the response
 * closes (or, for a dropped connection, as the server notices), a moment after the client is done.
 */
export async function settledFiles(testApp: TestApp, expected: string, timeoutMs = 2_000): Promise<string> {
  await waitUntil(() => uploadedFiles(testApp) === expected, timeoutMs);
  return uploadedFiles(testApp);
}
