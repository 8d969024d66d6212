import { eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DownloadReport, DownloadTally } from "../../shared/download-report.ts";
import { books, downloads } from "../db/schema.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { lastMonths } from "./author-stats-service.ts";

type Agent = Awaited<ReturnType<typeof signedInAgent>>;
let testApp: TestApp;
let author: Agent;
let bookId: number;
let otherBookId: number;
// The months of the report, oldest first: the current one is last.
const months = lastMonths(new Date());
const current = months.at(-1)!;
const twoMonthsAgo = months.at(-3)!;

const download = (reader: Agent, id: number, ip: string) => reader.agent.post(`/api/books/${id}/download`).set("X-Forwarded-For", ip).expect(200);
const tally = (counted: number, notCounted: Partial<DownloadTally["notCounted"]>): DownloadTally => {
  const reasons = { unpublished: 0, "moderation-review": 0, "own-book": 0, "repeat-reader": 0, "no-address": 0, "address-cap": 0, unrecorded: 0, ...notCounted };
  return { logged: counted + Object.values(reasons).reduce((sum, count) => sum + count, 0), counted, notCounted: reasons };
};

beforeAll(async () => {
  testApp = await createTestApp({ TRUST_PROXY: "loopback" });
  author = await signedInAgent(testApp.app);
  bookId = (await sendBookForm(author.agent.post("/api/books"), { title: "Zebra tales", coverImage: null }).expect(201)).body.id;
  otherBookId = (await sendBookForm(author.agent.post("/api/books"), { title: "Apple days", coverImage: null }).expect(201)).body.id;

  // This month, through the real counting rule: own book, a repeat, the address cap (3 per address and day).
  const readers = await Promise.all(Array.from({ length: 5 }, () => signedInAgent(testApp.app)));
  await download(author, bookId, "10.0.0.1");
  await download(readers[0]!, bookId, "10.0.0.2");
  await download(readers[0]!, bookId, "10.0.0.9");
  for (const reader of readers.slice(1)) await download(reader, bookId, "10.0.0.3");
  // Earlier months, as the log holds them: an old row whose reason was never recorded, and unpublished ones.
  const at = (month: string, day: number) => new Date(`${month}-${String(day).padStart(2, "0")}T12:00:00Z`);
  await testApp.database.db.insert(downloads).values([
    { bookId, userId: readers[1]!.user.id, counted: false, notCountedReason: null, downloadedAt: at(twoMonthsAgo, 3) },
    { bookId, userId: readers[2]!.user.id, counted: false, notCountedReason: "unpublished", downloadedAt: at(twoMonthsAgo, 4) },
    { bookId, userId: readers[3]!.user.id, counted: false, notCountedReason: "no-address", downloadedAt: at(twoMonthsAgo, 28) },
    { bookId: otherBookId, userId: readers[4]!.user.id, counted: false, notCountedReason: "unpublished", downloadedAt: at(months[0]!, 1) },
    // Before the 12 months: not in the report.
    { bookId, userId: readers[4]!.user.id, counted: false, notCountedReason: "repeat-reader", downloadedAt: new Date(Date.UTC(Number(months[0]!.slice(0, 4)), Number(months[0]!.slice(5)) - 1, 0, 23, 59)) },
  ]);
});
afterAll(() => testApp.close());

const report = async (agent: Agent, query = "") => (await agent.agent.get(`/api/authors/${author.user.id}/download-report${query}`).expect(200)).body as DownloadReport;

describe("GET /api/authors/:id/download-report (docs/product.md#what-authors-see)", () => {
  it("splits every logged download of each book and month into counted and not counted with the reason", async () => {
    const body = await report(author);
    expect(body.months).toEqual(months);
    expect(body.books.map((book) => book.title)).toEqual(["Apple days", "Zebra tales"]);
    const [apple, zebra] = body.books;
    expect(apple).toEqual({ bookId: otherBookId, title: "Apple days", deleted: false, months: [{ month: months[0], ...tally(0, { unpublished: 1 }) }], total: tally(0, { unpublished: 1 }) });
    expect(zebra!.months).toEqual([
      { month: twoMonthsAgo, ...tally(0, { unrecorded: 1, unpublished: 1, "no-address": 1 }) },
      { month: current, ...tally(4, { "own-book": 1, "repeat-reader": 1, "address-cap": 1 }) },
    ]);
    expect(zebra!.total).toEqual(tally(4, { unrecorded: 1, unpublished: 1, "no-address": 1, "own-book": 1, "repeat-reader": 1, "address-cap": 1 }));
  });

  it("adds up: the counted downloads are the book's own count, and the total is every logged row of the months", async () => {
    const zebra = (await report(author)).books.find((book) => book.bookId === bookId)!;
    const [row] = await testApp.database.db.select().from(books).where(eq(books.id, bookId));
    expect(zebra.total.counted).toBe(row!.downloadCount);
    const since = new Date(`${months[0]}-01T00:00:00Z`);
    const logged = (await testApp.database.db.select().from(downloads).where(eq(downloads.bookId, bookId))).filter((download) => download.downloadedAt >= since);
    expect(zebra.total.logged).toBe(logged.length);
  });

  it("covers the months asked for, and keeps a deleted book's downloads", async () => {
    await author.agent.delete(`/api/books/${otherBookId}`).expect(204);
    const recent = await report(author, "?months=3");
    expect(recent.months).toEqual(months.slice(-3));
    expect(recent.books.map((book) => book.bookId)).toEqual([bookId]);
    const whole = await report(author, "?months=24");
    expect(whole.months).toHaveLength(24);
    expect(whole.books.find((book) => book.bookId === otherBookId)).toMatchObject({ deleted: true, total: tally(0, { unpublished: 1 }) });
    expect(whole.books.find((book) => book.bookId === bookId)!.total.notCounted["repeat-reader"]).toBe(2);
  });

  it("refuses bad months with 400 and the field's key", async () => {
    for (const months of ["0", "25", "abc", "1.5", "-1", "", "123"]) {
      const response = await author.agent.get(`/api/authors/${author.user.id}/download-report?months=${months}`).expect(400);
      expect(response.body).toMatchObject({ code: "validation_failed", fields: { months: "validation.monthsInvalid" } });
    }
    await author.agent.get("/api/authors/not-a-uuid/download-report").expect(400);
  });

  it("is the author's own and the admin's: another author gets 403, a visitor 401, an unknown author 404", async () => {
    const other = await signedInAgent(testApp.app);
    expect((await other.agent.get(`/api/authors/${author.user.id}/download-report`).expect(403)).body.code).toBe("forbidden");
    await request(testApp.app).get(`/api/authors/${author.user.id}/download-report`).expect(401);
    const admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL });
    await testApp.proveEmail(TEST_ADMIN_EMAIL);
    expect((await report(admin)).books.map((book) => book.bookId).sort()).toEqual([bookId, otherBookId].sort());
    await admin.agent.get("/api/authors/00000000-0000-4000-8000-000000000000/download-report").expect(404);
  });
});
