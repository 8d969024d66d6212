import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { books, downloads, payments, users } from "../db/schema.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";

/*
 * Reward farming (issue 6): the ways a person could try to make downloads count more than
 * docs/product.md#counting-downloads allows. counting.api.test.ts and rewards-ledger.api.test.ts cover the plain rules;
 * here each rule is pushed the way a farm would push it, and every figure is asserted exactly.
 */

type Agent = Awaited<ReturnType<typeof signedInAgent>>;
const HOUR_MS = 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;

let testApp: TestApp;
/** Readers who have downloaded nothing yet in a test: every test takes a fresh book, so they can be reused. */
let crowd: Agent[];
beforeAll(async () => {
  testApp = await createTestApp({
    TRUST_PROXY: "loopback",
    // The promotion is open: a first book is owed its bonus, one more payment that must not double.
    PROMO_CUTOFF: "2100-01-01T00:00:00Z",
    // The abuse limits have tests of their own; here only the counting rules stand between a farm and the rewards.
    RATE_LIMIT_REGISTER_PER_IP: "1000",
    RATE_LIMIT_DOWNLOADS_PER_ACCOUNT: "1000",
  });
  crowd = await Promise.all(Array.from({ length: 48 }, () => signedInAgent(testApp.app)));
});
afterAll(() => testApp.close());

const db = () => testApp.database.db;

/** A first book of a new author. */
async function newBook() {
  const author = await signedInAgent(testApp.app);
  const response = await sendBookForm(author.agent.post("/api/books"), { coverImage: null }).expect(201);
  return { author, bookId: response.body.id as number };
}

const download = (reader: Agent, bookId: number, ip: string) =>
  reader.agent.post(`/api/books/${bookId}/download`).set("X-Forwarded-For", ip).expect(200);

/** Moves the clock forward for this book's rules: its whole log becomes that much older. */
async function letTimePass(bookId: number, ms: number) {
  await db()
    .update(downloads)
    .set({ downloadedAt: sql`${downloads.downloadedAt} - ${ms} * interval '1 millisecond'` })
    .where(eq(downloads.bookId, bookId));
}

const logOf = (bookId: number) => db().select().from(downloads).where(eq(downloads.bookId, bookId)).orderBy(asc(downloads.id));
const bookRow = async (bookId: number) => (await db().select().from(books).where(eq(books.id, bookId)))[0]!;
const authorTotal = async (author: Agent) => (await db().select().from(users).where(eq(users.id, author.user.id)))[0]!.totalDownloads;
const paymentKeys = async (bookId: number) =>
  (await db().select().from(payments).where(eq(payments.bookId, bookId))).map((row) => row.idempotencyKey).sort();

