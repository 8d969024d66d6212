import type { SuspiciousBurst } from "../../shared/admin.ts";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloads, users } from "../db/schema.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, newAccount, signedInAgent } from "../../test/helpers/test-app.ts";

type Agent = Awaited<ReturnType<typeof signedInAgent>>;
const DIAGNOSTICS = "/api/admin/payment-diagnostics";
const MINUTE_MS = 60_000;

let testApp: TestApp;
let admin: Agent;
let author: Agent;
beforeAll(async () => {
  testApp = await createTestApp({
    TRUST_PROXY: "loopback",
    // Farms register many accounts from the test's one address; the registration limit has tests of its own.
    RATE_LIMIT_REGISTER_PER_IP: "1000",
  });
  admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL });
  await testApp.proveEmail(TEST_ADMIN_EMAIL);
  author = await signedInAgent(testApp.app);
});
afterAll(() => testApp.close());

async function publish(title: string) {
  return (await sendBookForm(author.agent.post("/api/books"), { title, coverImage: null }).expect(201)).body.id as number;
}

/** Accounts written straight to the database: the detection reads the log, not how it was made. */
async function accounts(howMany: number): Promise<string[]> {
  const rows = await testApp.database.db
    .insert(users)
    .values(Array.from({ length: howMany }, () => ({ ...newAccount(), password: "not-a-real-hash" })))
    .returning({ id: users.id });
  return rows.map((row) => row.id);
}

interface LogEntry {
  bookId: number;
  userId: string;
  ipAddress: string;
  minutesAgo: number;
  counted?: boolean;
}
async function writeLog(entries: LogEntry[]) {
  // One reading of the clock: entries written minutes apart stay exactly that far apart (a tick between two readings made 54 minutes 54.00002).
  const now = Date.now();
  await testApp.database.db
    .insert(downloads)
    .values(entries.map(({ minutesAgo: minutes, counted = false, ...entry }) => ({ ...entry, counted, downloadedAt: new Date(now - minutes * MINUTE_MS) })));
}

/** The bursts the admin sees that involve these books or addresses (each test has its own). */
async function burstsAbout({ books = [], addresses = [] }: { books?: number[]; addresses?: string[] }): Promise<SuspiciousBurst[]> {
  const response = await admin.agent.get(DIAGNOSTICS).expect(200);
  return (response.body.suspiciousActivity as SuspiciousBurst[]).filter(
    (burst) => books.includes(burst.book?.id ?? -1) || addresses.includes(burst.ipAddress ?? ""),
  );
}

/** From the burst's first download to its last. */
const spanMinutes = ({ windowStart, windowEnd }: SuspiciousBurst) => (Date.parse(windowEnd) - Date.parse(windowStart)) / MINUTE_MS;

