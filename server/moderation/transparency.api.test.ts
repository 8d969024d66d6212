import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODERATION_LOG_PAGE_SIZE } from "../../shared/moderation.ts";
import type { TransparencyReport } from "../../shared/transparency.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { moderationDecisions, notices } from "../db/schema.ts";

type Agent = Awaited<ReturnType<typeof signedInAgent>>;
let testApp: TestApp;
let admin: Agent;
let author: Agent;
let reader: Agent;

const HOUR = 3_600_000;
const FACTS = "The admin's log keeps every decision with its facts.";

beforeAll(async () => {
  testApp = await createTestApp();
  admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL });
  await testApp.proveEmail(TEST_ADMIN_EMAIL);
  author = await signedInAgent(testApp.app, { firstName: "Irene", lastName: "Copista" });
  reader = await signedInAgent(testApp.app);
});
afterAll(() => testApp.close());

async function publish(title: string): Promise<number> {
  return (await sendBookForm(author.agent.post("/api/books"), { title, coverImage: null }).expect(201)).body.id as number;
}

/** The first instant of the month `back` months before the current one, in UTC. */
const monthStart = (back: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
};
const monthKey = (back: number) => monthStart(back).toISOString().slice(0, 7);

describe("the admin's log of decisions", () => {
  it("refuses a visitor and a reader, and a malformed page", async () => {
    await request(testApp.app).get("/api/admin/moderation/decisions").expect(401);
    await reader.agent.get("/api/admin/moderation/decisions").expect(403);
    for (const page of ["0", "-1", "1.5", "x", "501"]) {
      const response = await admin.agent.get("/api/admin/moderation/decisions").query({ page }).expect(400);
      expect(response.body.code, page).toBe("validation_failed");
      expect(Object.keys(response.body.fields), page).toContain("page");
    }
  });

  it("lists who decided what about whom, newest first, a page at a time", async () => {
    const id = await publish("Un libro revisado");
    await admin.agent.post(`/api/admin/books/${id}/moderation`).send({ action: "hide", ground: "terms-spam", basis: "notice", facts: FACTS }).expect(201);
    const restored = await admin.agent.post(`/api/admin/books/${id}/moderation`).send({ action: "restore", basis: "own-initiative", facts: FACTS }).expect(201);

    const first = (await admin.agent.get("/api/admin/moderation/decisions").expect(200)).body;
    expect(first.page).toBe(1);
    expect(first.decisions[0]).toMatchObject({
      id: restored.body.id,
      action: "restore",
      bookId: id,
      bookTitle: "Un libro revisado",
      accountId: author.user.id,
      accountName: "Irene Copista",
      basis: "own-initiative",
      facts: FACTS,
    });
    expect(first.decisions[0].decidedBy).toEqual(expect.any(String));
    expect(first.decisions[1]).toMatchObject({ action: "hide", ground: "terms-spam", bookId: id });

    // Enough decisions for a second page: hides and restores of the same book.
    for (let count = 0; count < MODERATION_LOG_PAGE_SIZE / 2; count++) {
      await admin.agent.post(`/api/admin/books/${id}/moderation`).send({ action: "hide", ground: "terms-spam", basis: "notice", facts: FACTS }).expect(201);
      await admin.agent.post(`/api/admin/books/${id}/moderation`).send({ action: "restore", basis: "notice", facts: FACTS }).expect(201);
    }
    const pageOne = (await admin.agent.get("/api/admin/moderation/decisions").query({ page: "1" }).expect(200)).body;
    const pageTwo = (await admin.agent.get("/api/admin/moderation/decisions").query({ page: "2" }).expect(200)).body;
    expect(pageOne.decisions).toHaveLength(MODERATION_LOG_PAGE_SIZE);
    expect(pageOne.hasMore).toBe(true);
    expect(pageTwo).toMatchObject({ page: 2, hasMore: false });
    expect(pageTwo.decisions).toHaveLength(2);
    const ids = [...pageOne.decisions, ...pageTwo.decisions].map((decision: { id: number }) => decision.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });
});

describe("the admin reviewing a reported book", () => {
  it("reads it without counting it, while a notice about it is open; a reader's opening counts", async () => {
    const id = await publish("Un libro denunciado");
    const url = `https://plume.example/books/${id}`;
    await request(testApp.app)
      .post("/api/notices")
      .send({ category: "spam", bookId: id, url, explanation: "Every page of this book advertises a casino.", name: "Ana", email: "ana@example.test", goodFaith: true })
      .expect(201);
    await admin.agent.post(`/api/books/${id}/read`).expect(200);
    expect((await request(testApp.app).get(`/api/books/${id}`).expect(200)).body.downloadCount).toBe(0);
    await reader.agent.post(`/api/books/${id}/read`).expect(200);
    expect((await request(testApp.app).get(`/api/books/${id}`).expect(200)).body.downloadCount).toBe(1);
  });
});

describe("the public transparency report", () => {
  // A database of its own: the log's tests above took decisions this month.
  let reportApp: TestApp;
  beforeAll(async () => {
    reportApp = await createTestApp();
  });
  afterAll(() => reportApp.close());

  it("counts the notices by category and outcome, the decisions by action, and the median time to a decision, month by month", async () => {
    const { db } = reportApp.database;
    const writer = await signedInAgent(reportApp.app);
    const bookId = (await sendBookForm(writer.agent.post("/api/books"), { title: "Cifras públicas", coverImage: null }).expect(201)).body.id as number;
    const accountId = writer.user.id;
    const notice = (category: "spam" | "minors" | "copyright", createdAt: Date, settled?: { status: "actioned" | "dismissed" | "writer-deleted"; afterHours: number }) => ({
      category,
      bookId,
      accountId,
      url: `https://plume.example/books/${bookId}`,
      explanation: "A notice seeded for the transparency report.",
      language: "en",
      reporterName: "Ana Lectora",
      reporterEmail: "ana.lectora@example.test",
      ...(category === "copyright" ? { originalWork: "The rights holder's novel", rightsHolder: "Editorial Ejemplo", sworn: true } : {}),
      createdAt,
      ...(settled ? { status: settled.status, closedAt: new Date(createdAt.getTime() + settled.afterHours * HOUR), closingFacts: FACTS } : {}),
    });
    const thisMonth = monthStart(0);
    const lastMonth = monthStart(1);
    await db.insert(notices).values([
      // This month: three settled after 2, 4 and 10 hours (median 4), one still open.
      notice("spam", new Date(thisMonth.getTime() + 60_000), { status: "dismissed", afterHours: 2 }),
      notice("spam", new Date(thisMonth.getTime() + 120_000), { status: "actioned", afterHours: 10 }),
      notice("minors", new Date(thisMonth.getTime() + 180_000), { status: "actioned", afterHours: 4 }),
      notice("copyright", new Date(thisMonth.getTime() + 240_000)),
      // About a review its writer deleted after 50 hours: nobody decided, so it is no time to a decision (docs/decisions/0111).
      notice("spam", new Date(thisMonth.getTime() + 300_000), { status: "writer-deleted", afterHours: 50 }),
      // Last month: two settled after 1 and 2 hours (median 1.5).
      notice("copyright", new Date(lastMonth.getTime() + 60_000), { status: "dismissed", afterHours: 1 }),
      notice("copyright", new Date(lastMonth.getTime() + 120_000), { status: "dismissed", afterHours: 2 }),
      // Thirteen months ago: outside the report.
      notice("spam", new Date(monthStart(12).getTime() + 60_000), { status: "dismissed", afterHours: 100 }),
    ]);
    await db.insert(moderationDecisions).values([
      { action: "hide", bookId, accountId, ground: "terms-spam", basis: "notice", facts: FACTS, createdAt: new Date(lastMonth.getTime() + 3 * HOUR) },
      { action: "restore", bookId, accountId, basis: "notice", facts: FACTS, createdAt: new Date(thisMonth.getTime() + 5 * HOUR) },
      { action: "suspend", accountId, ground: "terms-spam", basis: "automated", facts: FACTS, createdAt: new Date(thisMonth.getTime() + 6 * HOUR) },
      { action: "remove", bookId, accountId, ground: "law-copyright", basis: "notice", facts: FACTS, createdAt: new Date(monthStart(12).getTime() + HOUR) },
      // A review's removal and restore count as decisions of their own (docs/decisions/0111).
      { action: "remove-review", bookId, accountId, ground: "terms-spam", basis: "notice", facts: FACTS, createdAt: new Date(thisMonth.getTime() + 7 * HOUR) },
      { action: "restore-review", bookId, accountId, basis: "appeal", facts: FACTS, createdAt: new Date(thisMonth.getTime() + 8 * HOUR) },
    ]);

    const response = await request(reportApp.app).get("/api/transparency").expect(200);
    expect(response.headers["cache-control"]).toBe("public, max-age=60");
    const report = response.body as TransparencyReport;
    // Twelve months, oldest first, ending with the current one; none missing.
    expect(report.months.map(({ month }) => month)).toEqual(Array.from({ length: 12 }, (_, index) => monthKey(11 - index)));
    const current = report.months.at(-1)!;
    expect(current.noticesByCategory).toEqual({ copyright: 1, illegal: 0, "private-data": 0, "hate-violence": 0, minors: 1, spam: 3, "harmful-file": 0 });
    expect(current.noticesByOutcome).toEqual({ open: 1, actioned: 2, dismissed: 1, "writer-deleted": 1 });
    expect(current.decisionsByAction).toEqual({ hide: 0, remove: 0, restore: 1, suspend: 1, reinstate: 0, "remove-review": 1, "restore-review": 1 });
    expect(current.medianSecondsToDecision).toBe(4 * 3600);
    const previous = report.months.at(-2)!;
    expect(previous.noticesByCategory.copyright).toBe(2);
    expect(previous.noticesByOutcome).toEqual({ open: 0, actioned: 0, dismissed: 2, "writer-deleted": 0 });
    expect(previous.decisionsByAction.hide).toBe(1);
    expect(previous.medianSecondsToDecision).toBe(1.5 * 3600);
    // A month with nothing shows zeros, not a gap.
    const quiet = report.months[0]!;
    expect(Object.values(quiet.noticesByCategory).every((count) => count === 0)).toBe(true);
    expect(quiet.noticesByOutcome).toEqual({ open: 0, actioned: 0, dismissed: 0, "writer-deleted": 0 });
    expect(quiet.medianSecondsToDecision).toBeNull();
  });
});
