import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { mailsTo } from "../../test/helpers/mail-files.ts";
import { LIFTED_RATE_LIMITS, TEST_ADMIN_EMAIL, type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";

type Agent = Awaited<ReturnType<typeof signedInAgent>>;

let testApp: TestApp;
let author: Agent;
let reader: Agent;
let admin: Agent;
let bookId: number;
const TEXT = "A quiet, patient book.\nThe second half earns every page.";

beforeAll(async () => {
  testApp = await createTestApp(LIFTED_RATE_LIMITS);
  author = await signedInAgent(testApp.app);
  reader = await signedInAgent(testApp.app);
  admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL });
  await testApp.proveEmail(TEST_ADMIN_EMAIL);
  bookId = await newBook();
  await take(reader, bookId);
});
afterAll(() => testApp.close());

async function newBook(): Promise<number> {
  return (await sendBookForm(author.agent.post("/api/books"), { coverImage: null }).expect(201)).body.id as number;
}

/** Opening a book in the reader is taking it (a downloads row with the reader's id). */
async function take(agent: Agent, id: number): Promise<void> {
  await agent.agent.post(`/api/books/${id}/read`).expect(200);
}

async function readerWhoTook(id: number): Promise<Agent> {
  const agent = await signedInAgent(testApp.app);
  await take(agent, id);
  return agent;
}

const reviews = (id: number, query = "") => request(testApp.app).get(`/api/books/${id}/reviews${query}`);

describe("ratings become editable and removable", () => {
  it("changes the stars and the average in one call, and 404 not_rated before a rating", async () => {
    const id = await newBook();
    const rater = await signedInAgent(testApp.app);
    const none = await rater.agent.put(`/api/books/${id}/rating`).send({ rating: 3 }).expect(404);
    expect(none.body.code).toBe("not_rated");
    await rater.agent.post("/rate").send({ bookId: id, userId: rater.user.id, rating: 2 }).expect(201);
    const changed = await rater.agent.put(`/api/books/${id}/rating`).send({ rating: 5 }).expect(200);
    expect(changed.body).toEqual({ avgRating: 5, reviewCount: 1 });
    expect((await request(testApp.app).get(`/rating/${id}`).expect(200)).body).toEqual({ avgRating: 5, reviewCount: 1 });
    const removed = await rater.agent.delete(`/api/books/${id}/rating`).expect(200);
    expect(removed.body).toEqual({ avgRating: 0, reviewCount: 0 });
    await rater.agent.delete(`/api/books/${id}/rating`).expect(404);
    // A rating given again after its removal is a first one.
    await rater.agent.post("/rate").send({ bookId: id, userId: rater.user.id, rating: 4 }).expect(201);
  });

  it.each([0, 6, 2.5, "5", null])("refuses the rating %j with 400", async (rating) => {
    const response = await reader.agent.put(`/api/books/${bookId}/rating`).send({ rating }).expect(400);
    expect(response.body.fields.rating).toBe("validation.ratingInvalid");
  });

  it("refuses the author (403), visitors (401), bad and unknown ids (400, 404)", async () => {
    await author.agent.put(`/api/books/${bookId}/rating`).send({ rating: 3 }).expect(403);
    await author.agent.delete(`/api/books/${bookId}/rating`).expect(403);
    await author.agent.delete(`/api/books/${bookId}/review`).expect(403);
    await request(testApp.app).put(`/api/books/${bookId}/rating`).send({ rating: 3 }).expect(401);
    await request(testApp.app).delete(`/api/books/${bookId}/rating`).expect(401);
    await reader.agent.put("/api/books/abc/rating").send({ rating: 3 }).expect(400);
    await reader.agent.put("/api/books/999999/rating").send({ rating: 3 }).expect(404);
    await reader.agent.delete("/api/books/999999/rating").expect(404);
  });
});

