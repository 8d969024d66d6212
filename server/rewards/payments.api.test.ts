import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payments } from "../db/schema.ts";
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
