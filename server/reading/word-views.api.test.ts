import { readFileSync, utimesSync, writeFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { derivedNamesOf } from "../books/book-files.ts";
import { insertBook } from "../books/books-repository.ts";
import { BOOK_MIME_TYPES } from "../books/file-types.ts";
import { removeOrphanFiles } from "../books/orphan-files.ts";
import { books } from "../db/schema.ts";
import { cageLoad } from "../system/caged-job.ts";
import { HttpError } from "../http/errors.ts";
import { WORD_CONVERTER_VERSION, WordViews } from "./word-views.ts";

/* A Word book's reading view is made once, in a cage (docs/decisions/0051): a hostile file costs the server nothing, a failure is remembered, the view goes with its book. */

type Agent = Awaited<ReturnType<typeof signedInAgent>>;

/** Small caps keep the hostile cases short; the conversions of these tests' books fit in them. */
const SETTINGS = { WORD_VIEW_HEAP_MB: "64", WORD_VIEW_CPU_SECONDS: "20", WORD_VIEW_WAIT_SECONDS: "120" };

let testApp: TestApp;
let author: Agent;
let reader: Agent;
beforeAll(async () => {
  testApp = await createTestApp(SETTINGS);
  author = await signedInAgent(testApp.app);
  reader = await signedInAgent(testApp.app);
});
afterAll(async () => {
  await testApp.wordViewsDone();
  await testApp.close();
});

const db = () => testApp.database.db;
const bookRow = async (id: number) => (await db().select().from(books).where(eq(books.id, id)))[0]!;
const open = (bookId: number) => reader.agent.post(`/api/books/${bookId}/read`).expect(200);
const view = (bookId: number) => reader.agent.get(`/api/books/${bookId}/read/view`);

/**
 * A compound file (the container of a .doc) whose directory's sector chain loops 1 → 2 → 1: word-extractor
 * followed it until V8 aborted, and took the server with it. Written here, byte by byte, so that the one
 * thing wrong with it is the loop.
 */
function loopingSectorChainDoc(): Buffer {
  const SECTOR = 512;
  // The header, then sector 0 (the allocation table), 1 and 2 (the directory's chain).
  const file = Buffer.alloc(SECTOR * 4);
  Buffer.from("D0CF11E0A1B11AE1", "hex").copy(file, 0);
  file.writeUInt16LE(0x3e, 24); // minor version
  file.writeUInt16LE(3, 26); // major version: 512-byte sectors
  file.writeUInt16LE(0xfffe, 28); // little-endian
  file.writeUInt16LE(9, 30); // sector size 2^9
  file.writeUInt16LE(6, 32); // short sector size 2^6
  file.writeInt32LE(1, 44); // one allocation-table sector
  file.writeInt32LE(1, 48); // the directory starts at sector 1
  file.writeInt32LE(4096, 56); // short-stream cutoff
  file.writeInt32LE(-2, 60); // no short allocation table
  file.writeInt32LE(-2, 68); // no master-table sectors beyond the header
  for (let entry = 0; entry < 109; entry += 1) file.writeInt32LE(entry === 0 ? 0 : -1, 76 + entry * 4);
  const table = SECTOR;
  for (let entry = 0; entry < SECTOR / 4; entry += 1) file.writeInt32LE(-1, table + entry * 4);
  file.writeInt32LE(-3, table); // sector 0 holds the table
  file.writeInt32LE(2, table + 4); // 1 → 2
  file.writeInt32LE(1, table + 8); // 2 → 1
  return file;
}

/**
 * A book already stored and in the catalog, as one uploaded before the upload checks of docs/decisions/0050
 * would be: its file put in the store and its row written directly, not through the upload.
 */
async function storedBook(data: Buffer, extension: "doc" | "docx") {
  const temp = testApp.store.temp.newPath();
  writeFileSync(temp, data);
  const filePath = await testApp.store.keep(temp, "books", extension);
  const book = await insertBook(db(), {
    title: `Stored before the checks (${extension})`,
    authorId: author.user.id,
    fileName: `old.${extension}`,
    filePath,
    fileSize: data.length,
    mimeType: BOOK_MIME_TYPES[extension],
  });
  return book;
}

/** A Word book read from its reading view: as before Plume made its EPUB (the EPUB made after the upload is set aside). */
async function uploadedDocx() {
  const response = await sendBookForm(author.agent.post("/api/books"), { coverImage: null, file: { buffer: readFileSync(fixture("book.docx")), name: "book.docx" } }).expect(201);
  const id = response.body.id as number;
  await testApp.coversDone();
  await testApp.database.db.update(books).set({ epubSize: null }).where(eq(books.id, id));
  return id;
}

// Conversions share the machine with whatever else runs: generous time for each.
describe("a Word file that breaks its converter", { timeout: 180_000 }, () => {
  it("answers book_view_unavailable for a DOC whose sector chain loops, while the server keeps answering everyone else", async () => {
    const book = await storedBook(loopingSectorChainDoc(), "doc");
    const forksBefore = cageLoad().started;
    // The opening starts the conversion in the background and answers at once.
    expect((await open(book.id)).body).toMatchObject({ format: "word", pageCount: null });
    const catalogWhileCaged: number[] = [];
    while (cageLoad().running > 0 || cageLoad().started === forksBefore) {
      const started = performance.now();
      await request(testApp.app).get("/api/books?sort=newest").expect(200);
      if (cageLoad().running > 0) catalogWhileCaged.push(performance.now() - started);
    }
    // The catalog answered while the converter ran away (heap exhaustion or the CPU cap, whichever came first).
    expect(catalogWhileCaged.length).toBeGreaterThan(0);
    expect(Math.max(...catalogWhileCaged)).toBeLessThan(5000);
    await testApp.wordViewsDone();

    const refused = await view(book.id).expect(422);
    expect(refused.body).toMatchObject({ code: "book_view_unavailable", message: "This book cannot be shown in the browser; download it instead." });
    expect(await testApp.store.has("views", derivedNamesOf(book.filePath).failure)).toBe(true);
    // Remembered: neither another view nor a position tries it again.
    await view(book.id).expect(422);
    await reader.agent.put(`/api/books/${book.id}/read/position`).send({ page: 1 }).expect(422);
    expect(cageLoad().started).toBe(forksBefore + 1);
    expect((await bookRow(book.id)).pageCount).toBeNull();
  });

  it("tries again a book an older converter could not show", async () => {
    const book = await storedBook(readFileSync(fixture("book.docx")), "docx");
    const record = { converterVersion: WORD_CONVERTER_VERSION - 1, failure: "crashed", reason: "an older converter", at: new Date().toISOString() };
    writeFileSync(testApp.store.pathOf("views", derivedNamesOf(book.filePath).failure), JSON.stringify(record));
    await open(book.id);
    const { body } = await view(book.id).expect(200);
    expect(body.pages[0]).toContain("<h1>El jardín de las mañanas</h1>");
    expect(await testApp.store.has("views", derivedNamesOf(book.filePath).failure)).toBe(false);
  });
});

describe("a Word book's reading view", { timeout: 180_000 }, () => {
  it("is made once, at the first opening: sent gzipped as stored, its pages put in the book's row, and never converted again", async () => {
    const bookId = await uploadedDocx();
    const forks = cageLoad().started;
    // The opening starts the conversion; the view's call waits for it (within WORD_VIEW_WAIT_SECONDS).
    expect((await open(bookId)).body).toMatchObject({ format: "word", pageCount: null });
    const gzipped = await view(bookId).expect(200);
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.headers["cache-control"]).toContain("no-store");
    expect(gzipped.body.pages[0]).toContain("<h2>Capítulo 1</h2>");
    expect((await bookRow(bookId)).pageCount).toBe(1);
    expect((await open(bookId)).body).toMatchObject({ pageCount: 1 });
    // A client that takes no gzip gets the same JSON unpacked.
    const plain = await view(bookId).set("Accept-Encoding", "identity").expect(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toEqual(gzipped.body);
    await reader.agent.put(`/api/books/${bookId}/read/position`).send({ page: 1 }).expect(204);
    await reader.agent.put(`/api/books/${bookId}/read/position`).send({ page: 2 }).expect(400);
    expect(cageLoad().started).toBe(forks + 1);
  });

  it("is 'being prepared' (503 with Retry-After) to a reader who asks before it is made, then is read", async () => {
    const impatient = testApp.anotherProcess({ ...SETTINGS, WORD_VIEW_WAIT_SECONDS: "0" });
    try {
      const book = await storedBook(readFileSync(fixture("book.doc")), "doc");
      await reader.agent.post(`/api/books/${book.id}/read`).expect(200);
      // The same reader, signed in on the other process (sessions live in the shared database).
      const there = request.agent(impatient.app);
      await there.post("/api/auth/login").send({ username: reader.account.username, password: reader.account.password }).expect(200);
      const asked = () => there.get(`/api/books/${book.id}/read/view`);
      const early = await asked().expect(503);
      expect(early.body).toMatchObject({ code: "book_view_preparing" });
      expect(Number(early.headers["retry-after"])).toBeGreaterThan(0);
      await Promise.all([impatient.wordViews.idle(), testApp.wordViewsDone()]);
      expect((await asked().expect(200)).body.pages[0]).toMatch(/^<p>El jardín de las mañanas<\/p>/);
    } finally {
      impatient.close();
    }
  });

  it("is refused with server_busy (503, Retry-After) past the bound of books waiting for a conversion", async () => {
    const views = new WordViews({ db: db(), store: testApp.store, settings: { limits: { timeoutMs: 120_000, heapMegabytes: 256 }, waitMs: 120_000 } }, 0);
    const first = await storedBook(readFileSync(fixture("book.docx")), "docx");
    const second = await storedBook(readFileSync(fixture("book.docx")), "docx");
    views.prepare(first);
    await expect.poll(() => cageLoad().running + cageLoad().waiting).toBeGreaterThan(0);
    const busy = await views.pageCountOf(second).catch((error: unknown) => error);
    expect(busy).toBeInstanceOf(HttpError);
    expect(busy).toMatchObject({ status: 503, code: "server_busy", retryAfterSeconds: 60 });
    // The book converting is not refused: its readers wait for the same conversion.
    expect(await views.pageCountOf(first)).toBe(1);
    await views.idle();
  });

  it("goes with its book, and the start-up sweep keeps it while the book lives", async () => {
    const kept = await uploadedDocx();
    const deleted = await uploadedDocx();
    for (const bookId of [kept, deleted]) {
      await open(bookId);
      await view(bookId).expect(200);
    }
    const files = async (id: number) => derivedNamesOf((await bookRow(id)).filePath);
    const keptView = (await files(kept)).view;
    const deletedView = (await files(deleted)).view;
    expect(await testApp.store.has("views", deletedView)).toBe(true);
    await author.agent.delete(`/api/books/${deleted}`).expect(204);
    expect(await testApp.store.has("views", deletedView)).toBe(false);

    // A view left by a crash after its book's delete, and a live book's, both older than the sweep's cutoff.
    const left = testApp.store.pathOf("views", deletedView);
    writeFileSync(left, "left behind");
    const longAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    for (const name of [deletedView, keptView]) utimesSync(testApp.store.pathOf("views", name), longAgo, longAgo);
    await removeOrphanFiles(db(), testApp.store, new Date(Date.now() - 60 * 60 * 1000));
    expect(await testApp.store.has("views", deletedView)).toBe(false);
    expect(await testApp.store.has("views", keptView)).toBe(true);
    await view(kept).expect(200);
  });
});
