import { eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { books, downloads, users } from "../db/schema.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";

let testApp: TestApp;
beforeAll(async () => {
  // Behind a trusted proxy each reader can come from an address of its own (the cap is tested below).
  testApp = await createTestApp({ TRUST_PROXY: "loopback" });
});
afterAll(() => testApp.close());

type Agent = Awaited<ReturnType<typeof signedInAgent>>;
const readers = (howMany: number) => Promise.all(Array.from({ length: howMany }, () => signedInAgent(testApp.app)));
const download = (reader: Agent, bookId: number, ip: string) =>
  reader.agent.post(`/api/books/${bookId}/download`).set("X-Forwarded-For", ip).expect(200);

async function newBook() {
  const author = await signedInAgent(testApp.app);
  const response = await sendBookForm(author.agent.post("/api/books"), { coverImage: null }).expect(201);
  return { author, bookId: response.body.id as number };
}

const bookRow = async (id: number) => (await testApp.database.db.select().from(books).where(eq(books.id, id)))[0]!;
const countedRows = async (id: number) =>
  (await testApp.database.db.select().from(downloads).where(eq(downloads.bookId, id))).filter((row) => row.counted).length;

describe("counted downloads (docs/product.md#counting-downloads)", () => {
  it("counts a reader once, never the author, and logs every download", async () => {
    const { author, bookId } = await newBook();
    const [reader] = await readers(1);
    await download(author, bookId, "10.0.0.1");
    await download(reader!, bookId, "10.0.0.2");
    await download(reader!, bookId, "10.0.0.2");
    await download(reader!, bookId, "10.0.0.3");
    const book = await bookRow(bookId);
    expect(book.downloadCount).toBe(1);
    expect(book.firstDownloadDate).toBeInstanceOf(Date);
    const log = await testApp.database.db.select().from(downloads).where(eq(downloads.bookId, bookId));
    expect(log).toHaveLength(4);
    expect(log.filter((row) => row.counted).map((row) => row.userId)).toEqual([reader!.user.id]);
    expect(log.map((row) => row.ipAddress).sort()).toEqual(["10.0.0.1", "10.0.0.2", "10.0.0.2", "10.0.0.3"]);
    const [authorRow] = await testApp.database.db.select().from(users).where(eq(users.id, author.user.id));
    expect(authorRow!.totalDownloads).toBe(1);
  });

  it("counts at most COUNTED_PER_IP_PER_BOOK_PER_DAY (3) readers from one address per book", async () => {
    const { bookId } = await newBook();
    const sameAddress = await readers(5);
    for (const reader of sameAddress) await download(reader, bookId, "192.0.2.7");
    expect((await bookRow(bookId)).downloadCount).toBe(3);
    const elsewhere = await readers(1);
    await download(elsewhere[0]!, bookId, "192.0.2.8");
    expect((await bookRow(bookId)).downloadCount).toBe(4);
  });

  it("counts exactly 40 when 40 readers download at the same instant, and 0 for their repeats", async () => {
    const { author, bookId } = await newBook();
    const crowd = await readers(40);
    await Promise.all(crowd.map((reader, index) => download(reader, bookId, `198.51.100.${index + 1}`)));
    expect((await bookRow(bookId)).downloadCount).toBe(40);
    await Promise.all(crowd.map((reader, index) => download(reader, bookId, `198.51.100.${index + 1}`)));
    expect((await bookRow(bookId)).downloadCount).toBe(40);
    expect(await countedRows(bookId)).toBe(40);
    const stats = await request(testApp.app).get(`/api/authors/${author.user.id}/stats`).expect(200);
    expect(stats.body.totalDownloads).toBe(40);
    expect(stats.body.monthlyDownloads.at(-1).downloads).toBe(40);
    const publicStats = await request(testApp.app).get("/api/stats/public").expect(200);
    expect(publicStats.body.totalDownloads).toBeGreaterThanOrEqual(40);
  });

  it("ignores a spoofed X-Forwarded-For when no proxy is trusted", async () => {
    const direct = await createTestApp();
    try {
      const author = await signedInAgent(direct.app);
      const { body } = await sendBookForm(author.agent.post("/api/books"), { coverImage: null }).expect(201);
      for (let i = 0; i < 5; i += 1) {
        const reader = await signedInAgent(direct.app);
        await reader.agent.post(`/api/books/${body.id}/download`).set("X-Forwarded-For", `203.0.113.${i}`).expect(200);
      }
      const [row] = await direct.database.db.select().from(books).where(eq(books.id, body.id));
      expect(row!.downloadCount).toBe(3);
    } finally {
      await direct.close();
    }
  });
});
