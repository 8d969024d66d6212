import { readFileSync } from "node:fs";
import { and, eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EPUB_MIME_TYPE, derivedNamesOf } from "../books/book-files.ts";
import { books, downloads, readingPositions } from "../db/schema.ts";
import { fixture, multiPagePdf, sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { HYPERLINK, docxParts, zipPackage } from "../../test/helpers/word-packages.ts";

/* Reading in the browser (docs/product.md#reading): counted like a download, content only after an opening, the reader's own page. */

type Agent = Awaited<ReturnType<typeof signedInAgent>>;

let testApp: TestApp;
beforeAll(async () => {
  // Behind a trusted proxy each reader can come from an address of its own (the per-address cap).
  // A Word book's view is waited for as long as its conversion takes on a busy test machine.
  testApp = await createTestApp({ TRUST_PROXY: "loopback", WORD_VIEW_WAIT_SECONDS: "120" });
});
afterAll(async () => {
  await testApp.wordViewsDone();
  await testApp.close();
});

const db = () => testApp.database.db;
let addressCounter = 0;
const nextAddress = () => `10.9.${Math.floor(++addressCounter / 250)}.${(addressCounter % 250) + 1}`;

async function newBook(file?: { buffer: Buffer; name: string }) {
  const author = await signedInAgent(testApp.app);
  const response = await sendBookForm(author.agent.post("/api/books"), { coverImage: null, ...(file ? { file } : {}) }).expect(201);
  return { author, bookId: response.body.id as number };
}

const open = (reader: Agent, bookId: number, ip = nextAddress()) => reader.agent.post(`/api/books/${bookId}/read`).set("X-Forwarded-For", ip);
const bookRow = async (id: number) => (await db().select().from(books).where(eq(books.id, id)))[0]!;
const logOf = (bookId: number) => db().select().from(downloads).where(eq(downloads.bookId, bookId));
const savePosition = (reader: Agent, bookId: number, body: unknown) => reader.agent.put(`/api/books/${bookId}/read/position`).send(body as object);

describe("opening a book counts like a download (docs/product.md#counting-downloads)", () => {
  it("counts a reader's opening once, logs it as 'read', and a later download of theirs does not count again", async () => {
    const { bookId } = await newBook();
    const reader = await signedInAgent(testApp.app);
    const first = await open(reader, bookId).expect(200);
    expect(first.body).toMatchObject({ id: bookId, title: "Mañana en París", format: "pdf", position: null });
    expect(first.headers["cache-control"]).toContain("no-store");
    await open(reader, bookId).expect(200);
    await reader.agent.post(`/api/books/${bookId}/download`).set("X-Forwarded-For", nextAddress()).expect(200);
    expect((await bookRow(bookId)).downloadCount).toBe(1);
    const log = await logOf(bookId);
    // Coming back to read is not a new taking: one row for the opening, one for the download.
    expect(log.map(({ channel, counted }) => ({ channel, counted }))).toEqual([
      { channel: "read", counted: true },
      { channel: "download", counted: false },
    ]);
  });

  it("does not count a reader who downloaded first and then reads", async () => {
    const { bookId } = await newBook();
    const reader = await signedInAgent(testApp.app);
    await reader.agent.post(`/api/books/${bookId}/download`).set("X-Forwarded-For", nextAddress()).expect(200);
    await open(reader, bookId).expect(200);
    expect((await bookRow(bookId)).downloadCount).toBe(1);
    expect((await logOf(bookId)).map(({ channel }) => channel)).toEqual(["download"]);
  });

  it("never counts the author, and keeps the per-address cap across downloads and openings", async () => {
    const { author, bookId } = await newBook();
    await open(author, bookId, "192.0.2.50").expect(200);
    expect((await bookRow(bookId)).downloadCount).toBe(0);
    const crowd = await Promise.all(Array.from({ length: 5 }, () => signedInAgent(testApp.app)));
    await crowd[0]!.agent.post(`/api/books/${bookId}/download`).set("X-Forwarded-For", "192.0.2.51").expect(200);
    for (const reader of crowd.slice(1)) await open(reader, bookId, "192.0.2.51").expect(200);
    expect((await bookRow(bookId)).downloadCount).toBe(3);
    const counted = (await logOf(bookId)).filter((row) => row.counted);
    expect(counted.map(({ channel }) => channel).sort()).toEqual(["download", "read", "read"]);
  });

  it("sends visitors to sign in (401) on every reading call", async () => {
    const { bookId } = await newBook();
    const anonymous = request(testApp.app);
    for (const response of [
      await anonymous.post(`/api/books/${bookId}/read`),
      await anonymous.get(`/api/books/${bookId}/read/file`),
      await anonymous.get(`/api/books/${bookId}/read/view`),
      await anonymous.put(`/api/books/${bookId}/read/position`).send({ page: 1 }),
    ]) {
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ code: "unauthorized" });
    }
    expect(await logOf(bookId)).toEqual([]);
  });

  it("answers 404 for an unpublished, deleted or unknown book, and counts nothing; its author may still read it", async () => {
    const { author, bookId } = await newBook();
    const reader = await signedInAgent(testApp.app);
    await db().update(books).set({ isPublished: false }).where(eq(books.id, bookId));
    for (const response of [
      await open(reader, bookId),
      await reader.agent.get(`/api/books/${bookId}/read/file`),
      await savePosition(reader, bookId, { page: 1 }),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: "not_found", message: "This book does not exist." });
    }
    await open(author, bookId).expect(200);
    expect((await logOf(bookId)).map(({ userId, counted }) => ({ userId, counted }))).toEqual([{ userId: author.user.id, counted: false }]);
    await open(reader, 999_999_999).expect(404);
    const deleted = await newBook();
    await deleted.author.agent.delete(`/api/books/${deleted.bookId}`).expect(204);
    await open(reader, deleted.bookId).expect(404);
  });

  it("refuses ids that are not whole positive numbers with a 400", async () => {
    const reader = await signedInAgent(testApp.app);
    for (const id of ["abc", "0", "-1", "1.5", "99999999999"]) {
      const response = await reader.agent.post(`/api/books/${id}/read`).expect(400);
      expect(response.body).toMatchObject({ code: "validation_failed", fields: { id: "validation.bookIdInvalid" } });
    }
  });
});

