import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreatedEReaderKey } from "../../shared/e-reader-keys.ts";
import { eq } from "drizzle-orm";
import { fixture, multiPagePdf, sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { saveBookDocument } from "../books/book-documents-repository.ts";
import { partialMd5 } from "../books/partial-md5.ts";
import { books } from "../db/schema.ts";

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

/** Takes a book as a download and names the file KOReader would hold as KOReader does. */
async function download(reader: Reader, bookId: number): Promise<string> {
  const response = await reader.agent.post(`/api/books/${bookId}/download`).set("X-Forwarded-For", nextAddress()).buffer(true).parse(binary).expect(200);
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
    await saveBookDocument(testApp.database.db, wordBookId, "epub", epubDocument);

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