/** Every download is logged with its book, account, address and time, counted or not (docs/product.md#counting-downloads). */
function expectFullyLogged(log: Awaited<ReturnType<typeof logOf>>, bookId: number, since: Date) {
  for (const row of log) {
    expect(row.bookId).toBe(bookId);
    expect(row.userId).toEqual(expect.any(String));
    expect(row.ipAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(row.downloadedAt.getTime()).toBeGreaterThanOrEqual(since.getTime());
    expect(row.downloadedAt.getTime()).toBeLessThanOrEqual(Date.now());
  }
}
const countedIn = (log: Awaited<ReturnType<typeof logOf>>) => log.filter((row) => row.counted);

describe("an author downloading their own book", () => {
  it("never counts, one after another or thirty at once, from any address", async () => {
    const started = new Date();
    const { author, bookId } = await newBook();
    for (const ip of ["192.0.2.1", "192.0.2.2", "192.0.2.1"]) await download(author, bookId, ip);
    await Promise.all(Array.from({ length: 30 }, (_, index) => download(author, bookId, `198.51.100.${index + 1}`)));

    const log = await logOf(bookId);
    expect(log).toHaveLength(33);
    expect(countedIn(log)).toHaveLength(0);
    expect(new Set(log.map((row) => row.userId))).toEqual(new Set([author.user.id]));
    expect(new Set(log.map((row) => row.ipAddress)).size).toBe(32);
    expectFullyLogged(log, bookId, started);
    expect(await bookRow(bookId)).toMatchObject({ downloadCount: 0, firstDownloadDate: null, paidMilestones: 0, firstBookBonusPaid: false });
    expect(await authorTotal(author)).toBe(0);
    expect(await paymentKeys(bookId)).toEqual([]);
  });
});

describe("one reader downloading the same book again", () => {
  it("counts once: again at once, a day later, from another address, and after the author edits the book", async () => {
    const started = new Date();
    const { author, bookId } = await newBook();
    const reader = crowd[0]!;
    await download(reader, bookId, "192.0.2.10");
    await download(reader, bookId, "192.0.2.10");
    await letTimePass(bookId, 25 * HOUR_MS);
    await download(reader, bookId, "192.0.2.10");
    await download(reader, bookId, "192.0.2.11");
    await sendBookForm(author.agent.put(`/api/books/${bookId}`), { title: "Otra edición", file: null, coverImage: null }).expect(200);
    await download(reader, bookId, "192.0.2.10");

    const log = await logOf(bookId);
    expect(log.map((row) => [row.userId, row.ipAddress, row.counted])).toEqual([
      [reader.user.id, "192.0.2.10", true],
      [reader.user.id, "192.0.2.10", false],
      [reader.user.id, "192.0.2.10", false],
      [reader.user.id, "192.0.2.11", false],
      [reader.user.id, "192.0.2.10", false],
    ]);
    expectFullyLogged(log.slice(2), bookId, started);
    expect(await bookRow(bookId)).toMatchObject({ title: "Otra edición", downloadCount: 1 });
    expect(await authorTotal(author)).toBe(1);
    expect(await paymentKeys(bookId)).toEqual([]);
  });

  it("counts once when the reader sends forty downloads at the same instant", async () => {
    const { author, bookId } = await newBook();
    const reader = crowd[1]!;
    await Promise.all(Array.from({ length: 40 }, () => download(reader, bookId, "192.0.2.20")));

    const log = await logOf(bookId);
    expect(log).toHaveLength(40);
    expect(countedIn(log).map((row) => row.userId)).toEqual([reader.user.id]);
    expect((await bookRow(bookId)).downloadCount).toBe(1);
    expect(await authorTotal(author)).toBe(1);
    expect(await paymentKeys(bookId)).toEqual([]);
  });
});

describe("many accounts behind one address", () => {
  it("counts three address-mates a day per book, logs the fourth, and after 24 hours counts new readers only", async () => {
    const started = new Date();
    const { author, bookId } = await newBook();
    const { bookId: otherBookId } = await newBook();
    const mates = crowd.slice(0, 9);
    for (const mate of mates.slice(0, 4)) await download(mate, bookId, "192.0.2.30");
    // The cap is per book: the same four on another book count three again.
    for (const mate of mates.slice(0, 4)) await download(mate, otherBookId, "192.0.2.30");

    const fourth = (await logOf(bookId))[3]!;
    expect(fourth).toMatchObject({ bookId, userId: mates[3]!.user.id, ipAddress: "192.0.2.30", counted: false });
    expect(fourth.downloadedAt.getTime()).toBeGreaterThanOrEqual(started.getTime());
    expect((await bookRow(bookId)).downloadCount).toBe(3);
    expect((await bookRow(otherBookId)).downloadCount).toBe(3);

    // A minute short of a day, the address is still at its cap.
    await letTimePass(bookId, 24 * HOUR_MS - MINUTE_MS);
    await download(mates[4]!, bookId, "192.0.2.30");
    expect((await bookRow(bookId)).downloadCount).toBe(3);

    // A minute past it, three more count, all new readers: those refused before never count (docs/product.md#counting-downloads); the next waits again.
    await letTimePass(bookId, 2 * MINUTE_MS);
    for (const mate of mates.slice(3)) await download(mate, bookId, "192.0.2.30");

    const log = await logOf(bookId);
    expect(log.map((row) => [row.userId, row.counted])).toEqual([
      [mates[0]!.user.id, true],
      [mates[1]!.user.id, true],
      [mates[2]!.user.id, true],
      [mates[3]!.user.id, false],
      [mates[4]!.user.id, false],
      [mates[3]!.user.id, false],
      [mates[4]!.user.id, false],
      [mates[5]!.user.id, true],
      [mates[6]!.user.id, true],
      [mates[7]!.user.id, true],
      [mates[8]!.user.id, false],
    ]);
    expect((await bookRow(bookId)).downloadCount).toBe(6);
    expect(await authorTotal(author)).toBe(6);
    // The bonus came with the second counted download, once; six downloads reach no milestone.
    expect(await paymentKeys(bookId)).toEqual([`book:${bookId}:first-book-bonus`]);
  });

  it("counts exactly three when forty accounts behind one address download at the same instant", async () => {
    const started = new Date();
    const { author, bookId } = await newBook();
    await Promise.all(crowd.slice(0, 40).map((reader) => download(reader, bookId, "192.0.2.40")));

    const log = await logOf(bookId);
    expect(log).toHaveLength(40);
    expectFullyLogged(log, bookId, started);
    expect(new Set(log.map((row) => row.userId)).size).toBe(40);
    const counted = countedIn(log);
    expect(counted).toHaveLength(3);
    expect(new Set(counted.map((row) => row.userId)).size).toBe(3);
    expect(await bookRow(bookId)).toMatchObject({ downloadCount: 3, paidMilestones: 0, firstBookBonusPaid: true });
    expect(await authorTotal(author)).toBe(3);
    expect(await paymentKeys(bookId)).toEqual([`book:${bookId}:first-book-bonus`]);
  });

  it("counts a mixed farm sent all at once exactly, and owes each milestone once", async () => {
    const started = new Date();
    const { author, bookId } = await newBook();
    // 24 readers four to an address (six addresses at their cap of three), 24 on addresses of their own.
    const addressOf = (index: number) => (index < 24 ? `203.0.113.${Math.floor(index / 4)}` : `198.51.100.${index}`);
    const requests = [
      ...crowd.flatMap((reader, index) => [download(reader, bookId, addressOf(index)), download(reader, bookId, addressOf(index))]),
      ...Array.from({ length: 5 }, (_, index) => download(author, bookId, `192.0.2.${50 + index}`)),
    ];
    await Promise.all(requests);

    const log = await logOf(bookId);
    expect(log).toHaveLength(101);
    expectFullyLogged(log, bookId, started);
    const counted = countedIn(log);
    expect(counted).toHaveLength(6 * 3 + 24);
    expect(new Set(counted.map((row) => row.userId)).size).toBe(42);
    for (let address = 0; address < 6; address += 1) {
      expect(counted.filter((row) => row.ipAddress === `203.0.113.${address}`)).toHaveLength(3);
    }
    expect(await bookRow(bookId)).toMatchObject({ downloadCount: 42, paidMilestones: 2, firstBookBonusPaid: true });
    expect(await authorTotal(author)).toBe(42);
    expect(await paymentKeys(bookId)).toEqual([
      `book:${bookId}:first-book-bonus`,
      `book:${bookId}:milestone:1`,
      `book:${bookId}:milestone:2`,
    ]);
  });
});

describe("a reader who deletes the account and registers again", () => {
  it("counts each new account as a new reader, but the address cap still holds with the old accounts gone", async () => {
    const { author, bookId } = await newBook();
    const first = await signedInAgent(testApp.app);
    const accountIds = [first.user.id];
    let current = first;
    for (let round = 0; round < 3; round += 1) {
      await download(current, bookId, "192.0.2.60");
      await db().delete(users).where(eq(users.id, current.user.id));
      // The same person, the same name and e-mail, the same address: a new account all the same.
      current = await signedInAgent(testApp.app, { username: first.account.username, email: first.account.email });
      accountIds.push(current.user.id);
    }
    await download(current, bookId, "192.0.2.60");

    expect(new Set(accountIds).size).toBe(4);
    const log = await logOf(bookId);
    // The log outlives the deleted accounts, and their counted downloads still fill the address's cap.
    expect(log.map((row) => [row.userId, row.ipAddress, row.counted])).toEqual([
      [null, "192.0.2.60", true],
      [null, "192.0.2.60", true],
      [null, "192.0.2.60", true],
      [current.user.id, "192.0.2.60", false],
    ]);
    expect((await bookRow(bookId)).downloadCount).toBe(3);
    expect(await authorTotal(author)).toBe(3);
    expect(await paymentKeys(bookId)).toEqual([`book:${bookId}:first-book-bonus`]);
  });
});
