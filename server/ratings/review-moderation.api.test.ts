import { eq, inArray } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppealForReview, DecisionForAuthor } from "../../shared/appeals.ts";
import type { LoggedModerationDecision } from "../../shared/moderation.ts";
import type { TransparencyReport } from "../../shared/transparency.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { mailsTo } from "../../test/helpers/mail-files.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { moderationDecisions, notices } from "../db/schema.ts";

/** A review's removal and restore as moderation decisions, their appeals, and a reported review its writer deletes (docs/decisions/0111). */

type Agent = Awaited<ReturnType<typeof signedInAgent>>;

let testApp: TestApp;
let author: Agent;
let admin: Agent;
const TEXT = "Buy cheap watches at example.test now.\nEvery chapter is an advertisement for the same shop.";
const FACTS = "The review advertises a shop and says nothing of the book.";
const REMOVAL = { action: "remove", ground: "terms-spam", basis: "notice", facts: FACTS };
const RESTORE = { action: "restore", basis: "own-initiative", facts: "On a second reading the link is the writer's own blog." };
const APPEAL = { kind: "appeal", statement: "My review is about the book: the link is my own reading blog, not a shop." };
const NOTICE = { category: "spam", url: "http://localhost/books/1", explanation: "This review is an advertisement for a watch shop.", goodFaith: true };

beforeAll(async () => {
  testApp = await createTestApp({ CONTACT_EMAIL: "legal@plume.example" });
  author = await signedInAgent(testApp.app);
  admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL });
  await testApp.proveEmail(TEST_ADMIN_EMAIL);
});
afterAll(() => testApp.close());

async function newBook(title = `A reviewed book ${Date.now()}`): Promise<{ id: number; title: string }> {
  return { id: (await sendBookForm(author.agent.post("/api/books"), { title, coverImage: null }).expect(201)).body.id as number, title };
}

/** A reader who took the book and reviewed it. */
async function reviewOf(bookId: number, rating = 1, text = TEXT): Promise<{ writer: Agent; reviewId: number }> {
  const writer = await signedInAgent(testApp.app, { firstName: "Lea", lastName: "Moreau" });
  await writer.agent.post(`/api/books/${bookId}/read`).expect(200);
  const written = await writer.agent.put(`/api/books/${bookId}/review`).send({ rating, text }).expect(200);
  return { writer, reviewId: written.body.review.id as number };
}

async function report(reviewId: number, sender: { email?: string; language?: string; category?: string } = {}): Promise<number> {
  const { email, language = "en", category = "spam" } = sender;
  const sent = await request(testApp.app)
    .post("/api/notices")
    .set("Accept-Language", language)
    .send({ ...NOTICE, category, reviewId, ...(email ? { name: "Ana Lectora", email } : {}) })
    .expect(201);
  return sent.body.id as number;
}

const decide = (reviewId: number, body: object) => admin.agent.post(`/api/admin/reviews/${reviewId}/moderation`).send(body);
const shownIds = async (bookId: number) => ((await request(testApp.app).get(`/api/books/${bookId}/reviews`).expect(200)).body.reviews as Array<{ id: number }>).map((shown) => shown.id);
const ratingOf = async (bookId: number) => (await request(testApp.app).get(`/rating/${bookId}`).expect(200)).body as { avgRating: number; reviewCount: number };
const statementsOf = async (by: Agent) => (await by.agent.get("/api/moderation/decisions").expect(200)).body as DecisionForAuthor[];
const loggedFirst = async () => ((await admin.agent.get("/api/admin/moderation/decisions").expect(200)).body.decisions as LoggedModerationDecision[])[0]!;
const noticeRows = (ids: number[]) => testApp.database.db.select().from(notices).where(inArray(notices.id, ids)).orderBy(notices.id);
const decisionCount = async () => (await testApp.database.db.select({ id: moderationDecisions.id }).from(moderationDecisions)).length;

