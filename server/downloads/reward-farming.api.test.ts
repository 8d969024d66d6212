import { asc, eq, sql } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SuspiciousBurst } from "../../shared/admin.ts";
import { ADDRESS_LABEL_LENGTH } from "../../shared/suspicious-activity.ts";
import { books, downloads, payments, users } from "../db/schema.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, newAccount, signedInAgent } from "../../test/helpers/test-app.ts";
import { ADDRESS_HASH_KEPT_MS, AddressHashSweep } from "./address-hashes.ts";

/*
 * Reward farming (docs/reliability.md#reward-farming): the ways a person could try to make downloads count more than
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

describe("readers who delete their accounts and register again (docs/decisions/0049)", () => {
  /** A reader registered from `address`, as a person there would be. */
  async function readerAt(address: string, overrides: Record<string, string> = {}) {
    const agent = request.agent(testApp.app);
    const account = newAccount(overrides);
    const response = await agent.post("/api/auth/register").set("X-Forwarded-For", address).send(account).expect(201);
    return { agent, account, user: response.body as { id: string }, address };
  }
  const deleteAccount = (reader: Awaited<ReturnType<typeof readerAt>>) =>
    reader.agent.delete("/api/account").set("X-Forwarded-For", reader.address).send({ currentPassword: reader.account.password }).expect(204);

  /** The round the finding describes: three readers register, each downloads the book, the three delete their accounts. */
  async function farmRound(bookId: number, address: string, overrides: Array<Record<string, string>> = [{}, {}, {}]) {
    const readers = [];
    for (const override of overrides) readers.push(await readerAt(address, override));
    for (const reader of readers) await download(reader, bookId, address);
    for (const reader of readers) await deleteAccount(reader);
    return readers;
  }

  it("holds the address cap through seven rounds of register, download, DELETE /api/account: 3 counted of 21, no milestone owed", async () => {
    const { author, bookId } = await newBook();
    const address = "192.0.2.60";
    const farm = [];
    // The same person may come back with the same name and e-mail: a new account all the same.
    farm.push(...(await farmRound(bookId, address)));
    const [first] = farm;
    for (let round = 1; round < 7; round += 1) {
      farm.push(...(await farmRound(bookId, address, [{ username: first!.account.username, email: first!.account.email }, {}, {}])));
    }

    expect(new Set(farm.map((reader) => reader.user.id)).size).toBe(21);
    const log = await logOf(bookId);
    expect(log).toHaveLength(21);
    expect(log.map((row) => row.counted)).toEqual([true, true, true, ...Array<boolean>(18).fill(false)]);
    expect(log.slice(3).map((row) => row.notCountedReason)).toEqual(Array(18).fill("address-cap"));
    // No address in clear after the deletions; one keyed hash of it, the same for all 21.
    expect(log.map((row) => row.ipAddress)).toEqual(Array(21).fill(null));
    expect(new Set(log.map((row) => row.addressHash)).size).toBe(1);
    expect(log[0]!.addressHash).toMatch(/^[0-9a-f]{64}$/);
    expect(log[0]!.addressHash).not.toContain(address);
    expect(await bookRow(bookId)).toMatchObject({ downloadCount: 3, paidMilestones: 0 });
    expect(await authorTotal(author)).toBe(3);
    // Only the first-book bonus the second counted download earns; no milestone (20 counted) is owed.
    expect(await paymentKeys(bookId)).toEqual([`book:${bookId}:first-book-bonus`]);

    // A living reader of the address is held by the deleted readers' counts too; a minute past 24 hours, three count again.
    const latecomer = await readerAt(address);
    await download(latecomer, bookId, address);
    expect((await bookRow(bookId)).downloadCount).toBe(3);
    await letTimePass(bookId, 24 * HOUR_MS + MINUTE_MS);
    await farmRound(bookId, address);
    expect((await bookRow(bookId)).downloadCount).toBe(6);
    expect(countedIn(await logOf(bookId))).toHaveLength(6);
  });

  it("counts a deleted reader's download against the address while it is deleted, at the same instant as new readers download", async () => {
    const { bookId } = await newBook();
    const address = "192.0.2.61";
    await farmRound(bookId, address, [{}]);
    const newcomers = await Promise.all(Array.from({ length: 6 }, () => readerAt(address)));
    // A second reader of the address has counted; six more download while it is being deleted: one of them counts.
    const leaving = await readerAt(address);
    await download(leaving, bookId, address);
    await Promise.all([deleteAccount(leaving), ...newcomers.map((reader) => download(reader, bookId, address))]);

    expect(countedIn(await logOf(bookId))).toHaveLength(3);
    expect((await bookRow(bookId)).downloadCount).toBe(3);
  });

  it("shows the farm to the admin, the address named only by a label of its hash", async () => {
    const { bookId } = await newBook();
    const admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL });
    await testApp.proveEmail(TEST_ADMIN_EMAIL);
    const address = "192.0.2.62";
    await farmRound(bookId, address);
    await farmRound(bookId, address);
    const [hash] = new Set((await logOf(bookId)).map((row) => row.addressHash));

    const response = await admin.agent.get("/api/admin/payment-diagnostics").expect(200);
    const label = hash!.slice(0, ADDRESS_LABEL_LENGTH);
    const farmBursts = (response.body.suspiciousActivity as SuspiciousBurst[]).filter((burst) => burst.addressLabel === label);
    expect(farmBursts.find((burst) => burst.kind === "deleted_accounts")).toMatchObject({ book: null, ipAddress: null, counted: 3 });
    expect(farmBursts.find((burst) => burst.kind === "shared_address")).toMatchObject({ book: null, ipAddress: null });
    expect(farmBursts.find((burst) => burst.kind === "shared_address")!.accounts).toBeGreaterThanOrEqual(6);
    expect(JSON.stringify(response.body)).not.toContain(address);
  });

  it("forgets the hashes once neither the cap nor the admin's look-back reads them", async () => {
    const { bookId } = await newBook();
    await farmRound(bookId, "192.0.2.63", [{}]);
    const sweep = new AddressHashSweep(db());
    try {
      await sweep.sweep(new Date(Date.now() + ADDRESS_HASH_KEPT_MS - MINUTE_MS));
      expect((await logOf(bookId)).map((row) => row.addressHash)).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
      await sweep.sweep(new Date(Date.now() + ADDRESS_HASH_KEPT_MS + MINUTE_MS));
      expect((await logOf(bookId)).map((row) => [row.ipAddress, row.addressHash, row.counted])).toEqual([[null, null, true]]);
    } finally {
      sweep.close();
    }
    expect(ADDRESS_HASH_KEPT_MS).toBe(7 * 24 * HOUR_MS);
  });
});