describe("suspicious bursts in the admin's payment diagnostics", () => {
  it("finds 10 downloads of one book from one address within an hour, not 9, and not older than 7 days", async () => {
    const [atThreshold, below, old] = [await publish("Diez"), await publish("Nueve"), await publish("Antiguo")];
    const [reader, other] = await accounts(2);
    const times = (count: number, firstMinutesAgo: number) => Array.from({ length: count }, (_, index) => firstMinutesAgo - index * 6);
    await writeLog([
      // 10 within 54 minutes, the first one counted: the reader's, then the same reader again and again.
      ...times(10, 58).map((minutes, index) => ({ bookId: atThreshold, userId: index % 2 ? reader! : other!, ipAddress: "192.0.2.10", minutesAgo: minutes, counted: index < 2 })),
      ...times(9, 58).map((minutes) => ({ bookId: below, userId: reader!, ipAddress: "192.0.2.9", minutesAgo: minutes })),
      ...times(10, 8 * 24 * 60).map((minutes) => ({ bookId: old, userId: reader!, ipAddress: "192.0.2.8", minutesAgo: minutes })),
    ]);

    const bursts = await burstsAbout({ books: [atThreshold, below, old] });
    expect(bursts).toEqual([
      {
        kind: "address_book_burst",
        book: { id: atThreshold, title: "Diez" },
        ipAddress: "192.0.2.10",
        addressLabel: null,
        downloads: 10,
        counted: 2,
        accounts: 2,
        windowStart: expect.any(String),
        windowEnd: expect.any(String),
      },
    ]);
    expect(spanMinutes(bursts[0]!)).toBe(54);
  });

  it("finds an address used by 5 accounts within a day, across books, and not by 4", async () => {
    const [first, second] = [await publish("Uno"), await publish("Dos")];
    const five = await accounts(5);
    const four = await accounts(4);
    await writeLog([
      ...five.map((userId, index) => ({ bookId: index % 2 ? first : second, userId, ipAddress: "198.51.100.5", minutesAgo: 23 * 60 - index * 60 })),
      ...four.map((userId, index) => ({ bookId: first, userId, ipAddress: "198.51.100.4", minutesAgo: 60 - index })),
    ]);

    const bursts = await burstsAbout({ addresses: ["198.51.100.5", "198.51.100.4"] });
    expect(bursts).toEqual([
      { kind: "shared_address", book: null, ipAddress: "198.51.100.5", addressLabel: null, downloads: 5, counted: 0, accounts: 5, windowStart: expect.any(String), windowEnd: expect.any(String) },
    ]);
    expect(spanMinutes(bursts[0]!)).toBe(4 * 60);
  });

  it("finds 20 counted downloads of one book within an hour, not 19", async () => {
    const [spiking, steady] = [await publish("Veinte"), await publish("Diecinueve")];
    const readers = await accounts(20);
    // Three readers per address, as the counting rule allows: seven addresses.
    const counted = (bookId: number, howMany: number) =>
      readers.slice(0, howMany).map((userId, index) => ({ bookId, userId, ipAddress: `203.0.113.${Math.floor(index / 3)}`, minutesAgo: 50 - index, counted: true }));
    await writeLog([...counted(spiking, 20), ...counted(steady, 19)]);

    expect(await burstsAbout({ books: [spiking, steady] })).toEqual([
      expect.objectContaining({ kind: "book_spike", book: { id: spiking, title: "Veinte" }, ipAddress: null, downloads: 20, counted: 20, accounts: 20 }),
    ]);
  });

  it("shows a farm run through the download API: twelve accounts behind one address", async () => {
    const bookId = await publish("Granja");
    const farm = await Promise.all(Array.from({ length: 12 }, () => signedInAgent(testApp.app)));
    for (const account of farm) await account.agent.post(`/api/books/${bookId}/download`).set("X-Forwarded-For", "192.0.2.200").expect(200);

    const bursts = await burstsAbout({ addresses: ["192.0.2.200"] });
    expect(bursts.map(({ kind, book, downloads, counted, accounts }) => ({ kind, book, downloads, counted, accounts })).sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: "address_book_burst", book: { id: bookId, title: "Granja" }, downloads: 12, counted: 3, accounts: 12 },
      { kind: "shared_address", book: null, downloads: 12, counted: 3, accounts: 12 },
    ]);
  });
});

describe("the bursts are the admin's only", () => {
  it("answers 401 to anonymous callers and 403 to readers, naming no address, and no public call names one", async () => {
    const bookId = await publish("Privado");
    const reader = await signedInAgent(testApp.app);
    for (let index = 0; index < 10; index += 1) {
      await reader.agent.post(`/api/books/${bookId}/download`).set("X-Forwarded-For", "192.0.2.77").expect(200);
    }
    expect(await burstsAbout({ books: [bookId] })).toHaveLength(1);

    const anonymous = await request(testApp.app).get(DIAGNOSTICS).expect(401);
    const forbidden = await reader.agent.get(DIAGNOSTICS).expect(403);
    expect(forbidden.body.code).toBe("forbidden");
    const publicAnswers = await Promise.all([
      request(testApp.app).get(`/api/books/${bookId}`).expect(200),
      request(testApp.app).get("/api/books").expect(200),
      request(testApp.app).get(`/api/authors/${author.user.id}/stats`).expect(200),
      request(testApp.app).get("/api/stats/public").expect(200),
      reader.agent.get(`/api/authors/${author.user.id}/books`).expect(200),
    ]);
    for (const answer of [anonymous, forbidden, ...publicAnswers]) expect(answer.text).not.toContain("192.0.2.77");
  });
});