describe("the admin's decision about a review refuses", () => {
  it("the wrong caller: a visitor 401, the writer, the book's author and another reader 403", async () => {
    const book = await newBook();
    const { writer, reviewId } = await reviewOf(book.id);
    const other = await signedInAgent(testApp.app);
    await request(testApp.app).post(`/api/admin/reviews/${reviewId}/moderation`).send(REMOVAL).expect(401);
    for (const caller of [writer, author, other]) expect((await caller.agent.post(`/api/admin/reviews/${reviewId}/moderation`).send(REMOVAL).expect(403)).body.code).toBe("forbidden");
    expect(await shownIds(book.id)).toContain(reviewId);
  });

  it("bad input with 400 naming each field, an unknown review or a bare rating with 404, and writes nothing", async () => {
    const book = await newBook();
    const { writer, reviewId } = await reviewOf(book.id);
    const before = await decisionCount();
    expect((await decide(reviewId, { ...REMOVAL, action: "hide" }).expect(400)).body.fields).toMatchObject({ action: "validation.moderationActionInvalid" });
    expect((await decide(reviewId, { action: "remove", ground: "law-made-up", basis: "rumour", facts: "short" }).expect(400)).body.fields).toEqual({
      ground: "validation.moderationGroundInvalid",
      basis: "validation.moderationBasisInvalid",
      facts: "validation.moderationFactsRequired",
    });
    expect((await decide(reviewId, { action: "restore", basis: "notice", facts: "x".repeat(2_001) }).expect(400)).body.fields).toEqual({ facts: "validation.moderationFactsTooLong" });
    expect((await admin.agent.post("/api/admin/reviews/abc/moderation").send(REMOVAL).expect(400)).body.fields).toEqual({ id: "validation.reviewIdInvalid" });
    await decide(999_999, REMOVAL).expect(404);
    // Words deleted, the stars kept: a rating is no review to remove.
    await writer.agent.delete(`/api/books/${book.id}/review`).expect(204);
    await decide(reviewId, REMOVAL).expect(404);
    expect(await decisionCount()).toBe(before);
  });
});

