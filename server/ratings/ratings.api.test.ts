import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";

let testApp: TestApp;
let author: Awaited<ReturnType<typeof signedInAgent>>;
let reader: Awaited<ReturnType<typeof signedInAgent>>;
let bookId: number;
beforeAll(async () => {
  testApp = await createTestApp();
  author = await signedInAgent(testApp.app);
  reader = await signedInAgent(testApp.app);
  bookId = (await sendBookForm(author.agent.post("/api/books"), { coverImage: null }).expect(201)).body.id;
});
afterAll(() => testApp.close());

describe("POST /rate", () => {
  it("refuses an anonymous visitor with 401", async () => {
    await request(testApp.app).post("/rate").send({ bookId, userId: reader.user.id, rating: 5 }).expect(401);
  });

  it("refuses rating as somebody else with 403", async () => {
    const response = await reader.agent.post("/rate").send({ bookId, userId: author.user.id, rating: 5 }).expect(403);
    expect(response.body.code).toBe("forbidden");
  });

  it("refuses an author rating their own book with 403", async () => {
    await author.agent.post("/rate").send({ bookId, userId: author.user.id, rating: 5 }).expect(403);
  });

  it.each([0, 6, 2.5, "5", null, -1])("refuses the rating %j with 400", async (rating) => {
    const response = await reader.agent.post("/rate").send({ bookId, userId: reader.user.id, rating }).expect(400);
    expect(response.body.fields.rating).toBe("validation.ratingInvalid");
  });

  it("refuses bad book and user ids with 400 and unknown books with 404", async () => {
    await reader.agent.post("/rate").send({ bookId: "1", userId: reader.user.id, rating: 4 }).expect(400);
    await reader.agent.post("/rate").send({ bookId, userId: "me", rating: 4 }).expect(400);
    await reader.agent.post("/rate").send({ bookId: 999999, userId: reader.user.id, rating: 4 }).expect(404);
  });

  it("rates once, updates the average and count, and answers 409 to a second rating", async () => {
    const first = await reader.agent.post("/rate").send({ bookId, userId: reader.user.id, rating: 4 }).expect(201);
    expect(first.body).toEqual({ avgRating: 4, reviewCount: 1 });
    const again = await reader.agent.post("/rate").send({ bookId, userId: reader.user.id, rating: 1 }).expect(409);
    expect(again.body.code).toBe("already_rated");
    const second = await signedInAgent(testApp.app);
    const after = await second.agent.post("/rate").send({ bookId, userId: second.user.id, rating: 5 }).expect(201);
    expect(after.body).toEqual({ avgRating: 4.5, reviewCount: 2 });
    const card = await request(testApp.app).get(`/api/books/${bookId}`).expect(200);
    expect(card.body).toMatchObject({ rating: 4.5, reviewCount: 2 });
  });

  it("keeps the average right when many readers rate at once", async () => {
    const book = (await sendBookForm(author.agent.post("/api/books"), { coverImage: null }).expect(201)).body.id as number;
    const raters = await Promise.all(Array.from({ length: 8 }, () => signedInAgent(testApp.app)));
    await Promise.all(raters.map((r, i) => r.agent.post("/rate").send({ bookId: book, userId: r.user.id, rating: (i % 5) + 1 }).expect(201)));
    const rating = await request(testApp.app).get(`/rating/${book}`).expect(200);
    // ratings 1,2,3,4,5,1,2,3 → 21 / 8
    expect(rating.body).toEqual({ avgRating: 2.63, reviewCount: 8 });
  });
});

describe("GET /rating/:bookId", () => {
  it("answers the average to anyone, 404 for unknown books, 400 for bad ids", async () => {
    const response = await request(testApp.app).get(`/rating/${bookId}`).expect(200);
    expect(response.body).toEqual({ avgRating: 4.5, reviewCount: 2 });
    await request(testApp.app).get("/rating/999999").expect(404);
    await request(testApp.app).get("/rating/abc").expect(400);
  });
});

describe("GET /api/reviews", () => {
  it("answers the caller's own rating, 0 when none", async () => {
    const mine = await reader.agent.get(`/api/reviews?bookId=${bookId}&userId=${reader.user.id}`).expect(200);
    expect(mine.body).toEqual({ userRating: 4 });
    const none = await author.agent.get(`/api/reviews?bookId=${bookId}&userId=${author.user.id}`).expect(200);
    expect(none.body).toEqual({ userRating: 0 });
  });

  it("refuses anonymous visitors, other users' ratings and bad queries", async () => {
    await request(testApp.app).get(`/api/reviews?bookId=${bookId}&userId=${reader.user.id}`).expect(401);
    await author.agent.get(`/api/reviews?bookId=${bookId}&userId=${reader.user.id}`).expect(403);
    await reader.agent.get(`/api/reviews?bookId=abc&userId=${reader.user.id}`).expect(400);
    await reader.agent.get(`/api/reviews?bookId=${bookId}`).expect(400);
  });

  it("lets the admin read anyone's rating", async () => {
    const admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL });
    await testApp.proveEmail(TEST_ADMIN_EMAIL);
    const response = await admin.agent.get(`/api/reviews?bookId=${bookId}&userId=${reader.user.id}`).expect(200);
    expect(response.body).toEqual({ userRating: 4 });
  });
});
