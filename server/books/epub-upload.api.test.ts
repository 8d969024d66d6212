import { readFileSync } from "node:fs";
import { count, eq } from "drizzle-orm";
import sharp from "sharp";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookFingerprints, books } from "../db/schema.ts";
import { filesUnder, fixture, sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type EpubOptions, buildEpub, opf, xhtml } from "../../test/helpers/epub-builder.ts";
import { parseOpdsFeed } from "../../test/helpers/opds.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";

let testApp: TestApp;
let author: Awaited<ReturnType<typeof signedInAgent>>;
beforeAll(async () => {
  // With the copy checks, so that an EPUB's text is read for its fingerprint.
  testApp = await createTestApp({ COPY_CHECKS: "true" });
  author = await signedInAgent(testApp.app);
});
afterAll(() => testApp.close());

const EPUB = "application/epub+zip";
const bookRows = async () => (await testApp.database.db.select({ n: count() }).from(books))[0]!.n;
const epubForm = (buffer: Buffer, name = "book.epub") => ({ file: { buffer, name }, coverImage: null, title: "Un libro hecho por una prueba" });
const chapter = (body: string, extra: Parameters<typeof xhtml>[1] = {}) => ({ parts: { "OEBPS/text/chapter-1.xhtml": xhtml(body, extra) } });

