import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PayoutSla } from "../../shared/wallet.ts";
import { payments } from "../db/schema.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";

type Agent = Awaited<ReturnType<typeof signedInAgent>>;
let testApp: TestApp;
let admin: Agent;
let author: Agent;
let bookId: number;
beforeAll(async () => {
  testApp = await createTestApp();
  admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL });
  await testApp.proveEmail(TEST_ADMIN_EMAIL);
  author = await signedInAgent(testApp.app);
  bookId = (await sendBookForm(author.agent.post("/api/books"), { coverImage: null }).expect(201)).body.id;
});
afterAll(() => testApp.close());

const DAY = 24 * 60 * 60 * 1000;
let milestone = 0;
const payment = (row: Partial<typeof payments.$inferInsert>) => {
  milestone += 1;
  return { bookId, authorId: author.user.id, amount: "1.00", idempotencyKey: `book:${bookId}:milestone:${milestone}`, milestone, ...row };
};
/** A payment completed `seconds` after it was owed, finishing `daysAgo` days ago. */
const completed = (seconds: number, daysAgo: number) => {
  const completedAt = new Date(Date.now() - daysAgo * DAY);
  return payment({ status: "completed", completedAt, triggeredAt: new Date(completedAt.getTime() - seconds * 1000), transactionHash: `0x${"a".repeat(64)}` });
};
const sla = async () => (await admin.agent.get("/api/admin/payout-sla").expect(200)).body as PayoutSla;

describe("GET /api/admin/payout-sla (docs/product.md#admin)", () => {
  it("has no figures before any payment", async () => {
    expect(await sla()).toEqual({ days: 30, completed: 0, p50Seconds: null, p99Seconds: null, oldestOwedAt: null, oldestOwedAgeSeconds: null });
  });

  it("gives p50 and p99 from owed to completed over 30 days, the count, and the oldest payment still owed", async () => {
    const owedAt = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await testApp.database.db.insert(payments).values([
      completed(60, 1),
      completed(120, 2),
      completed(180, 3),
      completed(240, 29),
      completed(3600, 5),
      // Outside the 30 days, or never completed: not in the percentiles.
      completed(999_999, 31),
      payment({ status: "failed", lastError: "The transfer reverted.", triggeredAt: new Date(Date.now() - 3 * DAY) }),
      payment({ triggeredAt: owedAt }),
      payment({ triggeredAt: new Date(Date.now() - 60 * 1000) }),
    ]);
    const figures = await sla();
    expect(figures).toMatchObject({ days: 30, completed: 5, p50Seconds: 180, oldestOwedAt: owedAt.toISOString() });
    // Continuous percentile: 99 % of the way along five sorted times lies 96 % from the 4th (240 s) to the 5th (3600 s).
    expect(figures.p99Seconds).toBeCloseTo(240 + 0.96 * 3360, 3);
    expect(figures.oldestOwedAgeSeconds).toBeGreaterThanOrEqual(7200);
    expect(figures.oldestOwedAgeSeconds).toBeLessThan(7260);
  });

  it("is the admin's only: an author gets 403, a visitor 401", async () => {
    await author.agent.get("/api/admin/payout-sla").expect(403);
    await request(testApp.app).get("/api/admin/payout-sla").expect(401);
  });
});
