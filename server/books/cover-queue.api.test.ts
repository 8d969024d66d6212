import { setTimeout as sleep } from "node:timers/promises";
import { eq, inArray } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { BookCard } from "../../shared/books.ts";
import { books } from "../db/schema.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";

/**
 * The cover queue yields to requests (docs/decisions/0073): the next cover waits while the server
 * answers more than COVER_PAUSE_REQUESTS_IN_FLIGHT requests, at most COVER_PAUSE_MAX_SECONDS, and
 * every cover is drawn in the end. The requests in flight are the test's to set; the event loop's
 * delay is given a threshold no test machine reaches, so that only they decide.
 */
const PAUSE_ON = { COVER_PAUSE_REQUESTS_IN_FLIGHT: "2", COVER_PAUSE_EVENT_LOOP_DELAY_MS: "10000" };
const BUSY = 3;
const QUIET = 2;

let testApp: TestApp | undefined;
afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

async function appWithRequests(settings: Record<string, string>, requestsInFlight: () => number) {
  testApp = await createTestApp({ ...PAUSE_ON, ...settings }, { requestsInFlight });
  const author = await signedInAgent(testApp.app);
  const publish = async () => ((await sendBookForm(author.agent.post("/api/books"), { coverImage: null }).expect(201)).body as BookCard).id;
  return { app: testApp, publish };
}

const pageCountsOf = async (app: TestApp, ids: number[]) =>
  (await app.database.db.select({ pageCount: books.pageCount }).from(books).where(inArray(books.id, ids))).map((row) => row.pageCount);

const coverSourceOf = async (app: TestApp, id: number) => (await app.database.db.select().from(books).where(eq(books.id, id)))[0]!.coverSource;

describe("the cover queue yields to requests", () => {
  it("draws no cover while the server is busy, and every cover once it is quiet", async () => {
    let inFlight = BUSY;
    const { app, publish } = await appWithRequests({ COVER_PAUSE_MAX_SECONDS: "600" }, () => inFlight);
    const ids = [await publish(), await publish()];
    await sleep(1_500);
    expect(await pageCountsOf(app, ids)).toEqual([null, null]);
    inFlight = QUIET;
    await app.coversDone();
    expect(await pageCountsOf(app, ids)).toEqual([1, 1]);
    for (const id of ids) expect(await coverSourceOf(app, id)).toBe("generated");
  });

  it("still draws every cover while the server stays busy, one per pause at most", async () => {
    const { app, publish } = await appWithRequests({ COVER_PAUSE_MAX_SECONDS: "1" }, () => BUSY);
    const started = Date.now();
    const ids = [await publish(), await publish(), await publish()];
    await app.coversDone();
    expect(await pageCountsOf(app, ids)).toEqual([1, 1, 1]);
    // Each of the three waited out its full pause before it was drawn.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 1_000 - 100);
  });

  it("keeps nothing a restart would lose: a book waiting out a pause is taken up by the next process at its start", async () => {
    const { app, publish } = await appWithRequests({ COVER_PAUSE_MAX_SECONDS: "600" }, () => BUSY);
    const id = await publish();
    await sleep(300);
    expect(await pageCountsOf(app, [id])).toEqual([null]);
    const restarted = app.anotherProcess();
    try {
      await expect.poll(async () => pageCountsOf(app, [id]), { timeout: 15_000 }).toEqual([1]);
      await restarted.coverQueue.idle();
      expect(await coverSourceOf(app, id)).toBe("generated");
    } finally {
      restarted.close();
    }
  });
});
