import { eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthorPayment } from "../../shared/wallet.ts";
import { payments, users } from "../db/schema.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";

let testApp: TestApp;
let author: Awaited<ReturnType<typeof signedInAgent>>;
beforeAll(async () => {
  testApp = await createTestApp();
  author = await signedInAgent(testApp.app);
  const bookId = (await sendBookForm(author.agent.post("/api/books"), { title: "Libro pagado", coverImage: null }).expect(201)).body.id;
  const base = { bookId, authorId: author.user.id, amount: "1.00" };
  await testApp.database.db.insert(payments).values([
    { ...base, idempotencyKey: `book:${bookId}:milestone:1`, milestone: 1, status: "completed", triggeredAt: new Date("2026-05-01T00:00:00Z"), completedAt: new Date("2026-05-01T00:01:00Z"), transactionHash: `0x${"a".repeat(64)}` },
    { ...base, idempotencyKey: `book:${bookId}:milestone:2`, milestone: 2, triggeredAt: new Date("2026-06-01T00:00:00Z") },
  ]);
});
afterAll(() => testApp.close());

describe("GET /api/authors/:userId/payments", () => {
  it("shows the author their payments, newest first, with the book title", async () => {
    const response = await author.agent.get(`/api/authors/${author.user.id}/payments`).expect(200);
    expect(response.body).toEqual([
      expect.objectContaining({ status: "pending", milestone: 2, bookTitle: "Libro pagado", completedAt: null, transactionHash: null }),
      expect.objectContaining({
        status: "completed",
        milestone: 1,
        amount: "1.00",
        kind: "milestone",
        triggeredAt: "2026-05-01T00:00:00.000Z",
        completedAt: "2026-05-01T00:01:00.000Z",
        transactionHash: `0x${"a".repeat(64)}`,
      }),
    ]);
  });

  it("shows them to the admin, and to nobody else", async () => {
    const admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL });
    await testApp.proveEmail(TEST_ADMIN_EMAIL);
    expect((await admin.agent.get(`/api/authors/${author.user.id}/payments`).expect(200)).body).toHaveLength(2);
    const other = await signedInAgent(testApp.app);
    await other.agent.get(`/api/authors/${author.user.id}/payments`).expect(403);
    await request(testApp.app).get(`/api/authors/${author.user.id}/payments`).expect(401);
    await author.agent.get("/api/authors/not-a-uuid/payments").expect(400);
  });
});

describe("each payment's timeline (docs/product.md#what-authors-see)", () => {
  const HOUR = 60 * 60 * 1000;
  const hash = (digit: string) => `0x${digit.repeat(64)}`;

  async function authorWithPayments(rows: Array<Partial<typeof payments.$inferInsert>>, wallet: string | null) {
    const owner = await signedInAgent(testApp.app);
    const bookId = (await sendBookForm(owner.agent.post("/api/books"), { coverImage: null }).expect(201)).body.id as number;
    if (wallet) await testApp.database.db.update(users).set({ walletAddress: wallet }).where(eq(users.id, owner.user.id));
    await testApp.database.db.insert(payments).values(
      rows.map((row, index) => ({ bookId, authorId: owner.user.id, amount: "1.00", idempotencyKey: `book:${bookId}:milestone:${index + 1}`, milestone: index + 1, triggeredAt: new Date(Date.now() - (10 - index) * HOUR), ...row })),
    );
    const listed = (await owner.agent.get(`/api/authors/${owner.user.id}/payments`).expect(200)).body as AuthorPayment[];
    return listed.sort((a, b) => (a.milestone ?? 0) - (b.milestone ?? 0));
  }

  it("says a payment waits for a wallet while the author has none, whatever else it waits for", async () => {
    const [queued, held] = await authorWithPayments([{}, { nextAttemptAt: new Date(Date.now() + HOUR) }], null);
    expect(queued).toMatchObject({ status: "pending", sentAt: null, waiting: { reason: "no-wallet" }, failureReason: null });
    expect(held!.waiting).toEqual({ reason: "no-wallet" });
  });

  it("tells each step and why a pending payment waits: the hold or the next try until a time, being sent, finality; a failure's reason", async () => {
    const holdEnds = new Date(Date.now() + 20 * HOUR);
    const retryAt = new Date(Date.now() + HOUR);
    const sentAt = new Date(Date.now() - 2 * HOUR);
    const completedAt = new Date(Date.now() - HOUR);
    const listed = await authorWithPayments(
      [
        { nextAttemptAt: holdEnds },
        { nextAttemptAt: retryAt, lastError: "The hot wallet holds too little PME." },
        { nextAttemptAt: new Date(Date.now() - HOUR), lastError: "Nonce 4 was used by another transaction; queued again." },
        { payoutStage: "broadcast", sentAt },
        { payoutStage: "confirming", sentAt, transactionHash: hash("c") },
        { status: "failed", sentAt, transactionHash: hash("d"), lastError: "The transfer reverted." },
        { status: "completed", payoutStage: "confirming", sentAt, completedAt, transactionHash: hash("e") },
      ],
      `0x${"1".repeat(40)}`,
    );
    expect(listed.map((payment) => payment.waiting)).toEqual([
      { reason: "hold", until: holdEnds.toISOString() },
      { reason: "retry", until: retryAt.toISOString() },
      { reason: "sending" },
      { reason: "sending" },
      { reason: "finality" },
      null,
      null,
    ]);
    expect(listed.map((payment) => payment.failureReason)).toEqual([null, null, null, null, null, "The transfer reverted.", null]);
    expect(listed.map((payment) => payment.sentAt)).toEqual([null, null, null, ...Array(4).fill(sentAt.toISOString())]);
    expect(listed[6]).toMatchObject({ status: "completed", completedAt: completedAt.toISOString(), transactionHash: hash("e") });
  });
});