describe("the admin removes a reported review", () => {
  it("as a decision about its writer: hidden, out of the average, the notices upheld by it, the statement and the outcome mailed, in the log and on the writer's dashboard", async () => {
    const book = await newBook("Notes on the Analytical Engine");
    const { writer, reviewId } = await reviewOf(book.id, 1);
    await reviewOf(book.id, 5, "A patient book whose second half earns every page.");
    expect(await ratingOf(book.id)).toEqual({ avgRating: 3, reviewCount: 2 });
    const noticeIds = [await report(reviewId, { email: "ana.es@example.test", language: "es" }), await report(reviewId, { category: "minors" })];

    const removed = await decide(reviewId, REMOVAL).expect(201);
    expect(removed.body).toMatchObject({
      action: "remove-review",
      reviewId,
      bookId: book.id,
      bookTitle: book.title,
      accountId: writer.user.id,
      ground: "terms-spam",
      basis: "notice",
      facts: FACTS,
    });
    // Decided once: a second removal, a double click, writes no second statement.
    expect((await decide(reviewId, REMOVAL).expect(409)).body.code).toBe("moderation_conflict");

    expect(await ratingOf(book.id)).toEqual({ avgRating: 5, reviewCount: 1 });
    expect(await shownIds(book.id)).not.toContain(reviewId);
    expect((await noticeRows(noticeIds)).map((notice) => [notice.status, notice.decisionId])).toEqual([
      ["actioned", removed.body.id],
      ["actioned", removed.body.id],
    ]);
    expect((await writer.agent.put(`/api/books/${book.id}/review`).send({ rating: 5, text: TEXT }).expect(409)).body.code).toBe("review_removed");
    expect((await writer.agent.delete(`/api/books/${book.id}/rating`).expect(409)).body.code).toBe("review_removed");

    const [statement] = await mailsTo(testApp.mailDir, writer.account.email);
    expect(statement!.subject).toBe(`Your review of “${book.title}” was removed`);
    expect(statement!.text).toContain(`The facts: ${FACTS}`);
    expect(statement!.text).toContain("Ground: Plume's terms: spam or misleading content");
    expect(statement!.text).toContain("What led to it: a notice someone sent us");
    expect(statement!.text).toContain("contest it from your dashboard within six months");
    const [outcome] = await mailsTo(testApp.mailDir, "ana.es@example.test");
    expect(outcome!.subject).toBe(`Nuestra decisión sobre tu notificación n.º ${noticeIds[0]} acerca de «${book.title}»`);
    expect(outcome!.text).toContain("Hemos retirado la reseña");

    expect(await loggedFirst()).toMatchObject({
      id: removed.body.id,
      action: "remove-review",
      reviewId,
      bookTitle: book.title,
      accountName: "Lea Moreau",
      reviewExcerpt: TEXT.replace("\n", " "),
      inEffect: true,
    });
    const [onDashboard] = await statementsOf(writer);
    expect(onDashboard).toMatchObject({ id: removed.body.id, action: "remove-review", reviewId, bookTitle: book.title, appeal: null, contest: { kind: "appeal" } });
    // The book's author reads no statement: the decision is about the writer.
    expect((await statementsOf(author)).some((decision) => decision.id === removed.body.id)).toBe(false);
  });

  it("and restores it: back in the list and the average, mailed to its writer; a restore of what is not removed is 409", async () => {
    const book = await newBook();
    const { writer, reviewId } = await reviewOf(book.id, 1);
    await reviewOf(book.id, 5, "A patient book whose second half earns every page.");
    expect((await decide(reviewId, RESTORE).expect(409)).body.code).toBe("moderation_conflict");
    const removed = await decide(reviewId, { ...REMOVAL, basis: "own-initiative" }).expect(201);
    const restored = await decide(reviewId, RESTORE).expect(201);
    expect(restored.body).toMatchObject({ action: "restore-review", reviewId, ground: null, basis: "own-initiative" });
    expect((await decide(reviewId, RESTORE).expect(409)).body.code).toBe("moderation_conflict");

    expect(await shownIds(book.id)).toContain(reviewId);
    expect(await ratingOf(book.id)).toEqual({ avgRating: 3, reviewCount: 2 });
    const [mailed] = await mailsTo(testApp.mailDir, writer.account.email);
    expect(mailed!.subject).toBe(`Your review of “${book.title}” is shown again`);
    const log = (await admin.agent.get("/api/admin/moderation/decisions").expect(200)).body.decisions as LoggedModerationDecision[];
    expect(log.slice(0, 2).map((decision) => [decision.id, decision.inEffect])).toEqual([
      [restored.body.id, false],
      [removed.body.id, false],
    ]);
    // Lifted: the removal can no longer be contested, and the writer may change the review again.
    const statements = await statementsOf(writer);
    expect(statements.find((decision) => decision.id === removed.body.id)?.contest).toBeNull();
    expect((await writer.agent.post(`/api/moderation/decisions/${removed.body.id}/appeal`).send(APPEAL).expect(409)).body.code).toBe("appeal_closed");
    await writer.agent.put(`/api/books/${book.id}/review`).send({ rating: 2, text: "A patient book, if one forgives its first half." }).expect(200);
  });
});