describe("PUT /api/books/:id/review", () => {
  it("refuses a reader who did not take the book with 403 book_not_taken, and the author with 403", async () => {
    const stranger = await signedInAgent(testApp.app);
    const refused = await stranger.agent.put(`/api/books/${bookId}/review`).send({ rating: 4, text: TEXT }).expect(403);
    expect(refused.body.code).toBe("book_not_taken");
    const own = await author.agent.put(`/api/books/${bookId}/review`).send({ rating: 4, text: TEXT }).expect(403);
    expect(own.body.code).toBe("forbidden");
    await request(testApp.app).put(`/api/books/${bookId}/review`).send({ rating: 4, text: TEXT }).expect(401);
  });

  it.each([
    [{ rating: 4, text: "Too short." }, "text", "validation.reviewTooShort"],
    [{ rating: 4, text: "x".repeat(5_001) }, "text", "validation.reviewTooLong"],
    [{ rating: 4, text: "   \n\n\n   tiny    \n" }, "text", "validation.reviewTooShort"],
    [{ rating: 4 }, "text", "validation.reviewRequired"],
    [{ rating: 4, text: 42 }, "text", "validation.reviewRequired"],
    [{ rating: 9, text: TEXT }, "rating", "validation.ratingInvalid"],
    [{ text: TEXT }, "rating", "validation.ratingInvalid"],
  ])("refuses %j with 400 naming the field", async (body, field, key) => {
    const response = await reader.agent.put(`/api/books/${bookId}/review`).send(body).expect(400);
    expect(response.body.fields[field]).toBe(key);
  });

  it("writes one review with its rating, keeps it as plain text, and edits it", async () => {
    const html = `<b>Bold</b> <script>alert(1)</script>\r\n\r\n\r\n\r\nkept    \n${TEXT}   `;
    const written = await reader.agent.put(`/api/books/${bookId}/review`).send({ rating: 4, text: html }).expect(200);
    expect(written.body.review).toMatchObject({ rating: 4, text: `<b>Bold</b> <script>alert(1)</script>\n\nkept\n${TEXT}`, editedAt: null, mine: true, reply: null, helpfulCount: 0 });
    expect(written.body.bookRating).toEqual({ avgRating: 4, reviewCount: 1 });
    const edited = await reader.agent.put(`/api/books/${bookId}/review`).send({ rating: 2, text: TEXT }).expect(200);
    expect(edited.body.review).toMatchObject({ id: written.body.review.id, rating: 2, text: TEXT });
    expect(edited.body.review.editedAt).not.toBeNull();
    expect(edited.body.bookRating).toEqual({ avgRating: 2, reviewCount: 1 });
    // POST /rate still answers 409 to a second first rating.
    await reader.agent.post("/rate").send({ bookId, userId: reader.user.id, rating: 5 }).expect(409);
  });

  it("turns an earlier rating into a review when words are added", async () => {
    const id = await newBook();
    const rater = await readerWhoTook(id);
    await rater.agent.post("/rate").send({ bookId: id, userId: rater.user.id, rating: 3 }).expect(201);
    const written = await rater.agent.put(`/api/books/${id}/review`).send({ rating: 3, text: TEXT }).expect(200);
    expect(written.body.review.editedAt).toBeNull();
    expect(written.body.bookRating).toEqual({ avgRating: 3, reviewCount: 1 });
  });
});