describe("a PDF's bytes for the reader", () => {
  let bookId: number;
  let bytes: Buffer;
  let reader: Agent;
  beforeAll(async () => {
    bytes = readFileSync(fixture("book.pdf"));
    ({ bookId } = await newBook());
    reader = await signedInAgent(testApp.app);
  });
  const file = (agent: Agent, range?: string) => {
    const test = agent.agent.get(`/api/books/${bookId}/read/file`).buffer(true).responseType("blob");
    return range ? test.set("Range", range) : test;
  };

  it("are refused to a reader who has not opened (or downloaded) the book: no reading without being counted", async () => {
    const response = await reader.agent.get(`/api/books/${bookId}/read/file`).expect(403);
    expect(response.body).toMatchObject({ code: "forbidden", message: "Open this book in the reader first." });
    expect(await logOf(bookId)).toEqual([]);
  });

  it("come whole after the opening, and to a reader who downloaded it", async () => {
    await open(reader, bookId).expect(200);
    const whole = await file(reader).expect(200);
    expect(whole.headers["content-type"]).toBe("application/pdf");
    expect(whole.headers["accept-ranges"]).toBe("bytes");
    expect(whole.headers["cache-control"]).toContain("no-transform");
    expect(Buffer.compare(whole.body as Buffer, bytes)).toBe(0);
    const downloader = await signedInAgent(testApp.app);
    await downloader.agent.post(`/api/books/${bookId}/download`).set("X-Forwarded-For", nextAddress()).expect(200);
    await file(downloader).expect(200);
  });

  it("answer a Range with 206 and just those bytes, and an unsatisfiable one with 416", async () => {
    const head = await file(reader, "bytes=0-99").expect(206);
    expect(head.headers["content-range"]).toBe(`bytes 0-99/${bytes.length}`);
    expect(head.headers["content-length"]).toBe("100");
    expect(Buffer.compare(head.body as Buffer, bytes.subarray(0, 100))).toBe(0);
    const middle = await file(reader, "bytes=1000-1999").expect(206);
    expect(Buffer.compare(middle.body as Buffer, bytes.subarray(1000, 2000))).toBe(0);
    const tail = await file(reader, "bytes=-50").expect(206);
    expect(tail.headers["content-range"]).toBe(`bytes ${bytes.length - 50}-${bytes.length - 1}/${bytes.length}`);
    expect(Buffer.compare(tail.body as Buffer, bytes.subarray(-50))).toBe(0);
    const past = await reader.agent.get(`/api/books/${bookId}/read/file`).set("Range", `bytes=${bytes.length + 10}-`).expect(416);
    expect(past.headers["content-range"]).toBe(`bytes */${bytes.length}`);
    expect(past.body).toMatchObject({ code: "range_not_satisfiable" });
    // Several ranges, or a header that cannot be read, get the whole file, as HTTP allows.
    for (const range of ["bytes=0-9,500-509", "pages=1-2", "bytes=abc"]) {
      const whole = await file(reader, range).expect(200);
      expect((whole.body as Buffer).length).toBe(bytes.length);
    }
  });

  it("are a PDF's only: a Word book has its reading view instead (409)", async () => {
    const word = await newBook({ buffer: readFileSync(fixture("book.docx")), name: "book.docx" });
    await open(reader, word.bookId).expect(200);
    const response = await reader.agent.get(`/api/books/${word.bookId}/read/file`).expect(409);
    expect(response.body).toMatchObject({ code: "not_a_pdf" });
    await reader.agent.get(`/api/books/${bookId}/read/view`).expect(409);
  });
});

