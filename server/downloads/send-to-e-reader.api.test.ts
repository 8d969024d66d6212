import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { asc, eq } from "drizzle-orm";
import { type ParsedMail, simpleParser } from "mailparser";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E_READER_MAIL_MAX_BYTES } from "../../shared/e-reader-mail.ts";
import { fixture, sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { EPUB_MIME_TYPE, derivedNamesOf } from "../books/book-files.ts";
import { books, downloads } from "../db/schema.ts";
import { fileForEReader } from "./send-to-e-reader.ts";

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

let testApp: TestApp;
beforeAll(async () => {
  testApp = await createTestApp({ TRUST_PROXY: "loopback", MAIL_FROM: "Plume <books@plume.test>" });
});
afterAll(() => testApp.close());

type Agent = Awaited<ReturnType<typeof signedInAgent>>;

async function newBook(form: Parameters<typeof sendBookForm>[1] = {}) {
  const author = await signedInAgent(testApp.app, { firstName: "Rosalía", lastName: "de Castro" });
  const response = await sendBookForm(author.agent.post("/api/books"), { coverImage: null, title: "Follas novas", ...form }).expect(201);
  return { author, bookId: response.body.id as number };
}

async function readerWithEReader(
  address = `kindle.${Date.now()}.${Math.random().toString(36).slice(2)}@kindle.com`,
  account: Record<string, string> = {},
): Promise<Agent & { address: string }> {
  const reader = await signedInAgent(testApp.app, account);
  await reader.agent.put("/api/account/e-reader-email").send({ eReaderEmail: address }).expect(200);
  return { ...reader, address };
}

const send = (reader: Agent, bookId: number) => reader.agent.post(`/api/books/${bookId}/send-to-e-reader`).set("X-Forwarded-For", "203.0.113.50");
const bookRow = async (id: number) => (await testApp.database.db.select().from(books).where(eq(books.id, id)))[0]!;
const logOf = (bookId: number) => testApp.database.db.select().from(downloads).where(eq(downloads.bookId, bookId)).orderBy(asc(downloads.id));

/** The .eml files written for this address (the embedded mail without SMTP_URL), parsed as a mail program would. */
async function mailsTo(address: string): Promise<ParsedMail[]> {
  const names = existsSync(testApp.mailDir) ? readdirSync(testApp.mailDir).filter((name) => name.endsWith(".eml")) : [];
  const parsed = await Promise.all(names.map((name) => simpleParser(readFileSync(join(testApp.mailDir, name)))));
  return parsed.filter((mail) => [mail.to ?? []].flat().some((to) => to.value.some((entry) => entry.address === address)));
}

describe("POST /api/books/:id/send-to-e-reader (docs/product.md#send-to-e-reader)", () => {
  it("refuses a visitor (401) and a reader without an e-reader address (409 e_reader_email_missing), mailing and counting nothing", async () => {
    const { bookId } = await newBook();
    const anonymous = await request(testApp.app).post(`/api/books/${bookId}/send-to-e-reader`).expect(401);
    expect(anonymous.body.code).toBe("unauthorized");
    const reader = await signedInAgent(testApp.app);
    const missing = await send(reader, bookId).expect(409);
    expect(missing.body).toMatchObject({ code: "e_reader_email_missing", message: expect.stringContaining("settings") as string });
    expect(await logOf(bookId)).toEqual([]);
  });

  it("mails the PDF as an attachment, in the reader's language, from MAIL_FROM, and counts it as a download on the channel send", async () => {
    const { author, bookId } = await newBook();
    const reader = await readerWithEReader();
    await reader.agent.put("/api/auth/language").send({ language: "fr" }).expect(204);
    const sent = await send(reader, bookId).expect(200);
    expect(sent.body).toEqual({ sentTo: reader.address, fileName: "Follas novas.pdf", mimeType: "application/pdf" });

    const [mail, ...others] = await mailsTo(reader.address);
    expect(others).toEqual([]);
    expect(mail!.from?.value[0]?.address).toBe("books@plume.test");
    expect(mail!.subject).toBe("« Follas novas » de Rosalía de Castro");
    expect(mail!.text).toContain("envoyé depuis Plume");
    expect(mail!.text).toContain(`/books/${bookId}-follas-novas`);
    expect(mail!.attachments).toHaveLength(1);
    const [attachment] = mail!.attachments;
    expect(attachment!.filename).toBe("Follas novas.pdf");
    expect(attachment!.contentType).toBe("application/pdf");
    expect(attachment!.content.equals(readFileSync(fixture("book.pdf")))).toBe(true);

    const [row] = await logOf(bookId);
    expect(row).toMatchObject({ userId: reader.user.id, channel: "send", counted: true, ipAddress: "203.0.113.50" });
    expect((await bookRow(bookId)).downloadCount).toBe(1);
    // The author sending their own book gets it, uncounted.
    await author.agent.put("/api/account/e-reader-email").send({ eReaderEmail: "rosalia@pbsync.com" }).expect(200);
    await send(author, bookId).expect(200);
    expect((await bookRow(bookId)).downloadCount).toBe(1);
    expect((await mailsTo("rosalia@pbsync.com"))[0]!.attachments).toHaveLength(1);
  });

  it("sends a Word book's own file, and the EPUB Plume made from it once there is one", async () => {
    const { bookId } = await newBook({ file: fixture("book.docx"), title: "Cantares" });
    const reader = await readerWithEReader();
    expect((await send(reader, bookId).expect(200)).body).toMatchObject({ fileName: "Cantares.docx", mimeType: DOCX_TYPE });

    const epub = readFileSync(fixture("book.epub"));
    const book = await bookRow(bookId);
    await testApp.store.write("views", derivedNamesOf(book.filePath).epub, epub);
    await testApp.database.db.update(books).set({ epubSize: epub.length }).where(eq(books.id, bookId));
    expect((await send(reader, bookId).expect(200)).body).toMatchObject({ fileName: "Cantares.epub", mimeType: EPUB_MIME_TYPE });
    const epubMail = (await mailsTo(reader.address)).find((mail) => mail.attachments[0]?.filename === "Cantares.epub")!;
    expect(epubMail.attachments[0]!.content.equals(epub)).toBe(true);
    // Two mails of one book, one counted download.
    expect((await logOf(bookId)).map((row) => [row.channel, row.counted])).toEqual([
      ["send", true],
      ["send", false],
    ]);
  });

  it("chooses an uploaded EPUB's own file as it is", () => {
    const own = { filePath: "a.epub", fileSize: 10, mimeType: EPUB_MIME_TYPE, epubSize: null };
    expect(fileForEReader(own)).toMatchObject({ file: "file", kind: "books", mimeType: EPUB_MIME_TYPE });
    expect(fileForEReader({ filePath: "a.pdf", fileSize: 10, mimeType: "application/pdf", epubSize: null })).toMatchObject({ file: "file", extension: "pdf" });
    expect(fileForEReader({ filePath: "a.docx", fileSize: 10, mimeType: DOCX_TYPE, epubSize: 20 })).toMatchObject({ file: "epub", kind: "views", name: "a.epub", size: 20 });
  });

  it("counts a reader once across a download and a send, whichever comes first", async () => {
    const { bookId } = await newBook();
    const reader = await readerWithEReader();
    await reader.agent.post(`/api/books/${bookId}/download`).set("X-Forwarded-For", "203.0.113.51").expect(200);
    await send(reader, bookId).expect(200);
    // The account's own e-mail plays no part: this reader registered without one.
    const other = await readerWithEReader(undefined, { email: "" });
    await send(other, bookId).expect(200);
    await other.agent.post(`/api/books/${bookId}/download`).set("X-Forwarded-For", "203.0.113.52").expect(200);
    expect((await bookRow(bookId)).downloadCount).toBe(2);
    const log = await logOf(bookId);
    expect(log.map((row) => [row.userId, row.channel, row.counted])).toEqual([
      [reader.user.id, "download", true],
      [reader.user.id, "send", false],
      [other.user.id, "send", true],
      [other.user.id, "download", false],
    ]);
    expect(log.filter((row) => !row.counted).map((row) => row.notCountedReason)).toEqual(["repeat-reader", "repeat-reader"]);
  });

  it("takes a book under the download's rules: explicit refused (403), hidden or unpublished 404, removed 410, a bad id 400", async () => {
    const reader = await readerWithEReader();
    const explicit = await newBook({ contentRating: "explicit" });
    expect((await send(reader, explicit.bookId).expect(403)).body.code).toBe("explicit_not_chosen");
    await reader.agent.put("/api/account/explicit-books").send({ showExplicit: true }).expect(200);
    await send(reader, explicit.bookId).expect(200);

    const admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL });
    await testApp.proveEmail(TEST_ADMIN_EMAIL);
    const decide = (bookId: number, action: "hide" | "remove") =>
      admin.agent.post(`/api/admin/books/${bookId}/moderation`).send({ action, ground: "terms-spam", basis: "own-initiative", facts: "The book repeats one advertisement." }).expect(201);
    const hidden = await newBook();
    await decide(hidden.bookId, "hide");
    await send(reader, hidden.bookId).expect(404);
    const unpublished = await newBook();
    await testApp.database.db.update(books).set({ isPublished: false }).where(eq(books.id, unpublished.bookId));
    await send(reader, unpublished.bookId).expect(404);
    const removed = await newBook();
    await decide(removed.bookId, "remove");
    await send(reader, removed.bookId).expect(410);
    expect((await send(reader, 0).expect(400)).body.code).toBe("validation_failed");
    for (const { bookId } of [hidden, unpublished, removed]) expect(await logOf(bookId)).toEqual([]);
    expect(await mailsTo(reader.address)).toHaveLength(1);
  });

  it("refuses a file over 50 MB with 413 e_reader_file_too_large, before anything is mailed or counted", async () => {
    const { bookId } = await newBook({ file: fixture("book.docx"), title: "Too long" });
    const book = await bookRow(bookId);
    await testApp.store.write("views", derivedNamesOf(book.filePath).epub, readFileSync(fixture("book.epub")));
    await testApp.database.db.update(books).set({ epubSize: E_READER_MAIL_MAX_BYTES + 1 }).where(eq(books.id, bookId));
    const reader = await readerWithEReader();
    const refused = await send(reader, bookId).expect(413);
    expect(refused.body).toMatchObject({ code: "e_reader_file_too_large", message: expect.stringContaining("50 MB") as string });
    expect(await mailsTo(reader.address)).toEqual([]);
    expect(await logOf(bookId)).toEqual([]);
    // At the limit itself it goes.
    await testApp.database.db.update(books).set({ epubSize: E_READER_MAIL_MAX_BYTES }).where(eq(books.id, bookId));
    await send(reader, bookId).expect(200);
  });

  it("answers 503 e_reader_mail_failed when the mail cannot go out, and counts nothing; the retry counts once", async () => {
    const { bookId } = await newBook();
    const reader = await readerWithEReader();
    // The mail folder is a file for a moment: no message can be written there.
    const mailFolderExisted = existsSync(testApp.mailDir);
    if (mailFolderExisted) rmSync(testApp.mailDir, { recursive: true });
    writeFileSync(testApp.mailDir, "");
    try {
      const failed = await send(reader, bookId).expect(503);
      expect(failed.body).toMatchObject({ code: "e_reader_mail_failed", message: expect.stringContaining("Nothing was counted") as string });
    } finally {
      rmSync(testApp.mailDir);
      mkdirSync(testApp.mailDir);
    }
    expect(await logOf(bookId)).toEqual([]);
    expect((await bookRow(bookId)).downloadCount).toBe(0);
    expect(readdirSync(testApp.mailDir).filter((name) => name.endsWith(".part"))).toEqual([]);
    await send(reader, bookId).expect(200);
    expect((await bookRow(bookId)).downloadCount).toBe(1);
  });

  it("answers a missing file with 404, mailing nothing", async () => {
    const { bookId } = await newBook();
    await testApp.store.remove("books", (await bookRow(bookId)).filePath);
    const reader = await readerWithEReader();
    await send(reader, bookId).expect(404);
    expect(await mailsTo(reader.address)).toEqual([]);
    expect(await logOf(bookId)).toEqual([]);
  });
});