describe("GET /api/books/:id/reviews", () => {
  it("lists shown reviews to anyone, newest or most helpful first, a page at a time", async () => {
    const id = await newBook();
    const writers = await Promise.all([0, 1, 2].map(() => readerWhoTook(id)));
    for (const [index, writer] of writers.entries()) {
      await writer.agent.put(`/api/books/${id}/review`).send({ rating: index + 3, text: `${TEXT} (${index})` }).expect(200);
    }
    const rater = await signedInAgent(testApp.app);
    await rater.agent.post("/rate").send({ bookId: id, userId: rater.user.id, rating: 1 }).expect(201);
    const first = (await reviews(id).expect(200)).body;
    expect(first).toMatchObject({ total: 3, page: 1, hasMore: false, viewer: null });
    expect(first.reviews.map((review: { text: string }) => review.text.slice(-3))).toEqual(["(2)", "(1)", "(0)"]);
    expect(first.reviews[0]).toMatchObject({ readerName: "Ana García", votedHelpful: false, mine: false });
    const oldest = first.reviews[2].id as number;
    await writers[1]!.agent.put(`/api/reviews/${oldest}/helpful`).expect(200);
    const helpful = (await reviews(id, "?sort=helpful").expect(200)).body;
    expect(helpful.reviews[0]).toMatchObject({ id: oldest, helpfulCount: 1 });
    const seen = (await writers[1]!.agent.get(`/api/books/${id}/reviews?sort=helpful`).expect(200)).body;
    expect(seen.reviews[0].votedHelpful).toBe(true);
    expect(seen.viewer).toMatchObject({ canRate: true, tookBook: true, isAuthor: false, rating: 4 });
    expect(seen.viewer.review).toMatchObject({ mine: true, text: `${TEXT} (1)` });
    const authorView = (await author.agent.get(`/api/books/${id}/reviews`).expect(200)).body;
    expect(authorView.viewer).toMatchObject({ isAuthor: true, canRate: false, tookBook: false, review: null });
    expect((await reviews(id, "?page=2").expect(200)).body).toMatchObject({ reviews: [], page: 2, hasMore: false });
  });

  it("refuses a bad sort or page with 400 and an unknown book with 404", async () => {
    expect((await reviews(bookId, "?sort=oldest").expect(400)).body.fields.sort).toBe("validation.reviewSortInvalid");
    await reviews(bookId, "?page=0").expect(400);
    await reviews(bookId, "?page=501").expect(400);
    await reviews(999999).expect(404);
    await request(testApp.app).get("/api/books/abc/reviews").expect(400);
  });
});

describe("DELETE /api/books/:id/review", () => {
  it("deletes the words, the reply and the votes, keeps the stars; 404 no_review without words", async () => {
    const id = await newBook();
    const writer = await readerWhoTook(id);
    const voter = await signedInAgent(testApp.app);
    const review = (await writer.agent.put(`/api/books/${id}/review`).send({ rating: 5, text: TEXT }).expect(200)).body.review;
    await author.agent.put(`/api/reviews/${review.id}/reply`).send({ text: "Thank you for reading." }).expect(200);
    await voter.agent.put(`/api/reviews/${review.id}/helpful`).expect(200);
    await writer.agent.delete(`/api/books/${id}/review`).expect(204);
    expect((await reviews(id).expect(200)).body).toMatchObject({ reviews: [], total: 0 });
    expect((await request(testApp.app).get(`/rating/${id}`).expect(200)).body).toEqual({ avgRating: 5, reviewCount: 1 });
    expect((await writer.agent.delete(`/api/books/${id}/review`).expect(404)).body.code).toBe("no_review");
    // The words come back as a new review, without the old reply or votes.
    const again = (await writer.agent.put(`/api/books/${id}/review`).send({ rating: 5, text: TEXT }).expect(200)).body.review;
    expect(again).toMatchObject({ reply: null, helpfulCount: 0 });
  });

  it("refuses visitors with 401", async () => {
    await request(testApp.app).delete(`/api/books/${bookId}/review`).expect(401);
  });
});

