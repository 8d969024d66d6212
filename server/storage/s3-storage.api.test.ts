import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coverVariants } from "../../shared/covers.ts";
import { fixture, sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestS3Server, startS3Server } from "../../test/helpers/s3-server.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { S3Store } from "./s3-store.ts";

let s3: TestS3Server;
let testApp: TestApp<S3Store>;
let author: Awaited<ReturnType<typeof signedInAgent>>;
let reader: Awaited<ReturnType<typeof signedInAgent>>;
beforeAll(async () => {
  s3 = await startS3Server();
  const store = new S3Store(s3.settings, join(mkdtempSync(join(tmpdir(), "plume-s3-uploads-")), "tmp"));
  testApp = await createTestApp(s3.env, { store });
  author = await signedInAgent(testApp.app);
  reader = await signedInAgent(testApp.app);
});
afterAll(async () => {
  testApp?.store.close();
  if (testApp) rmSync(join(testApp.store.temp.dir, ".."), { recursive: true, force: true });
  await testApp?.close();
  await s3?.close();
});

const coverKeys = (url: string) => coverVariants(url).map(({ url: variant }) => `covers/${variant.slice("/covers/".length)}`);

describe("books with STORAGE=s3 (docs/decisions/0042)", () => {
  let book: { id: number; coverImageUrl: string; filePath?: string };
  const pdf = readFileSync(fixture("book.pdf"));

  it("stores an uploaded PDF and its cover's widths as objects, and nothing stays in the temporary folder", async () => {
    book = (await sendBookForm(author.agent.post("/api/books")).expect(201)).body as typeof book;
    await testApp.coversDone();
    const keys = await s3.keys();
    expect(keys.filter((key) => key.startsWith("books/"))).toHaveLength(1);
    expect(keys).toEqual(expect.arrayContaining(coverKeys(book.coverImageUrl)));
    expect(readdirSync(testApp.store.temp.dir)).toEqual([]);
  });

  it("serves the cover from the bucket with its validators, and a 304 to a cache that has it", async () => {
    const cover = await reader.agent.get(book.coverImageUrl).expect(200);
    expect(cover.headers["content-type"]).toBe("image/webp");
    expect(cover.headers["cache-control"]).toContain("public, max-age=31536000, immutable");
    expect(cover.headers.etag).toBeTruthy();
    await reader.agent.get(book.coverImageUrl).set("If-None-Match", cover.headers.etag!).expect(304);
  });

  it("downloads the book whole, and reads it by Range: 206 with Content-Range, 416 past its end", async () => {
    const whole = await reader.agent.post(`/api/books/${book.id}/download`).buffer(true).responseType("blob").expect(200);
    expect(Buffer.compare(whole.body as Buffer, pdf)).toBe(0);
    const part = await reader.agent.get(`/api/books/${book.id}/read/file`).set("Range", "bytes=1000-1999").buffer(true).responseType("blob").expect(206);
    expect(part.headers["content-range"]).toBe(`bytes 1000-1999/${pdf.length}`);
    expect(part.headers["content-length"]).toBe("1000");
    expect(Buffer.compare(part.body as Buffer, pdf.subarray(1000, 2000))).toBe(0);
    const past = await reader.agent.get(`/api/books/${book.id}/read/file`).set("Range", `bytes=${pdf.length + 10}-`).expect(416);
    expect(past.headers["content-range"]).toBe(`bytes */${pdf.length}`);
  });

  it("refuses a hostile upload leaving no object in the bucket and no temporary file", async () => {
    const before = await s3.keys();
    await sendBookForm(author.agent.post("/api/books"), { file: fixture("hostile/html-renamed.pdf") }).expect(415);
    await sendBookForm(author.agent.post("/api/books"), { file: fixture("hostile/docx-zip-bomb.docx"), coverImage: null }).expect(422);
    await sendBookForm(author.agent.post("/api/books"), { coverImage: fixture("hostile/pdf-renamed.png") }).expect(415);
    expect(await s3.keys()).toEqual(before);
    expect(readdirSync(testApp.store.temp.dir)).toEqual([]);
  });

  it("deletes a book's objects with the book", async () => {
    const before = await s3.keys();
    await author.agent.delete(`/api/books/${book.id}`).expect(204);
    const after = await s3.keys();
    expect(before.length - after.length).toBe(1 + coverKeys(book.coverImageUrl).length);
    expect(after).not.toEqual(expect.arrayContaining(coverKeys(book.coverImageUrl)));
  });
});