describe("the writer deletes a reported review", () => {
  it("settles its notices as deleted by its writer and tells each sender who gave an address, in their language", async () => {
    const book = await newBook();
    const { writer, reviewId } = await reviewOf(book.id);
    const noticeIds = [
      await report(reviewId, { email: "ana.en@example.test" }),
      await report(reviewId, { email: "ana.fr@example.test", language: "fr" }),
      await report(reviewId, { category: "minors" }),
    ];
    await writer.agent.delete(`/api/books/${book.id}/review`).expect(204);

    const settled = await noticeRows(noticeIds);
    expect(settled.map((notice) => [notice.status, notice.decisionId, notice.closedAt !== null])).toEqual(Array(3).fill(["writer-deleted", null, true]));
    const [english] = await mailsTo(testApp.mailDir, "ana.en@example.test");
    expect(english!.subject).toBe(`Your notice #${noticeIds[0]} about “${book.title}”: the review is gone`);
    expect(english!.text).toContain("its writer deleted it before we had decided");
    const [french] = await mailsTo(testApp.mailDir, "ana.fr@example.test");
    expect(french!.subject).toBe(`Votre signalement nº ${noticeIds[1]} concernant « ${book.title} » : la critique n’existe plus`);
    const queue = (await admin.agent.get("/api/admin/notices").expect(200)).body as Array<{ subject: { reviewId?: number } }>;
    expect(queue.some((group) => group.subject.reviewId === reviewId)).toBe(false);
  });

  it("with the rating, or with the account: the same outcome, and a decision about a removed review outlives it", async () => {
    const book = await newBook();
    const byRating = await reviewOf(book.id);
    const ratingNotice = await report(byRating.reviewId, { email: "rating.reporter@example.test" });
    await byRating.writer.agent.delete(`/api/books/${book.id}/rating`).expect(200);
    expect((await noticeRows([ratingNotice]))[0]!.status).toBe("writer-deleted");
    expect((await mailsTo(testApp.mailDir, "rating.reporter@example.test"))[0]!.subject).toContain("the review is gone");

    const { writer, reviewId: removedId } = await reviewOf(book.id);
    const removal = await decide(removedId, REMOVAL).expect(201);
    const otherBook = await newBook();
    await writer.agent.post(`/api/books/${otherBook.id}/read`).expect(200);
    const reported = (await writer.agent.put(`/api/books/${otherBook.id}/review`).send({ rating: 2, text: TEXT }).expect(200)).body.review.id as number;
    const accountNotice = await report(reported, { email: "account.reporter@example.test" });
    await writer.agent.delete("/api/account").send({ currentPassword: writer.account.password }).expect(204);

    expect((await noticeRows([accountNotice]))[0]!.status).toBe("writer-deleted");
    expect((await mailsTo(testApp.mailDir, "account.reporter@example.test"))[0]!.subject).toBe(`Your notice #${accountNotice} about “${otherBook.title}”: the review is gone`);
    // The statement stays in the log and the figures, naming the book; its review is gone.
    const [kept] = await testApp.database.db.select().from(moderationDecisions).where(eq(moderationDecisions.id, removal.body.id));
    expect(kept).toMatchObject({ action: "remove-review", reviewId: null, bookId: book.id, facts: FACTS });
    const log = (await admin.agent.get("/api/admin/moderation/decisions").expect(200)).body.decisions as LoggedModerationDecision[];
    expect(log.find((decision) => decision.id === removal.body.id)).toMatchObject({ reviewId: null, bookTitle: book.title, reviewExcerpt: null, inEffect: false });
  });
});