describe("an EPUB's bytes for the reader", () => {
  const epubBytes = readFileSync(fixture("book.epub"));
  let reader: Agent;
  beforeAll(async () => {
    reader = await signedInAgent(testApp.app);
  });
  const epubOf = (agent: Agent, bookId: number) => agent.agent.get(`/api/books/${bookId}/read/epub`).buffer(true).responseType("blob");

  /** A Word book whose EPUB Plume made (as the conversion leaves it: the file in "views", its size on the row). */
  async function wordBookWithEpub() {
    const made = await newBook({ buffer: readFileSync(fixture("book.docx")), name: "book.docx" });
    const { filePath } = await bookRow(made.bookId);
    await testApp.store.write("views", derivedNamesOf(filePath).epub, epubBytes);
    await db().update(books).set({ epubSize: epubBytes.length }).where(eq(books.id, made.bookId));
    return made;
  }

  it("of a Word book come from the EPUB Plume made, only after an opening, and the book opens as an EPUB", async () => {
    const { bookId } = await wordBookWithEpub();
    const refused = await reader.agent.get(`/api/books/${bookId}/read/epub`).expect(403);
    expect(refused.body).toMatchObject({ code: "forbidden", message: "Open this book in the reader first." });
    const anonymous = await request(testApp.app).get(`/api/books/${bookId}/read/epub`).expect(401);
    expect(anonymous.body).toMatchObject({ code: "unauthorized" });
    expect(await logOf(bookId)).toEqual([]);

    const opened = await open(reader, bookId).expect(200);
    // Its reading view's count is not the EPUB's: the reader counts the spine itself.
    expect(opened.body).toMatchObject({ format: "epub", pageCount: null, position: null });
    const whole = await epubOf(reader, bookId).expect(200);
    expect(whole.headers["content-type"]).toBe(EPUB_MIME_TYPE);
    expect(whole.headers["cache-control"]).toContain("no-store");
    expect(Buffer.compare(whole.body as Buffer, epubBytes)).toBe(0);
    // Read as an EPUB, it has no PDF to ask for; its reading view stays, for a reader who opened it before its EPUB was made.
    expect((await reader.agent.get(`/api/books/${bookId}/read/view`).expect(200)).body.pages[0]).toContain("El jardín de las mañanas");
    expect((await reader.agent.get(`/api/books/${bookId}/read/file`).expect(409)).body).toMatchObject({ code: "not_a_pdf" });
  });

  it("of a book uploaded as an EPUB are its own file", async () => {
    const { author, bookId } = await newBook();
    // EPUB uploads land separately: the row and the stored file are what one leaves.
    const filePath = `${crypto.randomUUID()}.epub`;
    await testApp.store.write("books", filePath, epubBytes);
    await db().update(books).set({ filePath, mimeType: EPUB_MIME_TYPE, fileSize: epubBytes.length, pageCount: null }).where(eq(books.id, bookId));
    await open(author, bookId).expect(200);
    expect((await open(reader, bookId).expect(200)).body).toMatchObject({ format: "epub" });
    const whole = await epubOf(reader, bookId).expect(200);
    expect(Buffer.compare(whole.body as Buffer, epubBytes)).toBe(0);
  });

  it("are an EPUB's only (409 for a PDF), and 404 for an unknown or unpublished book", async () => {
    const pdf = await newBook();
    await open(reader, pdf.bookId).expect(200);
    expect((await reader.agent.get(`/api/books/${pdf.bookId}/read/epub`).expect(409)).body).toMatchObject({ code: "not_an_epub" });
    expect((await reader.agent.get("/api/books/999999999/read/epub").expect(404)).body).toMatchObject({ code: "not_found" });
    const { bookId } = await wordBookWithEpub();
    await open(reader, bookId).expect(200);
    await db().update(books).set({ isPublished: false }).where(eq(books.id, bookId));
    await reader.agent.get(`/api/books/${bookId}/read/epub`).expect(404);
    expect((await reader.agent.get("/api/books/abc/read/epub").expect(400)).body).toMatchObject({ code: "validation_failed" });
  });

  it("answer 404 when the made EPUB's file is gone", async () => {
    const { bookId } = await wordBookWithEpub();
    await open(reader, bookId).expect(200);
    await testApp.store.remove("views", derivedNamesOf((await bookRow(bookId)).filePath).epub);
    expect((await reader.agent.get(`/api/books/${bookId}/read/epub`).expect(404)).body).toMatchObject({ code: "not_found", message: "The file of this book is missing." });
  });

  it("keep a position as the spine item, how far through and the CFI; a spine item past the reader's bound is refused", async () => {
    const { bookId } = await wordBookWithEpub();
    await open(reader, bookId).expect(200);
    const position = { page: 250, percentage: 0.34, locator: "epubcfi(/6/4!/4/2/1:0)", format: "epub" };
    // The server does not count an EPUB's spine items (it would unzip it on the request's path).
    await savePosition(reader, bookId, position).expect(204);
    expect((await open(reader, bookId).expect(200)).body.position).toEqual({ ...position, device: null });
    await savePosition(reader, bookId, { ...position, page: 100_001 }).expect(400);
    await savePosition(reader, bookId, { ...position, percentage: 1.5 }).expect(400);
    await savePosition(reader, bookId, { ...position, locator: "x".repeat(1025) }).expect(400);
  });
});

