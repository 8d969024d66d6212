import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { books, payments } from "../db/schema.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { recordOwedRewards } from "./rewards-ledger-service.ts";

type Agent = Awaited<ReturnType<typeof signedInAgent>>;

/** An app whose promotion is still open (cutoff far ahead), readers each behind their own address. */
let open: TestApp;
let crowd: Agent[];
beforeAll(async () => {
  open = await createTestApp({ TRUST_PROXY: "loopback", PROMO_CUTOFF: "2100-01-01T00:00:00Z" });
  crowd = await Promise.all(Array.from({ length: 40 }, () => signedInAgent(open.app)));
});
afterAll(() => open.close());

async function publish(app: TestApp, author: Agent) {
  return (await sendBookForm(author.agent.post("/api/books"), { coverImage: null }).expect(201)).body.id as number;
}
const download = (reader: Agent, bookId: number, index: number) =>
  reader.agent.post(`/api/books/${bookId}/download`).set("X-Forwarded-For", `198.51.100.${index + 1}`).expect(200);
const paymentsOf = (app: TestApp, bookId: number) => app.database.db.select().from(payments).where(eq(payments.bookId, bookId));
const bookRow = async (app: TestApp, bookId: number) => (await app.database.db.select().from(books).where(eq(books.id, bookId)))[0]!;

describe("payments owed by counted downloads (outbox)", () => {
  it("owes the first-book bonus at the second counted download while the promotion is open", async () => {
    const author = await signedInAgent(open.app);
    const first = await publish(open, author);
    await download(crowd[0]!, first, 0);
    expect(await paymentsOf(open, first)).toHaveLength(0);
    await download(crowd[1]!, first, 1);
    const [bonus, ...rest] = await paymentsOf(open, first);
    expect(rest).toHaveLength(0);
    expect(bonus).toMatchObject({
      idempotencyKey: `book:${first}:first-book-bonus`,
      kind: "first-book-bonus",
      authorId: author.user.id,
      amount: "1.00",
      tokensSent: "1000000000000000000",
      currency: "PME",
      status: "pending",
      payoutStage: "queued",
      downloadThreshold: 2,
      milestone: null,
    });
    expect(await bookRow(open, first)).toMatchObject({ firstBookBonusPaid: true, paidMilestones: 0 });
  });

  it("owes nothing extra for a later book, and exactly one row per milestone for 40 simultaneous readers", async () => {
    const author = await signedInAgent(open.app);
    await publish(open, author);
    const second = await publish(open, author);
    await Promise.all(crowd.map((reader, index) => download(reader, second, index)));
    await Promise.all(crowd.map((reader, index) => download(reader, second, index)));
    const rows = await paymentsOf(open, second);
    expect(rows.map((row) => [row.idempotencyKey, row.downloadThreshold, row.milestone]).sort()).toEqual([
      [`book:${second}:milestone:1`, 20, 1],
      [`book:${second}:milestone:2`, 40, 2],
    ]);
    expect(await bookRow(open, second)).toMatchObject({ downloadCount: 40, paidMilestones: 2, firstBookBonusPaid: false });
  });

  it("never writes a second row for a key, even when asked again", async () => {
    const author = await signedInAgent(open.app);
    const bookId = await publish(open, author);
    await Promise.all(crowd.slice(0, 20).map((reader, index) => download(reader, bookId, index)));
    const book = await bookRow(open, bookId);
    // Replaying the ledger for a state it already settled must change nothing.
    await open.database.db.transaction((tx) =>
      recordOwedRewards(tx, { ...book, paidMilestones: 0, firstBookBonusPaid: false }, { promoCutoff: new Date("2100-01-01T00:00:00Z"), tokensPerMilestone: 1, payoutHoldMs: 0 }, new Date()),
    );
    const keys = (await paymentsOf(open, bookId)).map((row) => row.idempotencyKey).sort();
    expect(keys).toEqual([`book:${bookId}:first-book-bonus`, `book:${bookId}:milestone:1`]);
  });
});

describe("after the promotion", () => {
  it("owes no bonus for a first book, but still the milestones, held for PAYOUT_HOLD_HOURS", async () => {
    const closed = await createTestApp({ TRUST_PROXY: "loopback", PAYOUT_HOLD_HOURS: "24" });
    try {
      const author = await signedInAgent(closed.app);
      const first = await publish(closed, author);
      const readers = await Promise.all(Array.from({ length: 20 }, () => signedInAgent(closed.app)));
      await Promise.all(readers.map((reader, index) => download(reader, first, index)));
      const rows = await paymentsOf(closed, first);
      expect(rows.map((row) => row.idempotencyKey)).toEqual([`book:${first}:milestone:1`]);
      const heldFor = rows[0]!.nextAttemptAt.getTime() - rows[0]!.triggeredAt.getTime();
      expect(heldFor).toBe(24 * 60 * 60 * 1000);
    } finally {
      await closed.close();
    }
  });
});