describe("POST /api/books with an EPUB", () => {
  it("publishes the real EPUB with its package's cover, and serves it as an EPUB by the API and OPDS", async () => {
    const response = await sendBookForm(author.agent.post("/api/books"), { file: fixture("book.epub"), coverImage: null, title: "El faro.epub" }).expect(201);
    expect(response.body).toMatchObject({ fileType: "epub", fileSize: readFileSync(fixture("book.epub")).length });
    const [row] = await testApp.database.db.select().from(books).where(eq(books.id, response.body.id));
    expect(row).toMatchObject({ mimeType: EPUB, coverSource: "author" });
    // The package's cover (a 600×900 PNG), re-encoded as an author's cover is.
    const cover = await request(testApp.app).get(response.body.coverImageUrl).buffer(true).expect(200);
    expect(await sharp(cover.body as Buffer).metadata()).toMatchObject({ format: "webp", width: 600, height: 900 });
    // Its text was read for the copy checks.
    const [fingerprint] = await testApp.database.db.select().from(bookFingerprints).where(eq(bookFingerprints.bookId, response.body.id));
    expect(fingerprint!.wordCount).toBeGreaterThan(100);

    const reader = await signedInAgent(testApp.app);
    const download = await reader.agent.post(`/api/books/${response.body.id}/download`).responseType("blob").expect(200);
    expect(download.headers["content-type"]).toBe(EPUB);
    expect(download.headers["content-disposition"]).toBe('attachment; filename="El faro.epub"');
    expect(Buffer.from(download.body as Buffer).equals(readFileSync(fixture("book.epub")))).toBe(true);

    const feed = parseOpdsFeed((await request(testApp.app).get("/opds/new").expect(200)).text);
    const entry = feed.Entries.find((candidate) => candidate.Links.some((link) => link.Href.endsWith(`/opds/books/${response.body.id}/file`)))!;
    expect(entry.Links.find((link) => link.Rel.includes("http://opds-spec.org/acquisition"))).toMatchObject({ Type: EPUB });
  });

  it("keeps the author's own cover over the package's, and gives a book without one Plume's typographic cover", async () => {
    const red = await sharp({ create: { width: 600, height: 900, channels: 3, background: "#ff0000" } }).png().toBuffer();
    const redBook = await buildEpub({ parts: { "OEBPS/images/cover.png": red } });
    const redness = async (id: number) => {
      const [row] = await testApp.database.db.select().from(books).where(eq(books.id, id));
      const cover = await request(testApp.app).get(row!.coverImageUrl!).buffer(true).expect(200);
      return { source: row!.coverSource, dominant: (await sharp(cover.body as Buffer).stats()).dominant };
    };
    const packageCover = await sendBookForm(author.agent.post("/api/books"), epubForm(redBook)).expect(201);
    expect(await redness(packageCover.body.id)).toMatchObject({ source: "author", dominant: { r: expect.toSatisfy((r: number) => r > 200), g: expect.toSatisfy((g: number) => g < 60) } });
    // Another build of the book: the same file twice is refused as a duplicate.
    const ownCover = await sendBookForm(author.agent.post("/api/books"), {
      ...epubForm(await buildEpub({ parts: { "OEBPS/images/cover.png": red, "OEBPS/style.css": "p { margin: 0 }" } })),
      coverImage: fixture("cover.jpg"),
    }).expect(201);
    expect((await redness(ownCover.body.id)).dominant.g).toBeGreaterThan(60);

    const coverless = await buildEpub({ parts: { "OEBPS/content.opf": opf({ coverProperties: "", coverId: "plate", coverHref: "images/plate.png" }), "OEBPS/images/plate.png": red } });
    const plain = await sendBookForm(author.agent.post("/api/books"), epubForm(coverless)).expect(201);
    await testApp.coversDone();
    expect((await redness(plain.body.id)).source).toBe("generated");
  });

  it("gives a book whose cover does not decode Plume's typographic cover, never a refusal", async () => {
    const broken = await buildEpub({ parts: { "OEBPS/images/cover.png": readFileSync(fixture("cover.png")).subarray(0, 200) } });
    const response = await sendBookForm(author.agent.post("/api/books"), epubForm(broken)).expect(201);
    await testApp.coversDone();
    const [row] = await testApp.database.db.select().from(books).where(eq(books.id, response.body.id));
    expect(row!.coverSource).toBe("generated");
  });

  it("accepts a book whose fonts are obfuscated, the only encryption it reads without a key", async () => {
    const encryption = `<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.idpf.org/2008/embedding"/><enc:CipherData><enc:CipherReference URI="OEBPS/style.css"/></enc:CipherData></enc:EncryptedData></encryption>`;
    await sendBookForm(author.agent.post("/api/books"), epubForm(await buildEpub({ parts: { "META-INF/encryption.xml": encryption } }))).expect(201);
  });

  const aesEncryption =
    '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/></enc:EncryptedData></encryption>';
  it.each<[string, EpubOptions, number, string, string]>([
    ["no mimetype first", { mimetype: { first: false } }, 415, "file_invalid_type", "upload.fileInvalidType"],
    ["a compressed mimetype", { mimetype: { compress: true } }, 422, "epub_malformed", "upload.epubMalformed"],
    ["a mimetype of another type", { mimetype: { content: "application/zip+epub" } }, 422, "epub_malformed", "upload.epubMalformed"],
    ["no container", { parts: { "META-INF/container.xml": null } }, 422, "epub_malformed", "upload.epubMalformed"],
    ["no package document", { parts: { "OEBPS/content.opf": null } }, 422, "epub_malformed", "upload.epubMalformed"],
    [
      "a billion laughs",
      chapter("<p>&lol3;</p>", { doctype: '<!DOCTYPE html [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;">]>' }),
      422,
      "epub_declares_entities",
      "upload.epubDeclaresEntities",
    ],
    ["an external entity", chapter("<p>&xxe;</p>", { doctype: '<!DOCTYPE html [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>' }), 422, "epub_declares_entities", "upload.epubDeclaresEntities"],
    ["a script element", chapter("<script>fetch('/api/auth/session')</script>"), 422, "epub_has_scripts", "upload.epubHasScripts"],
    ["an onload attribute", chapter('<img alt="" src="../images/cover.png" onload="alert(1)"/>'), 422, "epub_has_scripts", "upload.epubHasScripts"],
    ["a javascript: link", chapter('<a href="javascript:alert(1)">x</a>'), 422, "epub_has_scripts", "upload.epubHasScripts"],
    ["a scripted item", { parts: { "OEBPS/content.opf": opf().replace('properties="nav"', 'properties="nav scripted"') } }, 422, "epub_has_scripts", "upload.epubHasScripts"],
    ["a remote image", chapter('<img alt="" src="https://tracker.example/pixel.png"/>'), 422, "epub_loads_remote_content", "upload.epubLoadsRemoteContent"],
    ["a remote stylesheet", chapter("", { head: '<link rel="stylesheet" href="https://cdn.example/x.css"/>' }), 422, "epub_loads_remote_content", "upload.epubLoadsRemoteContent"],
    ["content encrypted with AES (DRM)", { parts: { "META-INF/encryption.xml": aesEncryption } }, 422, "epub_encrypted", "upload.epubEncrypted"],
    ["a zip bomb", { parts: { "OEBPS/images/zeros.bin": Buffer.alloc(20 * 1024 * 1024) } }, 422, "epub_unpacks_too_large", "upload.epubUnpacksTooLarge"],
    ["a name climbing out of the book", { parts: { "QQ/evil.xhtml": "x" }, renames: { "QQ/evil.xhtml": "../evil.xhtml" } }, 422, "epub_unsafe_paths", "upload.epubUnsafePaths"],
  ])("refuses %s, keeping nothing", async (_, options, status, code, field) => {
    const rowsBefore = await bookRows();
    // Covers of books accepted before are drawn after their answers: they are not this refusal's doing.
    await testApp.coversDone();
    const filesBefore = filesUnder(testApp.uploadsDir);
    const response = await sendBookForm(author.agent.post("/api/books"), epubForm(await buildEpub(options)));
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ code, fields: { file: field }, message: expect.any(String) });
    expect(await bookRows()).toBe(rowsBefore);
    // The response may end a moment before the temporary file is unlinked.
    await expect.poll(() => filesUnder(testApp.uploadsDir)).toEqual(filesBefore);
  });

  it("names what is wrong with a malformed EPUB", async () => {
    const response = await sendBookForm(author.agent.post("/api/books"), epubForm(await buildEpub({ parts: { "OEBPS/style.css": null } }))).expect(422);
    expect(response.body.message).toBe("The EPUB is not a valid EPUB: the manifest names style.css, which is not in the book.");
  });

  it("refuses a PDF or a DOCX named .epub, and an EPUB named .pdf", async () => {
    await sendBookForm(author.agent.post("/api/books"), epubForm(readFileSync(fixture("book.pdf")))).expect(415);
    await sendBookForm(author.agent.post("/api/books"), epubForm(readFileSync(fixture("book.docx")))).expect(415);
    await sendBookForm(author.agent.post("/api/books"), epubForm(readFileSync(fixture("book.epub")), "book.pdf")).expect(415);
  });
});