describe("the author's reply", () => {
  it("lets the book's author reply once, change it and delete it; nobody else", async () => {
    const id = await newBook();
    const writer = await readerWhoTook(id);
    const review = (await writer.agent.put(`/api/books/${id}/review`).send({ rating: 4, text: TEXT }).expect(200)).body.review;
    await writer.agent.put(`/api/reviews/${review.id}/reply`).send({ text: "Not my book." }).expect(403);
    await admin.agent.put(`/api/reviews/${review.id}/reply`).send({ text: "Admin words." }).expect(403);
    await request(testApp.app).put(`/api/reviews/${review.id}/reply`).send({ text: "Visitor." }).expect(401);
    const replied = await author.agent.put(`/api/reviews/${review.id}/reply`).send({ text: "  Thank you.\r\nTruly.  " }).expect(200);
    expect(replied.body.reply).toMatchObject({ text: "Thank you.\nTruly." });
    const changed = await author.agent.put(`/api/reviews/${review.id}/reply`).send({ text: "Thank you, changed." }).expect(200);
    expect(changed.body.reply.text).toBe("Thank you, changed.");
    expect((await reviews(id).expect(200)).body.reviews[0].reply.text).toBe("Thank you, changed.");
    await author.agent.delete(`/api/reviews/${review.id}/reply`).expect(204);
    expect((await author.agent.delete(`/api/reviews/${review.id}/reply`).expect(409)).body.code).toBe("no_reply");
    await writer.agent.delete(`/api/reviews/${review.id}/reply`).expect(403);
  });

  it("refuses bad replies with 400 and unknown reviews with 404", async () => {
    const id = await newBook();
    const writer = await readerWhoTook(id);
    const review = (await writer.agent.put(`/api/books/${id}/review`).send({ rating: 4, text: TEXT }).expect(200)).body.review;
    expect((await author.agent.put(`/api/reviews/${review.id}/reply`).send({ text: " " }).expect(400)).body.fields.text).toBe("validation.replyTooShort");
    expect((await author.agent.put(`/api/reviews/${review.id}/reply`).send({ text: "x".repeat(2_001) }).expect(400)).body.fields.text).toBe("validation.replyTooLong");
    expect((await author.agent.put(`/api/reviews/${review.id}/reply`).send({}).expect(400)).body.fields.text).toBe("validation.replyRequired");
    expect((await author.agent.put("/api/reviews/abc/reply").send({ text: "Thanks." }).expect(400)).body.fields.id).toBe("validation.reviewIdInvalid");
    expect((await author.agent.put("/api/reviews/999999/reply").send({ text: "Thanks." }).expect(404)).body.code).toBe("review_not_found");
  });
});

describe("Helpful", () => {
  it("counts once per reader, toggles, and never on one's own review", async () => {
    const id = await newBook();
    const writer = await readerWhoTook(id);
    const review = (await writer.agent.put(`/api/books/${id}/review`).send({ rating: 4, text: TEXT }).expect(200)).body.review;
    const voter = await signedInAgent(testApp.app);
    expect((await voter.agent.put(`/api/reviews/${review.id}/helpful`).expect(200)).body).toEqual({ helpfulCount: 1, votedHelpful: true });
    expect((await voter.agent.put(`/api/reviews/${review.id}/helpful`).expect(200)).body).toEqual({ helpfulCount: 1, votedHelpful: true });
    expect((await author.agent.put(`/api/reviews/${review.id}/helpful`).expect(200)).body).toEqual({ helpfulCount: 2, votedHelpful: true });
    expect((await voter.agent.delete(`/api/reviews/${review.id}/helpful`).expect(200)).body).toEqual({ helpfulCount: 1, votedHelpful: false });
    expect((await voter.agent.delete(`/api/reviews/${review.id}/helpful`).expect(200)).body).toEqual({ helpfulCount: 1, votedHelpful: false });
    expect((await writer.agent.put(`/api/reviews/${review.id}/helpful`).expect(403)).body.code).toBe("own_review");
    await request(testApp.app).put(`/api/reviews/${review.id}/helpful`).expect(401);
    await voter.agent.put("/api/reviews/999999/helpful").expect(404);
    await voter.agent.put("/api/reviews/0/helpful").expect(400);
  });

  it("keeps the count right when many readers vote at once", async () => {
    const id = await newBook();
    const writer = await readerWhoTook(id);
    const review = (await writer.agent.put(`/api/books/${id}/review`).send({ rating: 4, text: TEXT }).expect(200)).body.review;
    const voters = await Promise.all(Array.from({ length: 6 }, () => signedInAgent(testApp.app)));
    await Promise.all(voters.map((voter) => voter.agent.put(`/api/reviews/${review.id}/helpful`).expect(200)));
    expect((await reviews(id).expect(200)).body.reviews[0].helpfulCount).toBe(6);
  });
});

