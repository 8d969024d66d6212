import { eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { books, payments } from "../db/schema.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { TEST_ADMIN_EMAIL, TEST_CHAIN, type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { LocalKeySigner } from "../chain/payout-signer.ts";
import { violatedUniqueConstraint } from "../db/errors.ts";
import { recordPayoutHealth } from "../rewards/payout-health-repository.ts";

type Agent = Awaited<ReturnType<typeof signedInAgent>>;
let testApp: TestApp;
let admin: Agent;
let author: Agent;
let firstBookId: number;
let secondBookId: number;

beforeAll(async () => {
  // The promotion is open, so a first book downloaded twice is owed the bonus.
  testApp = await createTestApp({ TRUST_PROXY: "loopback", PROMO_CUTOFF: "2100-01-01T00:00:00Z" });
  admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL });
  await testApp.proveEmail(TEST_ADMIN_EMAIL);
  author = await signedInAgent(testApp.app, { firstName: "Lucía", lastName: "Ramos" });
  firstBookId = (await sendBookForm(author.agent.post("/api/books"), { title: "Primero", coverImage: null }).expect(201)).body.id;
  secondBookId = (await sendBookForm(author.agent.post("/api/books"), { title: "Segundo", coverImage: null }).expect(201)).body.id;
  const readers = await Promise.all([signedInAgent(testApp.app), signedInAgent(testApp.app)]);
  for (const [index, reader] of readers.entries()) {
    await reader.agent.post(`/api/books/${secondBookId}/download`).set("X-Forwarded-For", `192.0.2.${index + 1}`).expect(200);
  }
});
afterAll(() => testApp.close());

describe("admin calls are the admin's only", () => {
  it.each([
    ["get", "/api/admin/overview-debug"],
    ["get", "/api/admin/users"],
    ["get", "/api/admin/books"],
    ["get", "/api/admin/payment-diagnostics"],
    ["post", "/api/admin/fix-first-book-flag"],
  ] as const)("%s %s: 401 anonymous, 403 for any other account", async (method, path) => {
    await request(testApp.app)[method](path).send({ bookId: 1, setAsFirstBook: true }).expect(401);
    const response = await author.agent[method](path).send({ bookId: 1, setAsFirstBook: true }).expect(403);
    expect(response.body.code).toBe("forbidden");
  });
});

describe("GET /api/admin/overview-debug and /api/admin/users", () => {
  it("counts accounts, books and active users", async () => {
    const response = await admin.agent.get("/api/admin/overview-debug").expect(200);
    expect(response.body).toEqual({ totals: { users: 4, books: 2, activeUsers30Days: 4 }, storageQuotaBytes: expect.any(Number) });
  });

  it("lists users a page at a time with their books", async () => {
    const response = await admin.agent.get("/api/admin/users").expect(200);
    expect(response.body).toMatchObject({ total: 4, page: 1, pageSize: 25 });
    const lucia = response.body.items.find((user: { id: string }) => user.id === author.user.id);
    expect(lucia).toMatchObject({
      firstName: "Lucía",
      lastName: "Ramos",
      booksCount: 2,
      books: [
        { id: firstBookId, title: "Primero", downloadCount: 0, tokensEarned: 0 },
        { id: secondBookId, title: "Segundo", downloadCount: 2, tokensEarned: 0 },
      ],
    });
  });

  it("finds users by name, username or e-mail, case and accents aside, wildcards taken literally", async () => {
    for (const q of ["lucia", "RAMOS", author.account.username.toUpperCase(), author.account.email]) {
      const found = await admin.agent.get("/api/admin/users").query({ q }).expect(200);
      expect(found.body.items.map((user: { id: string }) => user.id)).toEqual([author.user.id]);
      expect(found.body.total).toBe(1);
    }
    expect((await admin.agent.get("/api/admin/users").query({ q: "%" }).expect(200)).body).toMatchObject({ items: [], total: 0 });
  });

  it("answers an empty page past the last one, still saying how many match", async () => {
    expect((await admin.agent.get("/api/admin/users").query({ page: "2" }).expect(200)).body).toEqual({ items: [], total: 4, page: 2, pageSize: 25 });
  });

  it.each([
    ["/api/admin/users", { page: "0" }, "page"],
    ["/api/admin/users", { page: "x" }, "page"],
    ["/api/admin/users", { q: "a".repeat(101) }, "q"],
    ["/api/admin/books", { show: "everything" }, "show"],
    ["/api/admin/books", { page: "-1" }, "page"],
  ])("%s refuses %j with 400 naming %s", async (path, query, field) => {
    const response = await admin.agent.get(path).query(query).expect(400);
    expect(Object.keys(response.body.fields)).toEqual([field]);
  });
});

