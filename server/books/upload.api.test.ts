import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { count } from "drizzle-orm";
import sharp from "sharp";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { books } from "../db/schema.ts";
import { filesUnder, fixture, sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";

let testApp: TestApp;
let author: Awaited<ReturnType<typeof signedInAgent>>;
beforeAll(async () => {
  testApp = await createTestApp();
  author = await signedInAgent(testApp.app);
});
afterAll(() => testApp.close());

const bookRows = async () => (await testApp.database.db.select({ n: count() }).from(books))[0]!.n;

/** A refusal must leave no row and no file, not even a temporary one. */
async function expectRefusedCleanly(send: () => Promise<request.Response>, status: number, field: string, key: string) {
  const rowsBefore = await bookRows();
  // Covers of books accepted before are drawn after their answers: they are not this refusal's doing.
  await testApp.coversDone();
  const filesBefore = filesUnder(testApp.uploadsDir);
  const response = await send();
  expect(response.status).toBe(status);
  expect(response.body.fields?.[field]).toBe(key);
  expect(response.body.message).toEqual(expect.any(String));
  expect(await bookRows()).toBe(rowsBefore);
  // The response may end a moment before the temporary file is unlinked.
  await expect.poll(() => filesUnder(testApp.uploadsDir)).toEqual(filesBefore);
  return response;
}

describe("POST /api/books", () => {
  it("refuses an anonymous visitor before storing anything", async () => {
    await testApp.coversDone();
    const filesBefore = filesUnder(testApp.uploadsDir);
    const response = await sendBookForm(request(testApp.app).post("/api/books")).expect(401);
    expect(response.body.code).toBe("unauthorized");
    expect(filesUnder(testApp.uploadsDir)).toEqual(filesBefore);
  });

  it("publishes a PDF with a cover: 201 with the book, the author without e-mail, the cover served", async () => {
    const fresh = await signedInAgent(testApp.app);
    const response = await sendBookForm(fresh.agent.post("/api/books")).expect(201);
    expect(response.body).toMatchObject({
      title: "Mañana en París",
      genre: "novela",
      language: "es",
      fileType: "pdf",
      fileSize: readFileSync(fixture("book.pdf")).length,
      downloadCount: 0,
      rating: 0,
      author: { id: fresh.user.id, firstName: "Ana", lastName: "García", displayName: "Ana García" },
    });
    expect(JSON.stringify(response.body)).not.toContain("@");
    expect(response.body.coverImageUrl).toMatch(/^\/covers\/[0-9a-f-]{36}-600\.webp$/);
    const cover = await request(testApp.app).get(response.body.coverImageUrl).expect(200);
    expect(cover.headers["content-type"]).toBe("image/webp");
    expect(cover.headers["cache-control"]).toContain("immutable");
  });

  it("stores the cover as 2:3 WebP images of 200, 400 and 600 pixels wide, without the upload's metadata", async () => {
    const response = await sendBookForm(author.agent.post("/api/books"), { coverImage: fixture("cover.png") }).expect(201);
    for (const width of [200, 400, 600]) {
      const url = response.body.coverImageUrl.replace("-600.webp", `-${width}.webp`);
      const image = await request(testApp.app).get(url).buffer(true).expect(200);
      const metadata = await sharp(image.body as Buffer).metadata();
      expect(metadata).toMatchObject({ format: "webp", width, height: width * 1.5 });
      expect(metadata.exif).toBeUndefined();
    }
  });

  it("refuses an image whose first bytes are right but which does not decode, storing nothing", async () => {
    const truncated = join(mkdtempSync(join(tmpdir(), "plume-cover-")), "truncated.jpg");
    writeFileSync(truncated, readFileSync(fixture("cover.jpg")).subarray(0, 600));
    await expectRefusedCleanly(
      () => sendBookForm(author.agent.post("/api/books"), { coverImage: truncated }),
      415,
      "coverImage",
      "upload.imageInvalidType",
    );
  });

  it("marks only an author's very first book as first book, even after deleting it", async () => {
    const fresh = await signedInAgent(testApp.app);
    const first = await sendBookForm(fresh.agent.post("/api/books")).expect(201);
    const second = await sendBookForm(fresh.agent.post("/api/books"), { title: "Second" }).expect(201);
    await fresh.agent.delete(`/api/books/${first.body.id}`).expect(204);
    const third = await sendBookForm(fresh.agent.post("/api/books"), { title: "Third" }).expect(201);
    const flags = await testApp.database.db.select({ id: books.id, firstBook: books.firstBook }).from(books);
    const flagOf = (id: number) => flags.find((row) => row.id === id)!.firstBook;
    expect([flagOf(first.body.id), flagOf(second.body.id), flagOf(third.body.id)]).toEqual([true, false, false]);
  });

  it("decides the first book once when two uploads arrive together", async () => {
    const fresh = await signedInAgent(testApp.app);
    const responses = await Promise.all(
      ["One", "Two", "Three"].map((title) => sendBookForm(fresh.agent.post("/api/books"), { title, coverImage: null })),
    );
    expect(responses.map((response) => response.status)).toEqual([201, 201, 201]);
    const rows = await testApp.database.db.select({ authorId: books.authorId, firstBook: books.firstBook }).from(books);
    expect(rows.filter((row) => row.authorId === fresh.user.id && row.firstBook)).toHaveLength(1);
  });

  it.each([
    ["book.docx", "docx"],
    ["book.doc", "doc"],
  ])("accepts a real %s", async (name, fileType) => {
    const response = await sendBookForm(author.agent.post("/api/books"), { file: fixture(name), coverImage: fixture("cover.webp") }).expect(201);
    expect(response.body.fileType).toBe(fileType);
    expect(response.body.coverImageUrl).toMatch(/-600\.webp$/);
  });

  it("accepts a cover whose name tries to climb folders, and keeps only a server-made name", async () => {
    const response = await sendBookForm(author.agent.post("/api/books"), {
      coverImage: fixture("hostile/cover name with ..%2f traversal.png"),
    }).expect(201);
    expect(response.body.coverImageUrl).toMatch(/^\/covers\/[0-9a-f-]{36}-600\.webp$/);
  });

  it("maps a legacy genre value to its key", async () => {
    const response = await sendBookForm(author.agent.post("/api/books"), { genre: "Ficción" }).expect(201);
    expect(response.body.genre).toBe("ficcion");
  });

  it.each([
    ["an ELF executable named .pdf", "hostile/executable-renamed.pdf"],
    ["HTML named .pdf", "hostile/html-renamed.pdf"],
    ["a zip that is no Word document", "hostile/zip-not-docx.docx"],
    ["a macro document named .docx", "hostile/docx-with-macro-name.docm.docx"],
    ["an empty file", "hostile/empty.pdf"],
    ["a PDF header with no document", "hostile/header-only.pdf"],
    ["a PNG named .pdf", "cover.png"],
  ])("refuses %s as the book with 415 upload.fileInvalidType", async (_label, path) => {
    const file = path === "cover.png" ? { buffer: readFileSync(fixture(path)), name: "book.pdf" } : fixture(path);
    await expectRefusedCleanly(() => sendBookForm(author.agent.post("/api/books"), { file }), 415, "file", "upload.fileInvalidType");
  });

  it("refuses a book with an extension that is not PDF, DOC or DOCX", async () => {
    const file = { buffer: readFileSync(fixture("book.pdf")), name: "book.exe" };
    await expectRefusedCleanly(() => sendBookForm(author.agent.post("/api/books"), { file }), 415, "file", "upload.fileInvalidType");
  });

  it("refuses a PDF offered as a cover with 415 upload.imageInvalidType", async () => {
    await expectRefusedCleanly(
      () => sendBookForm(author.agent.post("/api/books"), { coverImage: fixture("hostile/pdf-renamed.png") }),
      415,
      "coverImage",
      "upload.imageInvalidType",
    );
  });

  it("refuses a cover over 5 MB with 413 upload.imageTooLarge", async () => {
    const png = readFileSync(fixture("cover.png"));
    const buffer = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 + 1 - png.length)]);
    await expectRefusedCleanly(
      () => sendBookForm(author.agent.post("/api/books"), { coverImage: { buffer, name: "big.png" } }),
      413,
      "coverImage",
      "upload.imageTooLarge",
    );
  });

  it("refuses a book over 50 MB with 413 upload.fileTooLarge", async () => {
    const buffer = Buffer.alloc(50 * 1024 * 1024 + 1, 0x20);
    buffer.write("%PDF-1.7\n");
    await expectRefusedCleanly(
      () => sendBookForm(author.agent.post("/api/books"), { file: { buffer, name: "huge.pdf" } }),
      413,
      "file",
      "upload.fileTooLarge",
    );
  });

  it.each([
    ["a blank title", { title: "   " }, "title", "validation.titleRequired"],
    ["a title over 255 characters", { title: "t".repeat(256) }, "title", "validation.titleMax"],
    ["no description", { description: "" }, "description", "validation.descriptionRequired"],
    ["an unknown genre", { genre: "poetry" }, "genre", "validation.genreInvalid"],
    ["an unknown language", { language: "de" }, "language", "validation.languageInvalid"],
    ["no book file", { file: null }, "file", "upload.fileRequired"],
  ])("refuses %s with 400, leaving nothing", async (_label, form, field, key) => {
    await expectRefusedCleanly(() => sendBookForm(author.agent.post("/api/books"), form), 400, field, key);
  });

  it("refuses a file in a field the form does not have", async () => {
    const response = await sendBookForm(author.agent.post("/api/books")).attach("extra", fixture("book.pdf"));
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("unexpected_file");
  });

  it("refuses a second book file in one form", async () => {
    const response = await sendBookForm(author.agent.post("/api/books")).attach("file", fixture("book.pdf"));
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("unexpected_file");
  });

  it("refuses a body that is not a readable form", async () => {
    const response = await author.agent
      .post("/api/books")
      .set("Content-Type", "multipart/form-data; boundary=XYZ")
      .send("--XYZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nabc");
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("malformed_multipart");
  });
});