describe("reports and the admin's removal", () => {
  const NOTICE = { category: "hate-violence", url: "http://plume.test/books/1", explanation: "This review insults a group of people by name.", name: "Ana", email: "ana.reporter@example.test", goodFaith: true };

  it("takes a notice about a review, shows it in the queue, and removes the review with a statement of reasons", async () => {
    const id = await newBook();
    const writer = await readerWhoTook(id);
    const other = await readerWhoTook(id);
    const review = (await writer.agent.put(`/api/books/${id}/review`).send({ rating: 1, text: TEXT }).expect(200)).body.review;
    await other.agent.put(`/api/books/${id}/review`).send({ rating: 5, text: TEXT }).expect(200);
    expect((await request(testApp.app).get(`/rating/${id}`).expect(200)).body).toEqual({ avgRating: 3, reviewCount: 2 });
    await request(testApp.app).post("/api/notices").send({ ...NOTICE, reviewId: review.id }).expect(201);
    // One subject only.
    expect((await request(testApp.app).post("/api/notices").send({ ...NOTICE, reviewId: review.id, bookId: id }).expect(400)).body.fields.bookId).toBe("validation.noticeSubjectRequired");
    await request(testApp.app).post("/api/notices").send({ ...NOTICE, reviewId: 999999 }).expect(404);
    const queue = (await admin.agent.get("/api/admin/notices").expect(200)).body as Array<{ subject: { kind: string; reviewId?: number } }>;
    const group = queue.find((entry) => entry.subject.kind === "review" && entry.subject.reviewId === review.id);
    expect(group?.subject).toMatchObject({ kind: "review", bookId: id, text: TEXT, rating: 1, accountId: writer.user.id });

    // The removal's refusals, decision, log and appeal: server/ratings/review-moderation.api.test.ts.
    const removal = { action: "remove", ground: "terms-hate-violence", basis: "notice", facts: "The review insults a group of people." };
    const removed = await admin.agent.post(`/api/admin/reviews/${review.id}/moderation`).send(removal).expect(201);
    expect(removed.body).toMatchObject({ action: "remove-review", reviewId: review.id, bookId: id });

    // Hidden everywhere, out of the average, and the notice settled.
    expect((await request(testApp.app).get(`/rating/${id}`).expect(200)).body).toEqual({ avgRating: 5, reviewCount: 1 });
    expect((await reviews(id).expect(200)).body.reviews.map((shown: { id: number }) => shown.id)).not.toContain(review.id);
    const queueAfter = (await admin.agent.get("/api/admin/notices").expect(200)).body as Array<{ subject: { kind: string; reviewId?: number } }>;
    expect(queueAfter.some((entry) => entry.subject.reviewId === review.id)).toBe(false);
    expect((await writer.agent.put(`/api/books/${id}/review`).send({ rating: 5, text: TEXT }).expect(409)).body.code).toBe("review_removed");
    expect((await writer.agent.get(`/api/books/${id}/reviews`).expect(200)).body.viewer).toMatchObject({ rating: 0, review: null });
    await other.agent.put(`/api/reviews/${review.id}/helpful`).expect(404);
    await author.agent.put(`/api/reviews/${review.id}/reply`).send({ text: "Thanks." }).expect(404);
    await request(testApp.app).post("/api/notices").send({ ...NOTICE, reviewId: review.id }).expect(404);

    const [statement] = await mailsTo(testApp.mailDir, writer.account.email);
    expect(statement?.subject).toContain("was removed");
    expect(statement?.text).toContain("The review insults a group of people.");
    const [outcome] = await mailsTo(testApp.mailDir, NOTICE.email);
    expect(outcome?.text).toContain("We removed the review");
  });
});