describe("payment diagnostics and the first-book fix", () => {
  it("explains why a book cannot receive the first-book bonus, listing all books on asking", async () => {
    const books = await admin.agent.get("/api/admin/books").query({ show: "all" }).expect(200);
    expect(books.body).toMatchObject({ total: 2, page: 1, pageSize: 25 });
    const second = books.body.items.find((book: { bookId: number }) => book.bookId === secondBookId);
    expect(second).toEqual({
      bookId: secondBookId,
      bookTitle: "Segundo",
      authorId: author.user.id,
      authorName: "Lucía Ramos",
      authorEmail: author.account.email,
      downloadCount: 2,
      paidMilestones: 0,
      canReceiveFirstBookBonus: false,
      issues: ["not_marked_as_first_book", "no_wallet_address"],
      // Her first upload is her first book; the one readers took is not.
      authorFirstBookId: firstBookId,
      moderationState: null,
      paidAmount: "0",
      cancelledAmount: "0",
    });
    const response = await admin.agent.get("/api/admin/payment-diagnostics").expect(200);
    expect(response.body.queue).toEqual({ pending: [], held: [], inFlight: [], failed: [], cancelled: [] });
    // The API tests run without a chain: the diagnostics still answer, saying why.
    expect(response.body.reconciliation).toEqual({ available: false, reason: expect.stringMatching(/^The chain could not be read/) });
  });

  it("lists by default only the books that need the admin: none while the offer runs as it should", async () => {
    // The first book has no download yet and the second is not the first: nothing to do.
    expect((await admin.agent.get("/api/admin/books").expect(200)).body).toEqual({ items: [], total: 0, page: 1, pageSize: 25 });
    const byTitle = await admin.agent.get("/api/admin/books").query({ show: "all", q: "segundo" }).expect(200);
    expect(byTitle.body.items.map((book: { bookId: number }) => book.bookId)).toEqual([secondBookId]);
    const byAuthor = await admin.agent.get("/api/admin/books").query({ show: "all", q: "lucía ramos" }).expect(200);
    expect(byAuthor.body.total).toBe(2);
  });

  it("refuses a second first book for one author with 409, changing nothing", async () => {
    const refused = await admin.agent.post("/api/admin/fix-first-book-flag").send({ bookId: secondBookId, setAsFirstBook: true }).expect(409);
    expect(refused.body).toEqual({ code: "first_book_taken", message: `This author already has a first book (#${firstBookId}): the first-book bonus is owed once per author.` });
    const marked = await testApp.database.db.select({ id: books.id }).from(books).where(eq(books.firstBook, true));
    expect(marked.map((book) => book.id)).toContain(firstBookId);
    expect(marked.map((book) => book.id)).not.toContain(secondBookId);
    expect(await testApp.database.db.select().from(payments).where(eq(payments.bookId, secondBookId))).toEqual([]);
    // Marking the first book again changes nothing and is no conflict.
    await admin.agent.post("/api/admin/fix-first-book-flag").send({ bookId: firstBookId, setAsFirstBook: true }).expect(200);
  });

  it("keeps one first book per author in the database itself, whoever writes", async () => {
    const update = testApp.database.db.update(books).set({ firstBook: true }).where(eq(books.id, secondBookId));
    await expect(update).rejects.toSatisfy((error) => violatedUniqueConstraint(error) === "books_one_first_book_per_author");
  });

  it("moves the mark once the first book is cleared, and the bonus then due is owed once", async () => {
    await admin.agent.post("/api/admin/fix-first-book-flag").send({ bookId: firstBookId, setAsFirstBook: false }).expect(200);
    // An author with downloads in the offer and no first book needs the admin: that book is listed.
    const attention = async () => (await admin.agent.get("/api/admin/books").expect(200)).body.items.map((book: { bookId: number }) => book.bookId);
    expect(await attention()).toEqual([secondBookId]);
    const fixed = await admin.agent.post("/api/admin/fix-first-book-flag").send({ bookId: secondBookId, setAsFirstBook: true }).expect(200);
    expect(fixed.body).toEqual({ bookId: secondBookId, firstBook: true, paymentsOwed: 1 });
    await admin.agent.post("/api/admin/fix-first-book-flag").send({ bookId: secondBookId, setAsFirstBook: true }).expect(200);
    const rows = await testApp.database.db.select().from(payments).where(eq(payments.bookId, secondBookId));
    expect(rows.map((row) => row.idempotencyKey)).toEqual([`book:${secondBookId}:first-book-bonus`]);
    const [book] = await testApp.database.db.select().from(books).where(eq(books.id, secondBookId));
    expect(book).toMatchObject({ firstBook: true, firstBookBonusPaid: true });
    expect(await attention()).toEqual([]);
    const diagnostics = await admin.agent.get("/api/admin/payment-diagnostics").expect(200);
    // The queue names the book and its author, not ids alone.
    expect(diagnostics.body.queue.pending).toEqual([
      expect.objectContaining({ bookId: secondBookId, bookTitle: "Segundo", authorName: "Lucía Ramos", stage: "queued", status: "pending", waitingForWallet: true }),
    ]);
  });

  it("shows the payout sender's last look at the hot wallet beside the thresholds it pauses at, none before it looked", async () => {
    const before = await admin.agent.get("/api/admin/payment-diagnostics").expect(200);
    expect(before.body.payoutHealth).toBeNull();
    const hotWallet = new LocalKeySigner(TEST_CHAIN.payoutPrivateKey).address;
    const at = new Date("2026-05-01T10:00:00Z");
    await recordPayoutHealth(testApp.database.db, {
      wallet: hotWallet,
      state: "low-gas",
      gasBalance: (25n * 10n ** 15n).toString(),
      tokenBalance: (120n * 10n ** 18n).toString(),
      balancesCheckedAt: at,
      finalityMode: "finalized-tag",
      finalityLagBlocks: 4,
      finalityLagSeconds: 9,
      feeNeeded: null,
      checkedAt: at,
    });
    const after = await admin.agent.get("/api/admin/payment-diagnostics").expect(200);
    expect(after.body.payoutHealth).toEqual({
      state: "low-gas",
      since: at.toISOString(),
      checkedAt: at.toISOString(),
      hotWallet,
      gasBalance: "0.025",
      gasMinimum: "0.01",
      tokenBalance: "120.0",
      tokenMinimum: "1.0",
      finality: { mode: "finalized-tag", lagBlocks: 4, lagSeconds: 9, maxLagSeconds: 600 },
      maxFeeGwei: "1000.0",
      feeNeededGwei: null,
    });
  });

  it.each([
    [{ bookId: "1", setAsFirstBook: true }, "bookId"],
    [{ bookId: 1, setAsFirstBook: "yes" }, "setAsFirstBook"],
    [{}, "bookId"],
  ])("refuses %j with 400", async (body, field) => {
    const response = await admin.agent.post("/api/admin/fix-first-book-flag").send(body).expect(400);
    expect(Object.keys(response.body.fields)).toContain(field);
  });

  it("answers 404 for an unknown book", async () => {
    await admin.agent.post("/api/admin/fix-first-book-flag").send({ bookId: 999999, setAsFirstBook: true }).expect(404);
  });
});
