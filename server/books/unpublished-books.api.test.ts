import { eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { books, downloads, reviews } from "../db/schema.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";

/* An unpublished book is its author's and the admin's to see, and never counts (docs/decisions/0020). */

type Agent = Awaited<ReturnType<typeof signedInAgent>>;

let testApp: TestApp;
let admin: Agent;
let reader: Agent;
beforeAll(async () => {
  testApp = await createTestApp();
  [admin, reader] = await Promise.all([signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL }), signedInAgent(testApp.app)]);
  await testApp.proveEmail(TEST_ADMIN_EMAIL);
});
afterAll(() => testApp.close());

const db = () => testApp.database.db;

async function unpublishedBook() {
  const author = await signedInAgent(testApp.app);
  const response = await sendBookForm(author.agent.post("/api/books"), { coverImage: null }).expect(201);
  const bookId = response.body.id as number;
  await db().update(books).set({ isPublished: false }).where(eq(books.id, bookId));
  return { author, bookId };
}

describe("an unpublished book", () => {
  it("does not exist for visitors and other readers: same 404 as an unknown id, in the catalog, by id and for its rating", async () => {
    const { bookId } = await unpublishedBook();
    for (const agent of [request(testApp.app), reader.agent]) {
      const byId = await agent.get(`/api/books/${bookId}`).expect(404);
      expect(byId.body).toMatchObject({ code: "not_found", message: "This book does not exist." });
      await agent.get(`/rating/${bookId}`).expect(404);
      const catalog = await agent.get("/api/books").expect(200);
      expect((catalog.body as { id: number }[]).map((book) => book.id)).not.toContain(bookId);
    }
  });

  it("is in its author's list of books for the author and the admin only", async () => {
    const { author, bookId } = await unpublishedBook();
    const listed = async (agent: Agent["agent"] | ReturnType<typeof request>) =>
      ((await agent.get(`/api/authors/${author.user.id}/books`).expect(200)).body as { id: number }[]).map((book) => book.id);
    expect(await listed(request(testApp.app))).toEqual([]);
    expect(await listed(reader.agent)).toEqual([]);
    expect(await listed(author.agent)).toEqual([bookId]);
    expect(await listed(admin.agent)).toEqual([bookId]);
  });

  it("cannot be downloaded or rated by a reader, and leaves no trace when they try", async () => {
    const { bookId } = await unpublishedBook();
    await reader.agent.post(`/api/books/${bookId}/download`).expect(404);
    await reader.agent.post("/rate").send({ bookId, userId: reader.user.id, rating: 5 }).expect(404);
    expect(await db().select().from(downloads).where(eq(downloads.bookId, bookId))).toEqual([]);
    expect(await db().select().from(reviews).where(eq(reviews.bookId, bookId))).toEqual([]);
  });

  it("is seen and downloaded by its author and the admin, logged but never counted, and the admin cannot rate it", async () => {
    const { author, bookId } = await unpublishedBook();
    for (const viewer of [author, admin]) {
      const book = await viewer.agent.get(`/api/books/${bookId}`).expect(200);
      expect(book.body).toMatchObject({ id: bookId });
      await viewer.agent.get(`/rating/${bookId}`).expect(200);
      await viewer.agent.post(`/api/books/${bookId}/download`).expect(200);
    }
    const rated = await admin.agent.post("/rate").send({ bookId, userId: admin.user.id, rating: 5 }).expect(403);
    expect(rated.body.message).toBe("This book is not published: it cannot be rated.");

    const log = await db().select().from(downloads).where(eq(downloads.bookId, bookId));
    expect(log.map((row) => [row.userId, row.counted])).toEqual([
      [author.user.id, false],
      [admin.user.id, false],
    ]);
    const [row] = await db().select().from(books).where(eq(books.id, bookId));
    expect(row!.downloadCount).toBe(0);
  });

  it("counts again from the day it is published", async () => {
    const { bookId } = await unpublishedBook();
    await admin.agent.post(`/api/books/${bookId}/download`).expect(200);
    await db().update(books).set({ isPublished: true }).where(eq(books.id, bookId));
    await reader.agent.post(`/api/books/${bookId}/download`).expect(200);
    const [row] = await db().select().from(books).where(eq(books.id, bookId));
    expect(row!.downloadCount).toBe(1);
  });
});
