import { readFileSync, writeFileSync } from "node:fs";
import { and, eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { parseOpdsFeed } from "../../test/helpers/opds.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { messyDocx } from "../../test/helpers/messy-docx.ts";
import { zipPackage } from "../../test/helpers/word-packages.ts";
import { loadConfig } from "../config.ts";
import { bookDocuments, books, downloads } from "../db/schema.ts";
import { cageLoad } from "../system/caged-job.ts";
import { findBookDocuments } from "./book-documents-repository.ts";
import { derivedNamesOf } from "./book-files.ts";
import { insertBook } from "./books-repository.ts";
import { insertEdition } from "./editions-repository.ts";
import { BOOK_MIME_TYPES } from "./file-types.ts";
import { partialMd5 } from "./partial-md5.ts";
import { WORD_EPUB_CONVERTER_VERSION, fillWordEpubs, makeWordEpub } from "./word-epubs.ts";

/* Every Word book gets an EPUB made by Plume, offered beside its own file (docs/product.md#epub, docs/decisions/0096). */

type Agent = Awaited<ReturnType<typeof signedInAgent>>;

let testApp: TestApp;
let author: Agent;
let reader: Agent;
beforeAll(async () => {
  testApp = await createTestApp();
  author = await signedInAgent(testApp.app);
  reader = await signedInAgent(testApp.app);
});
afterAll(async () => {
  await testApp.epubsDone();
  await testApp.close();
});

const db = () => testApp.database.db;
const bookRow = async (id: number) => (await db().select().from(books).where(eq(books.id, id)))[0]!;
const epubDeps = () => ({ db: db(), store: testApp.store, limits: loadConfig({ NODE_ENV: "test" }).wordViews.limits });

async function uploadWord(name: "book.docx" | "book.doc", form: { coverImage?: string | null; title?: string } = {}) {
  const response = await sendBookForm(author.agent.post("/api/books"), { coverImage: null, ...form, file: { buffer: readFileSync(fixture(name)), name } }).expect(201);
  await testApp.coversDone();
  await testApp.epubsDone();
  return response.body.id as number;
}

/** A book stored and listed without the upload's queue, as one from before EPUBs were made. */
async function storedFile(data: Buffer, extension: "doc" | "docx") {
  const temp = testApp.store.temp.newPath();
  writeFileSync(temp, data);
  return testApp.store.keep(temp, "books", extension);
}

/** A book as an upload from before EPUBs were made left it: its row and its first edition's. */
async function storedBook(data: Buffer, extension: "doc" | "docx", title = `Stored before EPUBs (${extension})`) {
  const filePath = await storedFile(data, extension);
  const book = await insertBook(db(), { title, authorId: author.user.id, fileName: `old.${extension}`, filePath, fileSize: data.length, mimeType: BOOK_MIME_TYPES[extension] });
  await insertEdition(db(), { bookId: book.id, number: 1, fileName: book.fileName, filePath, fileSize: book.fileSize, mimeType: book.mimeType, createdAt: book.createdAt });
  return book;
}

const binary = (response: request.Response) => response.body as Buffer;
const asBuffer = (test: request.Test) => test.buffer(true).parse((res, done) => {
  const chunks: Buffer[] = [];
  res.on("data", (chunk: Buffer) => chunks.push(chunk));
  res.on("end", () => done(null, Buffer.concat(chunks)));
});

/** An EPUB's first entry is `mimetype`, stored (not deflated), so that its bytes name the format at a fixed place. */
function expectEpubSignature(file: Buffer) {
  expect(file.subarray(0, 4).toString("latin1")).toBe("PK\x03\x04");
  expect(file.readUInt16LE(8)).toBe(0);
  expect(file.subarray(30, 38).toString("latin1")).toBe("mimetype");
  expect(file.subarray(38, 58).toString("latin1")).toBe("application/epub+zip");
}

describe("the EPUB of a Word book", { timeout: 180_000 }, () => {
  it("is made after the upload, stored beside the book with its KOReader id, and offered after the book's own file", async () => {
    const bookId = await uploadWord("book.docx", { coverImage: fixture("cover.png") });
    const row = await bookRow(bookId);
    expect(row.epubSize).toBeGreaterThan(0);
    expect({ title: row.epubTitle, language: row.epubLanguage, coverUrl: row.epubCoverUrl }).toEqual({ title: row.title, language: row.language, coverUrl: row.coverImageUrl });
    const name = derivedNamesOf(row.filePath).epub;
    const stored = await testApp.store.withLocalFile("views", name, async (path) => ({ bytes: readFileSync(path), md5: await partialMd5(path) }));
    expect(stored.bytes.length).toBe(row.epubSize);
    expectEpubSignature(stored.bytes);
    // The cover rides in the EPUB as a JPEG every e-reader shows.
    expect(stored.bytes.includes(Buffer.from("EPUB/images/cover.jpg"))).toBe(true);
    const documents = await db().select().from(bookDocuments).where(eq(bookDocuments.bookId, bookId));
    expect(documents.find((document) => document.file === "epub")?.partialMd5).toBe(stored.md5);

    const { body } = await request(testApp.app).get(`/api/books/${bookId}`).expect(200);
    expect(body.formats).toEqual([
      { format: "docx", size: row.fileSize, mimeType: BOOK_MIME_TYPES.docx },
      { format: "epub", size: row.epubSize, mimeType: "application/epub+zip" },
    ]);
  });

  it("is made of a long, messy DOCX that passes the upload's checks, images and all", async () => {
    const response = await sendBookForm(author.agent.post("/api/books"), { coverImage: null, file: { buffer: messyDocx({ chapters: 20 }), name: "messy.docx" } }).expect(201);
    await testApp.coversDone();
    const row = await bookRow(response.body.id);
    expect(row.epubSize).toBeGreaterThan(0);
    const epub = await testApp.store.withLocalFile("views", derivedNamesOf(row.filePath).epub, async (path) => readFileSync(path));
    for (const name of ["EPUB/images/image-0001.png", "EPUB/images/image-0002.png", "EPUB/images/cover.jpg", "EPUB/chapter-0020.xhtml"]) expect(epub.includes(Buffer.from(name)), name).toBe(true);
  });

  it("is made of a DOC from its text", async () => {
    const bookId = await uploadWord("book.doc");
    const { body } = await request(testApp.app).get(`/api/books/${bookId}`).expect(200);
    expect(body.formats.map((format: { format: string }) => format.format)).toEqual(["doc", "epub"]);
  });

  it("is taken with ?format=epub under the book's title; a reader who takes the DOCX and the EPUB counts once", async () => {
    const bookId = await uploadWord("book.docx", { title: "Notes.docx" });
    const own = await asBuffer(reader.agent.post(`/api/books/${bookId}/download`)).expect(200);
    expect(own.headers["content-type"]).toBe(BOOK_MIME_TYPES.docx);
    const epub = await asBuffer(reader.agent.post(`/api/books/${bookId}/download?format=epub`)).expect(200);
    expect(epub.headers["content-type"]).toBe("application/epub+zip");
    expect(epub.headers["content-disposition"]).toMatch(/filename="?Notes\.epub"?$/);
    expect(Number(epub.headers["content-length"])).toBe((await bookRow(bookId)).epubSize);
    expectEpubSignature(binary(epub));
    // Asked by the book's own format, it is the own file.
    await reader.agent.post(`/api/books/${bookId}/download?format=docx`).expect(200);

    const log = await db().select().from(downloads).where(eq(downloads.bookId, bookId));
    expect(log.filter((row) => row.counted)).toHaveLength(1);
    expect((await bookRow(bookId)).downloadCount).toBe(1);
  });

  it("refuses a format that is none (400), one the book does not have (404), and a visitor (401), counting nothing", async () => {
    const bookId = await uploadWord("book.docx");
    const unknown = await reader.agent.post(`/api/books/${bookId}/download?format=mobi`).expect(400);
    expect(unknown.body).toMatchObject({ code: "validation_failed", fields: { format: "validation.formatUnknown" } });
    const missing = await reader.agent.post(`/api/books/${bookId}/download?format=pdf`).expect(404);
    expect(missing.body).toMatchObject({ code: "not_found", message: "This book has no pdf file." });
    await request(testApp.app).post(`/api/books/${bookId}/download?format=epub`).expect(401);

    const pdf = await sendBookForm(author.agent.post("/api/books"), { coverImage: null }).expect(201);
    const noEpub = await reader.agent.post(`/api/books/${pdf.body.id}/download?format=epub`).expect(404);
    expect(noEpub.body.message).toBe("This book has no epub file.");
    expect(await db().select().from(downloads).where(eq(downloads.bookId, bookId))).toHaveLength(0);
    await testApp.coversDone();
  });

  it("is made again when the book's cover, title or language changes, not when nothing it carries does, and goes with the book", async () => {
    const bookId = await uploadWord("book.docx", { coverImage: fixture("cover.png") });
    const before = await bookRow(bookId);
    const edit = (form: Parameters<typeof sendBookForm>[1]) => sendBookForm(author.agent.put(`/api/books/${bookId}`), { file: null, coverImage: null, ...form }).expect(200);
    await edit({ coverImage: fixture("cover.jpg") });
    await testApp.epubsDone();
    const withNewCover = await bookRow(bookId);
    expect(withNewCover.coverImageUrl).not.toBe(before.coverImageUrl);
    expect(withNewCover.epubCoverUrl).toBe(withNewCover.coverImageUrl);

    // The author's cover stays; the title and language are the EPUB's metadata.
    await edit({ title: "A corrected title", language: "fr" });
    await testApp.epubsDone();
    expect(await bookRow(bookId)).toMatchObject({ epubTitle: "A corrected title", epubLanguage: "fr", epubCoverUrl: withNewCover.coverImageUrl });
    // Each EPUB made keeps its KOReader id: a device holding one made before the change still syncs, in the same edition.
    const epubIds = (await db().select().from(bookDocuments).where(and(eq(bookDocuments.bookId, bookId), eq(bookDocuments.file, "epub")))).map((document) => document.partialMd5);
    expect(new Set(epubIds).size).toBe(3);
    for (const id of epubIds) expect(await findBookDocuments(db(), id)).toEqual([{ bookId, file: "epub", edition: 1 }]);

    const forks = cageLoad().started;
    await edit({ title: "A corrected title", language: "fr", description: "Only the description changed." });
    await testApp.epubsDone();
    expect(cageLoad().started).toBe(forks);
    const after = await bookRow(bookId);

    await author.agent.delete(`/api/books/${bookId}`).expect(204);
    expect(await testApp.store.has("views", derivedNamesOf(after.filePath).epub)).toBe(false);
  });

  it("that cannot be made is remembered and not tried again, but by a newer converter; the book keeps its own file", async () => {
    // A zip with no Word document in it: mammoth finds no main part.
    const book = await storedBook(zipPackage([{ name: "notes.txt", data: "not a document" }]), "docx");
    expect(await makeWordEpub(epubDeps(), book.id)).toMatchObject({ kind: "failed" });
    expect((await bookRow(book.id)).epubFailedVersion).toBe(WORD_EPUB_CONVERTER_VERSION);
    const forks = cageLoad().started;
    expect(await makeWordEpub(epubDeps(), book.id)).toEqual({ kind: "not-needed" });
    expect(cageLoad().started).toBe(forks);

    await db().update(books).set({ epubFailedVersion: WORD_EPUB_CONVERTER_VERSION - 1 }).where(eq(books.id, book.id));
    expect(await makeWordEpub(epubDeps(), book.id)).toMatchObject({ kind: "failed" });
    expect(cageLoad().started).toBe(forks + 1);
    const { body } = await request(testApp.app).get(`/api/books/${book.id}`).expect(200);
    expect(body.formats.map((format: { format: string }) => format.format)).toEqual(["docx"]);
  });

  it("left undone by a stopped process is made by the next one, which reads what is missing from the database", async () => {
    const book = await storedBook(readFileSync(fixture("book.docx")), "docx", "Uploaded before a restart");
    const restarted = testApp.anotherProcess();
    try {
      await expect.poll(async () => (await bookRow(book.id)).epubSize, { timeout: 60_000 }).toBeGreaterThan(0);
      await restarted.epubQueue.idle();
    } finally {
      restarted.close();
    }
  });

  it("is one more acquisition link of the book's OPDS entry, with its type and length, first", async () => {
    const bookId = await uploadWord("book.docx", { title: "An entry with two files" });
    const row = await bookRow(bookId);
    const xml = (await request(testApp.app).get("/opds/new").expect(200)).text;
    const entry = parseOpdsFeed(xml).Entries.find((each) => each.Title === "An entry with two files")!;
    const acquisitions = entry.Links.filter((link) => link.Rel === "http://opds-spec.org/acquisition").map((link) => ({ href: link.Href, type: link.Type }));
    // The parser keeps no length: read from the entry's own links.
    const lengths = [...xml.matchAll(new RegExp(`href="[^"]*/opds/books/${bookId}/file[^"]*"[^>]*length="(\\d+)"`, "g"))].map((match) => Number(match[1]));
    expect(acquisitions).toEqual([
      { href: expect.stringMatching(new RegExp(`/opds/books/${bookId}/file\\?format=epub$`)), type: "application/epub+zip" },
      { href: expect.stringMatching(new RegExp(`/opds/books/${bookId}/file$`)), type: BOOK_MIME_TYPES.docx },
    ]);
    expect(lengths).toEqual([row.epubSize, row.fileSize]);
  });

  it("of every book that lacks one is made by epubs:fill, which also records the KOReader id of every edition's own file", async () => {
    const book = await storedBook(readFileSync(fixture("book.doc")), "doc", "Filled afterwards");
    // A second edition, published before every edition's ids were kept: the first's was replaced.
    const olderPath = book.filePath;
    const docx = readFileSync(fixture("book.docx"));
    const filePath = await storedFile(docx, "docx");
    await insertEdition(db(), { bookId: book.id, number: 2, fileName: "new.docx", filePath, fileSize: docx.length, mimeType: BOOK_MIME_TYPES.docx, changelog: "In DOCX." });
    await db().update(books).set({ edition: 2, filePath, fileSize: docx.length, mimeType: BOOK_MIME_TYPES.docx }).where(eq(books.id, book.id));
    await db().delete(bookDocuments).where(eq(bookDocuments.bookId, book.id));
    const lines: string[] = [];
    const tally = await fillWordEpubs(epubDeps(), (line) => lines.push(line));
    expect(tally.made).toBeGreaterThanOrEqual(1);
    expect(tally.documentIds).toBeGreaterThanOrEqual(2);
    expect(lines.some((line) => line.startsWith(`Book ${book.id} "Filled afterwards": EPUB made`))).toBe(true);
    const own = await db().select().from(bookDocuments).where(and(eq(bookDocuments.bookId, book.id), eq(bookDocuments.file, "file"))).orderBy(bookDocuments.edition);
    const md5Of = (path: string) => testApp.store.withLocalFile("books", path, (local) => partialMd5(local));
    expect(own.map((document) => [document.edition, document.partialMd5])).toEqual([
      [1, await md5Of(olderPath)],
      [2, await md5Of(filePath)],
    ]);
    // The EPUB made of the current edition is that edition's.
    expect(await db().select().from(bookDocuments).where(and(eq(bookDocuments.bookId, book.id), eq(bookDocuments.file, "epub")))).toMatchObject([{ edition: 2 }]);
    expect((await bookRow(book.id)).epubSize).toBeGreaterThan(0);
    // Run again, it finds nothing left to do.
    expect(await fillWordEpubs(epubDeps(), () => {})).toMatchObject({ made: 0, documentIds: 0 });
  });
});