describe("the day's sends (RATE_LIMIT_E_READER_SENDS_PER_ACCOUNT)", () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ RATE_LIMIT_E_READER_SENDS_PER_ACCOUNT: "2" });
  });
  afterAll(() => limited.close());

  it("lets 2 sends through a day, refuses the third with 429 e_reader_send_limit and Retry-After; refused and failed sends take none", async () => {
    const author = await signedInAgent(limited.app);
    const ids: number[] = [];
    for (const title of ["Uno", "Dos", "Tres"]) ids.push((await sendBookForm(author.agent.post("/api/books"), { coverImage: null, title }).expect(201)).body.id as number);
    const reader = await signedInAgent(limited.app);
    // Without an address: refused, and not one of the day's sends.
    await reader.agent.post(`/api/books/${ids[0]}/send-to-e-reader`).expect(409);
    await reader.agent.put("/api/account/e-reader-email").send({ eReaderEmail: "ana@kindle.com" }).expect(200);
    await reader.agent.post(`/api/books/${ids[0]}/send-to-e-reader`).expect(200);
    await reader.agent.post(`/api/books/${ids[1]}/send-to-e-reader`).expect(200);
    const refused = await reader.agent.post(`/api/books/${ids[2]}/send-to-e-reader`).expect(429);
    expect(refused.body).toMatchObject({ code: "e_reader_send_limit", message: expect.stringMatching(/^You have sent 2 books to your e-reader today.*Try again in \d+ hours\.$/) as string });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(23 * 3600);
    // Downloading is another limit: still open.
    await reader.agent.post(`/api/books/${ids[2]}/download`).expect(200);
    // Another account has its own day.
    const other = await signedInAgent(limited.app);
    await other.agent.put("/api/account/e-reader-email").send({ eReaderEmail: "other@kindle.com" }).expect(200);
    await other.agent.post(`/api/books/${ids[2]}/send-to-e-reader`).expect(200);
  });
});