describe("export and deletion", () => {
  it("exports the reviews and replies, and deletion removes the reviews, recounts the average and the votes", async () => {
    const id = await newBook();
    const writer = await readerWhoTook(id);
    const other = await readerWhoTook(id);
    const review = (await writer.agent.put(`/api/books/${id}/review`).send({ rating: 1, text: TEXT }).expect(200)).body.review;
    const kept = (await other.agent.put(`/api/books/${id}/review`).send({ rating: 5, text: TEXT }).expect(200)).body.review;
    await author.agent.put(`/api/reviews/${review.id}/reply`).send({ text: "Sorry it did not work for you." }).expect(200);
    await writer.agent.put(`/api/reviews/${kept.id}/helpful`).expect(200);

    const exported = (await writer.agent.get("/api/account/export").expect(200)).body;
    expect(exported.reviewsWritten).toEqual([expect.objectContaining({ bookId: id, rating: 1, text: TEXT, authorReply: "Sorry it did not work for you.", removedAt: null })]);
    const authorExport = (await author.agent.get("/api/account/export").expect(200)).body;
    expect(authorExport.repliesWritten).toContainEqual(expect.objectContaining({ bookId: id, reply: "Sorry it did not work for you." }));

    await writer.agent.delete("/api/account").send({ currentPassword: writer.account.password }).expect(204);
    expect((await request(testApp.app).get(`/rating/${id}`).expect(200)).body).toEqual({ avgRating: 5, reviewCount: 1 });
    const after = (await reviews(id).expect(200)).body;
    expect(after.reviews).toEqual([expect.objectContaining({ id: kept.id, helpfulCount: 0 })]);
  });
});

describe("limits per account and day", () => {
  it("answers 429 with a code past the day's reviews, helpful votes and replies", async () => {
    const limited = await createTestApp({ ...LIFTED_RATE_LIMITS, RATE_LIMIT_REVIEWS_PER_ACCOUNT: "1", RATE_LIMIT_HELPFUL_VOTES_PER_ACCOUNT: "1", RATE_LIMIT_REVIEW_REPLIES_PER_ACCOUNT: "1" });
    try {
      const writerOfBook = await signedInAgent(limited.app);
      const id = (await sendBookForm(writerOfBook.agent.post("/api/books"), { coverImage: null }).expect(201)).body.id as number;
      const writer = await signedInAgent(limited.app);
      await writer.agent.post(`/api/books/${id}/read`).expect(200);
      // A refused review does not count.
      await writer.agent.put(`/api/books/${id}/review`).send({ rating: 4, text: "short" }).expect(400);
      const review = (await writer.agent.put(`/api/books/${id}/review`).send({ rating: 4, text: TEXT }).expect(200)).body.review;
      expect((await writer.agent.put(`/api/books/${id}/review`).send({ rating: 3, text: TEXT }).expect(429)).body.code).toBe("review_limit");
      const voter = await signedInAgent(limited.app);
      await voter.agent.put(`/api/reviews/${review.id}/helpful`).expect(200);
      expect((await voter.agent.delete(`/api/reviews/${review.id}/helpful`).expect(429)).body.code).toBe("helpful_vote_limit");
      await writerOfBook.agent.put(`/api/reviews/${review.id}/reply`).send({ text: "Thanks." }).expect(200);
      expect((await writerOfBook.agent.put(`/api/reviews/${review.id}/reply`).send({ text: "Thanks again." }).expect(429)).body.code).toBe("review_reply_limit");
    } finally {
      await limited.close();
    }
  });
});
