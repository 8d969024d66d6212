import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreatedEReaderKey } from "../../shared/e-reader-keys.ts";
import { and, eq } from "drizzle-orm";
import { fixture, multiPagePdf, sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { saveBookDocument } from "../books/book-documents-repository.ts";
import { partialMd5 } from "../books/partial-md5.ts";
import { bookEditions, books, readingPositions } from "../db/schema.ts";

type Reader = Awaited<ReturnType<typeof signedInAgent>>;
interface Device {
  reader: Reader;
  key: string;
}

let testApp: TestApp;
let scratch: string;
let author: Reader;
let pdfBookId: number;
let wordBookId: number;
let addressCounter = 0;
const nextAddress = () => `198.51.100.${(addressCounter += 1)}`;
const md5 = (text: string) => createHash("md5").update(text).digest("hex");

beforeAll(async () => {
  testApp = await createTestApp({ TRUST_PROXY: "loopback" });
  scratch = await mkdtemp(join(tmpdir(), "kosync-"));
  author = await signedInAgent(testApp.app);
  pdfBookId = (await sendBookForm(author.agent.post("/api/books"), { file: { buffer: await multiPagePdf(10), name: "ten-pages.pdf" } }).expect(201)).body.id as number;
  // Whatever the upload's page count read has reached, the book is known to have ten pages here.
  await testApp.database.db.update(books).set({ pageCount: 10 }).where(eq(books.id, pdfBookId));
  wordBookId = (await sendBookForm(author.agent.post("/api/books"), { title: "El jardín", file: fixture("book.docx"), coverImage: null }).expect(201)).body.id as number;
});
afterAll(async () => {
  await testApp.close();
  await rm(scratch, { recursive: true, force: true });
});

/** A reader with KOReader set up: an account and an e-reader key, typed into KOReader's progress sync. */
async function koreaderOwner(): Promise<Device> {
  const reader = await signedInAgent(testApp.app);
  const created = (await reader.agent.post("/api/e-reader-keys").send({ name: "KOReader" }).expect(201)).body as CreatedEReaderKey;
  return { reader, key: created.key };
}

/** A call as KOReader's plugin makes it: its media type, the username and the MD5 of the password typed. */
function koreader(test: request.Test, device: Device, typed = device.key): request.Test {
  return test.set("Accept", "application/vnd.koreader.v1+json").set("x-auth-user", device.reader.account.username).set("x-auth-key", md5(typed));
}

/** Takes a book (an edition of it, if named) as a download and names the file KOReader would hold as KOReader does. */
async function download(reader: Reader, bookId: number, edition?: number): Promise<string> {
  const query = edition === undefined ? "" : `?edition=${edition}`;
  const response = await reader.agent.post(`/api/books/${bookId}/download${query}`).set("X-Forwarded-For", nextAddress()).buffer(true).parse(binary).expect(200);
  const path = join(scratch, `book-${bookId}-${addressCounter}`);
  await writeFile(path, response.body as Buffer);
  return partialMd5(path);
}

function binary(response: request.Response, done: (error: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  response.on("data", (chunk: Buffer) => chunks.push(chunk));
  response.on("end", () => done(null, Buffer.concat(chunks)));
}

const pushProgress = (device: Device, body: object) => koreader(request(testApp.app).put("/kosync/syncs/progress").set("Content-Type", "application/json"), device).send(body);
const pullProgress = (device: Device, document: string) => koreader(request(testApp.app).get(`/kosync/syncs/progress/${document}`), device);
const openInBrowser = async (reader: Reader, bookId: number) =>
  (await reader.agent.post(`/api/books/${bookId}/read`).set("X-Forwarded-For", nextAddress()).expect(200)).body as { position: Record<string, unknown> | null };

describe("KOReader's sign-in (docs/product.md#progress-sync)", () => {
  it("takes the username and the MD5 of an e-reader key, typed as shown or without hyphens, in either case", async () => {
    const device = await koreaderOwner();
    for (const typed of [device.key, device.key.toLowerCase(), device.key.replaceAll("-", ""), device.key.replaceAll("-", "").toLowerCase()]) {
      expect((await koreader(request(testApp.app).get("/kosync/users/auth"), device, typed).expect(200)).body).toEqual({ authorized: "OK" });
    }
    await request(testApp.app).get("/kosync/users/auth").set("x-auth-user", device.reader.account.email).set("x-auth-key", md5(device.key)).expect(200);
  });

  it("refuses a wrong key, another account's name, a revoked key and missing headers alike", async () => {
    const device = await koreaderOwner();
    const other = await koreaderOwner();
    await koreader(request(testApp.app).get("/kosync/users/auth"), device, "ABCD-EFGH-JKMN-PQRS").expect(401);
    await request(testApp.app).get("/kosync/users/auth").set("x-auth-user", other.reader.account.username).set("x-auth-key", md5(device.key)).expect(401);
    await request(testApp.app).get("/kosync/users/auth").set("x-auth-user", device.reader.account.username).expect(401);
    await request(testApp.app).get("/kosync/users/auth").set("x-auth-user", device.reader.account.username).set("x-auth-key", "not-a-digest").expect(401);
    const [key] = (await device.reader.agent.get("/api/e-reader-keys").expect(200)).body as { id: string }[];
    await device.reader.agent.delete(`/api/e-reader-keys/${key!.id}`).expect(204);
    const refused = await koreader(request(testApp.app).get("/kosync/users/auth"), device).expect(401);
    expect(refused.body).toMatchObject({ code: "unauthorized", message: expect.stringContaining("e-reader key") });
  });

  it("sends registration, and any call it does not serve, to Plume with a JSON 404", async () => {
    for (const test of [request(testApp.app).post("/kosync/users/create").send({ username: "ana", password: md5("secret") }), request(testApp.app).get("/kosync/healthcheck")]) {
      const response = await test.expect(404);
      expect(response.body).toMatchObject({ code: "not_found", message: expect.stringContaining("sign up on Plume") });
    }
  });
});

describe("KOReader's progress and the browser reader's, one place per reader and book", () => {
  it("opens the browser reader at the page KOReader saved in a PDF, and answers KOReader the browser's page", async () => {
    const device = await koreaderOwner();
    const document = await download(device.reader, pdfBookId);
    expect((await pullProgress(device, document).expect(200)).body).toEqual({});

    const saved = await pushProgress(device, { document, progress: "3", percentage: 0.4, device: "Kobo Libra 2", device_id: "KOBO-1" }).expect(200);
    expect(saved.body).toEqual({ document, timestamp: expect.any(Number) });
    expect((await openInBrowser(device.reader, pdfBookId)).position).toEqual({ page: 3, percentage: 0.4, locator: null, format: "pdf", device: "Kobo Libra 2" });
    expect((await pullProgress(device, document.toUpperCase()).expect(200)).body).toMatchObject({ document, progress: "3", percentage: 0.4, device: "Kobo Libra 2", device_id: "KOBO-1" });

    await device.reader.agent.put(`/api/books/${pdfBookId}/read/position`).send({ page: 5, format: "pdf" }).expect(204);
    const answered = (await pullProgress(device, document).expect(200)).body as Record<string, unknown>;
    expect(answered).toMatchObject({ document, progress: "5", device: "Plume (browser)", device_id: "plume-browser", timestamp: expect.any(Number) });
    expect(answered.percentage).toBeGreaterThanOrEqual(0);
  });

  it("meets KOReader in an EPUB at its spine item and percentage", async () => {
    const device = await koreaderOwner();
    await download(device.reader, wordBookId);
    // Once the EPUB Plume makes after the upload is stored (its own id recorded), the test names it.
    await testApp.coversDone();
    // The EPUB Plume made of the Word book, as KOReader names it.
    const epubDocument = md5(`epub of book ${wordBookId}`);
    await saveBookDocument(testApp.database.db, wordBookId, "epub", 1, epubDocument);

    const xpointer = "/body/DocFragment[4]/body/div/p[12]/text().31";
    await pushProgress(device, { document: epubDocument, progress: xpointer, percentage: 0.31, device: "PocketBook", device_id: "PB-9" }).expect(200);
    // The browser cannot follow KOReader's DOM path: it gets the spine item and the share.
    expect((await openInBrowser(device.reader, wordBookId)).position).toEqual({ page: 4, percentage: 0.31, locator: null, format: "epub", device: "PocketBook" });
    expect((await pullProgress(device, epubDocument).expect(200)).body).toMatchObject({ progress: xpointer, percentage: 0.31 });

    await device.reader.agent.put(`/api/books/${wordBookId}/read/position`).send({ page: 6, percentage: 0.52, locator: "epubcfi(/6/12!/4/2/8)", format: "epub" }).expect(204);
    expect((await pullProgress(device, epubDocument).expect(200)).body).toMatchObject({ progress: "/body/DocFragment[6]", percentage: 0.52, device: "Plume (browser)" });
  });

  it("knows only books the reader took, in the files Plume served", async () => {
    const device = await koreaderOwner();
    const taker = await koreaderOwner();
    const document = await download(taker.reader, pdfBookId);
    const unknown = md5("a book from elsewhere");
    for (const doc of [document, unknown]) {
      const refused = await pushProgress(device, { document: doc, progress: "2", percentage: 0.1, device: "Kobo", device_id: "K" }).expect(404);
      expect(refused.body).toMatchObject({ code: "document_unknown" });
      await pullProgress(device, doc).expect(404);
    }
    expect((await openInBrowser(taker.reader, pdfBookId)).position).toBeNull();
  });

  it("refuses a malformed progress by name, saving nothing", async () => {
    const device = await koreaderOwner();
    const document = await download(device.reader, pdfBookId);
    const good = { document, progress: "2", percentage: 0.2, device: "Kobo", device_id: "K" };
    const cases: [object, string][] = [
      [{ ...good, document: "not-hex" }, "document"],
      [{ ...good, percentage: 1.5 }, "percentage"],
      [{ ...good, percentage: "half" }, "percentage"],
      [{ ...good, progress: "" }, "progress"],
      [{ ...good, progress: "x".repeat(1025) }, "progress"],
      [{ ...good, device: "" }, "device"],
      [{ document, percentage: 0.2, device: "Kobo", device_id: "K" }, "progress"],
    ];
    for (const [body, field] of cases) {
      const response = await pushProgress(device, body).expect(400);
      expect(response.body).toMatchObject({ code: "validation_failed", fields: { [field]: expect.stringMatching(/^kosync\./) } });
    }
    await koreader(request(testApp.app).put("/kosync/syncs/progress").set("Content-Type", "application/json"), device).send("{progress: ").expect(400);
    await pullProgress(device, "zz").expect(400);
    expect((await openInBrowser(device.reader, pdfBookId)).position).toBeNull();
  });
});

describe("older editions' files (docs/product.md#editions)", () => {
  /** A ten-page PDF book whose first edition a reader took, then a nineteen-page second edition. */
  async function bookInTwoEditions(reader: Reader): Promise<{ bookId: number; first: string }> {
    const bookId = (await sendBookForm(author.agent.post("/api/books"), { file: { buffer: await multiPagePdf(10), name: "first.pdf" } }).expect(201)).body.id as number;
    await testApp.coversDone();
    await testApp.database.db.update(books).set({ pageCount: 10 }).where(eq(books.id, bookId));
    const first = await download(reader, bookId);
    await author.agent.post(`/api/books/${bookId}/editions`).field("changelog", "Larger type.").attach("file", await multiPagePdf(19), "second.pdf").expect(201);
    await testApp.coversDone();
    await testApp.database.db.update(books).set({ pageCount: 19 }).where(eq(books.id, bookId));
    return { bookId, first };
  }
  const takenEdition = async (reader: Reader, bookId: number) => ((await reader.agent.get(`/api/books/${bookId}/editions`).expect(200)).body as { takenEdition: number | null }).takenEdition;

  it("keeps syncing from the edition KOReader holds, saving the place in that edition and answering it in that file's pages", async () => {
    const device = await koreaderOwner();
    const { bookId, first } = await bookInTwoEditions(device.reader);
    // The old edition kept the page count it had.
    const [edition1] = await testApp.database.db.select().from(bookEditions).where(and(eq(bookEditions.bookId, bookId), eq(bookEditions.number, 1)));
    expect(edition1!.pageCount).toBe(10);

    await pushProgress(device, { document: first, progress: "4", percentage: 0.25, device: "Kobo", device_id: "K" }).expect(200);
    const [saved] = await testApp.database.db.select().from(readingPositions).where(and(eq(readingPositions.bookId, bookId), eq(readingPositions.userId, device.reader.user.id)));
    expect(saved).toMatchObject({ page: 4, edition: 1, format: "pdf", locator: "4" });
    // Reading edition 1 is not taking edition 2: the book page still tells of the new one.
    expect(await takenEdition(device.reader, bookId)).toBe(1);
    expect((await pullProgress(device, first).expect(200)).body).toMatchObject({ document: first, progress: "4", percentage: 0.25, device: "Kobo" });
    // The browser opens the current edition at the same share of the book.
    expect((await openInBrowser(device.reader, bookId)).position).toMatchObject({ page: 6, percentage: 0.25, earlierEdition: true });

    // The current edition on KOReader: the place from edition 1 at its share of nineteen pages, then one of its own.
    const second = await download(device.reader, bookId);
    expect(second).not.toBe(first);
    expect((await pullProgress(device, second).expect(200)).body).toMatchObject({ document: second, progress: "6", percentage: 0.25 });
    await pushProgress(device, { document: second, progress: "14", percentage: 0.75, device: "Kobo", device_id: "K" }).expect(200);
    expect(await takenEdition(device.reader, bookId)).toBe(2);
    // Back on edition 1: the place in edition 2 at its share of ten pages.
    expect((await pullProgress(device, first).expect(200)).body).toMatchObject({ document: first, progress: "8", percentage: 0.75 });

    // A download of the older edition is the file KOReader knows.
    expect(await download(device.reader, bookId, 1)).toBe(first);
  });

  it("answers none for a place it cannot follow into an older PDF: one without its share of the book, or pages never counted", async () => {
    const device = await koreaderOwner();
    const { bookId, first } = await bookInTwoEditions(device.reader);
    await device.reader.agent.put(`/api/books/${bookId}/read/position`).send({ page: 5, format: "pdf" }).expect(204);
    // No percentage: the browser's place is a page of edition 2 only.
    expect((await pullProgress(device, first).expect(200)).body).toEqual({});
    await device.reader.agent.put(`/api/books/${bookId}/read/position`).send({ page: 5, percentage: 0.25, format: "pdf" }).expect(204);
    expect((await pullProgress(device, first).expect(200)).body).toMatchObject({ progress: "3", percentage: 0.25, device: "Plume (browser)" });
    await testApp.database.db.update(bookEditions).set({ pageCount: null }).where(eq(bookEditions.bookId, bookId));
    expect((await pullProgress(device, first).expect(200)).body).toEqual({});
  });

  it("keeps the id of the EPUB made of an older Word edition; another edition's place reaches that reflowed file as none", async () => {
    const device = await koreaderOwner();
    await download(device.reader, wordBookId);
    await testApp.coversDone();
    const oldEpub = md5(`epub of book ${wordBookId}`);
    await saveBookDocument(testApp.database.db, wordBookId, "epub", 1, oldEpub);
    await author.agent.post(`/api/books/${wordBookId}/editions`).field("changelog", "Typeset as a PDF.").attach("file", await multiPagePdf(8), "typeset.pdf").expect(201);
    await testApp.coversDone();

    const xpointer = "/body/DocFragment[3]/body/p[2]/text().4";
    await pushProgress(device, { document: oldEpub, progress: xpointer, percentage: 0.5, device: "PocketBook", device_id: "PB" }).expect(200);
    expect((await pullProgress(device, oldEpub).expect(200)).body).toMatchObject({ progress: xpointer, percentage: 0.5 });
    expect(await takenEdition(device.reader, wordBookId)).toBe(1);
    await device.reader.agent.put(`/api/books/${wordBookId}/read/position`).send({ page: 2, percentage: 0.125, format: "pdf" }).expect(204);
    expect((await pullProgress(device, oldEpub).expect(200)).body).toEqual({});
  });

  it("knows an older edition's file only for a reader who took the book, and no file Plume did not serve", async () => {
    const taker = await koreaderOwner();
    const stranger = await koreaderOwner();
    const { first } = await bookInTwoEditions(taker.reader);
    for (const document of [first, md5("an edition Plume never had")]) {
      const refused = await pushProgress(stranger, { document, progress: "2", percentage: 0.1, device: "Kobo", device_id: "K" }).expect(404);
      expect(refused.body).toMatchObject({ code: "document_unknown" });
      await pullProgress(stranger, document).expect(404);
    }
    await pullProgress(taker, md5("an edition Plume never had")).expect(404);
    await pushProgress(taker, { document: first, progress: "2", percentage: 2 }).expect(400);
  });
});