describe("the reader's position (docs/product.md#reading)", () => {
  let bookId: number;
  let reader: Agent;
  beforeAll(async () => {
    ({ bookId } = await newBook({ buffer: await multiPagePdf(6), name: "six-pages.pdf" }));
    // Whatever the upload found, the book is known to have six pages here.
    await db().update(books).set({ pageCount: 6 }).where(eq(books.id, bookId));
    reader = await signedInAgent(testApp.app);
  });

  it("is saved and given back at the next opening", async () => {
    await open(reader, bookId).expect(200);
    await savePosition(reader, bookId, { page: 3 }).expect(204);
    expect((await open(reader, bookId).expect(200)).body).toMatchObject({ format: "pdf", pageCount: 6, position: { page: 3, percentage: null, locator: null, format: null, device: null } });
    await savePosition(reader, bookId, { page: 6 }).expect(204);
    expect((await open(reader, bookId).expect(200)).body).toMatchObject({ position: { page: 6 } });
  });

  it("refuses a page that is not a whole number from 1, or past the book's last page, with a 400", async () => {
    for (const page of [0, -1, 1.5, "3", null, 7, 1e6, 1e12, Number.MAX_SAFE_INTEGER]) {
      const response = await savePosition(reader, bookId, { page }).expect(400);
      expect(response.body).toMatchObject({ code: "validation_failed", fields: { page: expect.stringMatching(/^reader\.page/) } });
    }
    await savePosition(reader, bookId, {}).expect(400);
    await reader.agent.put(`/api/books/${bookId}/read/position`).set("Content-Type", "application/json").send("{page: 2").expect(400);
    expect((await open(reader, bookId).expect(200)).body.position.page).toBeGreaterThanOrEqual(1);
  });

  it("is each reader's own: another reader never sees or changes it", async () => {
    const other = await signedInAgent(testApp.app);
    await savePosition(other, bookId, { page: 2 }).expect(403);
    expect((await open(other, bookId).expect(200)).body.position).toBeNull();
    await savePosition(reader, bookId, { page: 4 }).expect(204);
    await savePosition(other, bookId, { page: 5 }).expect(204);
    expect((await open(reader, bookId).expect(200)).body.position.page).toBe(4);
    expect((await open(other, bookId).expect(200)).body.position.page).toBe(5);
    const rows = await db().select().from(readingPositions).where(eq(readingPositions.bookId, bookId));
    expect(rows.map(({ userId, page }) => ({ userId, page })).sort((a, b) => a.page - b.page)).toEqual([
      { userId: reader.user.id, page: 4 },
      { userId: other.user.id, page: 5 },
    ]);
  });

  it("of a PDF whose page count is not known yet is held to the reader's bound", async () => {
    const { bookId: unknownCount } = await newBook();
    await db().update(books).set({ pageCount: null }).where(eq(books.id, unknownCount));
    await open(reader, unknownCount).expect(200);
    await savePosition(reader, unknownCount, { page: 40 }).expect(204);
    await savePosition(reader, unknownCount, { page: 100_001 }).expect(400);
  });
});