describe("the writer appeals a review's removal as an author appeals a book's", () => {
  it("once, never another account's; granted, the review is back, under a restore whose basis is the appeal", async () => {
    const book = await newBook();
    const { writer, reviewId } = await reviewOf(book.id, 1);
    await reviewOf(book.id, 5, "A patient book whose second half earns every page.");
    const removal = await decide(reviewId, REMOVAL).expect(201);
    const stranger = await signedInAgent(testApp.app);
    expect((await stranger.agent.post(`/api/moderation/decisions/${removal.body.id}/appeal`).send(APPEAL).expect(404)).body.code).toBe("not_found");
    await request(testApp.app).post(`/api/moderation/decisions/${removal.body.id}/appeal`).send(APPEAL).expect(401);
    expect((await writer.agent.post(`/api/moderation/decisions/${removal.body.id}/appeal`).send({ ...APPEAL, kind: "counter-notice" }).expect(400)).body.fields).toHaveProperty("legalName");
    expect((await writer.agent.post(`/api/moderation/decisions/${removal.body.id}/appeal`).send({ kind: "appeal", statement: "short" }).expect(400)).body.fields).toEqual({
      statement: "validation.appealStatementTooShort",
    });

    const filed = await writer.agent.post(`/api/moderation/decisions/${removal.body.id}/appeal`).send(APPEAL).expect(201);
    expect((await writer.agent.post(`/api/moderation/decisions/${removal.body.id}/appeal`).send(APPEAL).expect(409)).body.code).toBe("appeal_closed");
    expect((await mailsTo(testApp.mailDir, writer.account.email))[0]!.subject).toBe(`We received your appeal about “${book.title}”`);
    const queued = ((await admin.agent.get("/api/admin/appeals").expect(200)).body as AppealForReview[]).find((appeal) => appeal.id === filed.body.id);
    expect(queued).toMatchObject({ decision: { id: removal.body.id, action: "remove-review" }, book: { id: book.id, title: book.title }, review: { id: reviewId, text: TEXT } });
    expect((await writer.agent.post(`/api/admin/appeals/${filed.body.id}/decision`).send({ outcome: "granted", facts: RESTORE.facts }).expect(403)).body.code).toBe("forbidden");

    const granted = await admin.agent.post(`/api/admin/appeals/${filed.body.id}/decision`).send({ outcome: "granted", facts: RESTORE.facts }).expect(200);
    expect(granted.body).toMatchObject({ status: "granted", outcomeFacts: RESTORE.facts });
    expect(await shownIds(book.id)).toContain(reviewId);
    expect(await ratingOf(book.id)).toEqual({ avgRating: 3, reviewCount: 2 });
    expect(await loggedFirst()).toMatchObject({ action: "restore-review", reviewId, basis: "appeal" });
    const [outcome] = await mailsTo(testApp.mailDir, writer.account.email);
    expect(outcome!.subject).toBe(`Your appeal about “${book.title}” was granted`);
    expect(outcome!.text).toContain(`your review of “${book.title}” is shown again`);
    const statement = (await statementsOf(writer)).find((decision) => decision.id === removal.body.id);
    expect(statement).toMatchObject({ appeal: { status: "granted" }, contest: null });
  });

  it("a copyright removal by a DMCA counter-notice, forwarded to the copyright notice's sender, who is told when it is granted", async () => {
    const book = await newBook();
    const { writer, reviewId } = await reviewOf(book.id, 2, "The whole third chapter, quoted here so you need not buy it: it was a dark and stormy night.");
    await request(testApp.app)
      .post("/api/notices")
      .send({
        ...NOTICE,
        category: "copyright",
        reviewId,
        explanation: "This review copies a whole chapter of my novel word for word.",
        name: "Rita Derechos",
        email: "rita.review@example.test",
        originalWork: "La casa del faro, chapter three",
        rightsHolder: "Rita Derechos",
        sworn: true,
      })
      .expect(201);
    const removal = await decide(reviewId, { ...REMOVAL, ground: "law-copyright" }).expect(201);
    expect((await statementsOf(writer)).find((decision) => decision.id === removal.body.id)?.contest).toMatchObject({ kind: "counter-notice" });
    expect((await writer.agent.post(`/api/moderation/decisions/${removal.body.id}/appeal`).send(APPEAL).expect(400)).body.fields).toEqual({ kind: "validation.appealKindInvalid" });
    const counter = await writer.agent
      .post(`/api/moderation/decisions/${removal.body.id}/appeal`)
      .send({
        kind: "counter-notice",
        statement: "I quoted a few lines to review the book, which is fair use, not the whole chapter.",
        legalName: "Lea Moreau",
        postalAddress: "1 rue de la Paix, 75002 Paris, France",
        phone: "+33 1 00 00 00 00",
        swornMistake: true,
        consentJurisdiction: true,
      })
      .expect(201);
    const [forwarded] = await mailsTo(testApp.mailDir, "rita.review@example.test");
    expect(forwarded!.text).toContain(`the writer of the review of “${book.title}”`);
    expect(forwarded!.text).toContain("Lea Moreau, 1 rue de la Paix, 75002 Paris, France");

    await admin.agent.post(`/api/admin/appeals/${counter.body.id}/decision`).send({ outcome: "granted", facts: "The quotation is short and serves the review." }).expect(200);
    const [told] = await mailsTo(testApp.mailDir, "rita.review@example.test");
    expect(told!.subject).toContain(`The review of “${book.title}” is shown again`);
  });
});

describe("the transparency report", () => {
  // Last in this file: the report is kept a minute per process, so it is read once, after every decision above.
  it("counts the reviews' removals and restores among the decisions, and the notices settled by a writer's deletion", async () => {
    const report = (await request(testApp.app).get("/api/transparency").expect(200)).body as TransparencyReport;
    const month = report.months.at(-1)!;
    // The removals above: one restored by the admin, two on appeal, one whose writer deleted the account, one standing.
    expect(month.decisionsByAction["remove-review"]).toBe(5);
    expect(month.decisionsByAction["restore-review"]).toBe(3);
    // The two notices of the first deletion with addresses and the anonymous one, the rating's and the account's.
    expect(month.noticesByOutcome["writer-deleted"]).toBe(5);
  });
});
