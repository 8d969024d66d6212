import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";

/**
 * An author's total downloads are every counted download of their books, deleted books included
 * (docs/decisions/0025): the home screen, the dashboard and the admin's overview show one figure.
 */
let testApp: TestApp;
let author: Awaited<ReturnType<typeof signedInAgent>>;
let admin: Awaited<ReturnType<typeof signedInAgent>>;

beforeAll(async () => {
  testApp = await createTestApp();
  admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL });
  await testApp.proveEmail(TEST_ADMIN_EMAIL);
  author = await signedInAgent(testApp.app);
  const kept = (await sendBookForm(author.agent.post("/api/books"), { title: "Kept", coverImage: null }).expect(201)).body.id as number;
  const deleted = (await sendBookForm(author.agent.post("/api/books"), { title: "Deleted", coverImage: null }).expect(201)).body.id as number;
  for (const bookId of [kept, deleted, deleted]) {
    const reader = await signedInAgent(testApp.app);
    await reader.agent.post(`/api/books/${bookId}/download`).expect(200);
  }
  await author.agent.delete(`/api/books/${deleted}`).expect(204);
});
afterAll(() => testApp.close());

describe("an author's total downloads", () => {
  it("count a deleted book's downloads, the same on every screen", async () => {
    const stats = await request(testApp.app).get(`/api/authors/${author.user.id}/stats`).expect(200);
    const account = await author.agent.get("/api/auth/user").expect(200);
    const overview = await admin.agent.get("/api/admin/users").expect(200);
    const inOverview = (overview.body.items as Array<{ id: string; totalDownloads: number; books: unknown[] }>).find(
      (user) => user.id === author.user.id,
    );

    expect(stats.body.totalDownloads).toBe(3);
    expect(account.body.totalDownloads).toBe(3);
    expect(inOverview).toMatchObject({ totalDownloads: 3, booksCount: 1 });
    expect(inOverview!.books).toHaveLength(1);
  });
});