/** A DOCX whose text and links try to become script in the reading view. */
function hostileDocx(): Buffer {
  const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  const r = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  const paragraph = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
  const document =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document ${w} ${r}><w:body>` +
    paragraph("&lt;script&gt;alert(1)&lt;/script&gt;") +
    paragraph('&lt;img src=x onerror="alert(2)"&gt;') +
    '<w:p><w:hyperlink r:id="rIdEvil"><w:r><w:t>click me</w:t></w:r></w:hyperlink></w:p>' +
    '<w:p><w:hyperlink r:id="rIdData"><w:r><w:t>or me</w:t></w:r></w:hyperlink></w:p>' +
    '<w:p><w:hyperlink r:id="rIdGood"><w:r><w:t>a real link</w:t></w:r></w:hyperlink></w:p>' +
    paragraph("The end.") +
    "</w:body></w:document>";
  const relationships =
    `<Relationship Id="rIdEvil" Type="${HYPERLINK}" Target="javascript:alert(3)" TargetMode="External"/>` +
    `<Relationship Id="rIdData" Type="${HYPERLINK}" Target="data:text/html,&lt;script&gt;alert(4)&lt;/script&gt;" TargetMode="External"/>` +
    `<Relationship Id="rIdGood" Type="${HYPERLINK}" Target="https://example.org/book" TargetMode="External"/>`;
  return zipPackage(docxParts({ relationships }).map((part) => (part.name === "word/document.xml" ? { ...part, data: document } : part)));
}

// Each view is made in a cage, which shares the machine with whatever else runs: generous time.
describe("the reading view of a Word book", { timeout: 180_000 }, () => {
  let reader: Agent;
  beforeAll(async () => {
    reader = await signedInAgent(testApp.app);
  });
  const view = (bookId: number) => reader.agent.get(`/api/books/${bookId}/read/view`);

  it("turns a DOCX into pages of HTML, only after an opening", async () => {
    const { bookId } = await newBook({ buffer: readFileSync(fixture("book.docx")), name: "book.docx" });
    await view(bookId).expect(403);
    expect((await open(reader, bookId).expect(200)).body).toMatchObject({ format: "word", pageCount: null, position: null });
    const { body } = await view(bookId).expect(200);
    expect(body.pages).toHaveLength(1);
    expect(body.pages[0]).toContain("<h1>El jardín de las mañanas</h1>");
    expect(body.pages[0]).toContain("<h2>Capítulo 1</h2>");
    // Once made (docs/decisions/0051), the opening tells the reader how many pages the view has.
    expect((await open(reader, bookId).expect(200)).body.pageCount).toBe(1);
    await savePosition(reader, bookId, { page: 1 }).expect(204);
    await savePosition(reader, bookId, { page: 2 }).expect(400);
  });

  it("comes out of a hostile DOCX as text and harmless links only", async () => {
    const { bookId } = await newBook({ buffer: hostileDocx(), name: "hostile.docx" });
    await open(reader, bookId).expect(200);
    const html = ((await view(bookId).expect(200)).body as { pages: string[] }).pages.join("");
    expect(html).not.toMatch(/<script/i);
    // In the view's HTML every "<" opens a tag: an event handler could only hide inside one.
    expect(html).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/javascript:|href="data:/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("<a>click me</a>");
    expect(html).toContain('<a href="https://example.org/book" rel="nofollow noopener noreferrer" target="_blank">a real link</a>');
  });

  it("reads a DOC's text into paragraphs, and checks a position against the view's pages before the view was ever asked for", async () => {
    const { bookId } = await newBook({ buffer: readFileSync(fixture("book.doc")), name: "book.doc" });
    await open(reader, bookId).expect(200);
    await savePosition(reader, bookId, { page: 2 }).expect(400);
    await savePosition(reader, bookId, { page: 1 }).expect(204);
    const { body } = await view(bookId).expect(200);
    expect(body.pages[0]).toMatch(/^<p>El jardín de las mañanas<\/p><p>/);
    const [row] = await db()
      .select()
      .from(readingPositions)
      .where(and(eq(readingPositions.bookId, bookId), eq(readingPositions.userId, reader.user.id)));
    expect(row!.page).toBe(1);
  });
});
