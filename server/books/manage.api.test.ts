import { existsSync, readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coverVariants } from "../../shared/covers.ts";
import { books, downloads } from "../db/schema.ts";
import { fixture, sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";

let testApp: TestApp;
let owner: Awaited<ReturnType<typeof signedInAgent>>;
let stranger: Awaited<ReturnType<typeof signedInAgent>>;
beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signedInAgent(testApp.app);
  stranger = await signedInAgent(testApp.app);
});
afterAll(() => testApp.close());

const publish = async () => (await sendBookForm(owner.agent.post("/api/books")).expect(201)).body as { id: number; coverImageUrl: string };
/** The stored files of a cover, at every width. */
const coverFiles = (url: string) => coverVariants(url).map((variant) => testApp.store.pathOf("covers", variant.url.replace("/covers/", "")));
const edit = { title: "  Nuevo título ", description: "Otra descripción", genre: "historia", language: "fr", file: null, coverImage: null };

describe("PUT /api/books/:id", () => {
  it("lets the owner change the fields (trimmed) and keeps the cover when none is sent", async () => {
    const book = await publish();
    const response = await sendBookForm(owner.agent.put(`/api/books/${book.id}`), edit).expect(200);
    expect(response.body).toMatchObject({ title: "Nuevo título", description: "Otra descripción", genre: "historia", language: "fr" });
    expect(response.body.coverImageUrl).toBe(book.coverImageUrl);
  });

  it("replaces the cover file when a new one is sent, removing the old", async () => {
    const book = await publish();
    const response = await sendBookForm(owner.agent.put(`/api/books/${book.id}`), { ...edit, coverImage: fixture("cover.png") }).expect(200);
    expect(response.body.coverImageUrl).not.toBe(book.coverImageUrl);
    expect(coverFiles(response.body.coverImageUrl).map((path) => existsSync(path))).toEqual([true, true, true]);
    expect(coverFiles(book.coverImageUrl).map((path) => existsSync(path))).toEqual([false, false, false]);
  });

  it("refuses another user with 403 and changes nothing", async () => {
    const book = await publish();
    const response = await sendBookForm(stranger.agent.put(`/api/books/${book.id}`), edit).expect(403);
    expect(response.body.code).toBe("forbidden");
    const [row] = await testApp.database.db.select().from(books).where(eq(books.id, book.id));
    expect(row!.title).toBe("Mañana en París");
  });

  it.each([
    ["a blank title", { title: " " }, "title", "validation.titleRequired"],
    ["a blank description", { description: "  " }, "description", "validation.descriptionRequired"],
    ["a blank genre", { genre: " " }, "genre", "validation.genreRequired"],
  ])("refuses %s with 400", async (_label, change, field, key) => {
    const book = await publish();
    const response = await sendBookForm(owner.agent.put(`/api/books/${book.id}`), { ...edit, ...change }).expect(400);
    expect(response.body.fields[field]).toBe(key);
  });

  it("refuses a book file on edit, a bad cover, anonymous callers and unknown books", async () => {
    const book = await publish();
    const withFile = await sendBookForm(owner.agent.put(`/api/books/${book.id}`), { ...edit, file: fixture("book.pdf") });
    expect(withFile.status).toBe(400);
    await sendBookForm(owner.agent.put(`/api/books/${book.id}`), { ...edit, coverImage: fixture("hostile/pdf-renamed.png") }).expect(415);
    await sendBookForm(request(testApp.app).put(`/api/books/${book.id}`), edit).expect(401);
    await sendBookForm(owner.agent.put("/api/books/999999"), edit).expect(404);
    await sendBookForm(owner.agent.put("/api/books/abc"), edit).expect(400);
  });
});

describe("DELETE /api/books/:id", () => {
  it("refuses anonymous callers and other users", async () => {
    const book = await publish();
    await request(testApp.app).delete(`/api/books/${book.id}`).expect(401);
    await stranger.agent.delete(`/api/books/${book.id}`).expect(403);
    await request(testApp.app).get(`/api/books/${book.id}`).expect(200);
  });

  it("soft-deletes: gone from the catalog, files removed, download history kept", async () => {
    const book = await publish();
    await stranger.agent.post(`/api/books/${book.id}/download`).expect(200);
    const [row] = await testApp.database.db.select().from(books).where(eq(books.id, book.id));
    await owner.agent.delete(`/api/books/${book.id}`).expect(204);
    await request(testApp.app).get(`/api/books/${book.id}`).expect(404);
    await request(testApp.app).get(book.coverImageUrl).expect(404);
    expect(coverFiles(book.coverImageUrl).map((path) => existsSync(path))).toEqual([false, false, false]);
    expect(existsSync(testApp.store.pathOf("books", row!.filePath))).toBe(false);
    const [deleted] = await testApp.database.db.select().from(books).where(eq(books.id, book.id));
    expect(deleted!.deletedAt).toBeInstanceOf(Date);
    expect(await testApp.database.db.select().from(downloads).where(eq(downloads.bookId, book.id))).toHaveLength(1);
    await owner.agent.delete(`/api/books/${book.id}`).expect(404);
    await stranger.agent.post(`/api/books/${book.id}/download`).expect(404);
  });
});

describe("POST /api/books/:id/download", () => {
  it("answers 401 JSON to an anonymous visitor", async () => {
    const book = await publish();
    const response = await request(testApp.app).post(`/api/books/${book.id}/download`).expect(401);
    expect(response.body.code).toBe("unauthorized");
  });

  it("streams the exact bytes with type, length, nosniff and an RFC 6266 file name", async () => {
    const book = await publish();
    const response = await stranger.agent
      .post(`/api/books/${book.id}/download`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const original = readFileSync(fixture("book.pdf"));
    expect(Buffer.compare(response.body as Buffer, original)).toBe(0);
    expect(response.headers["content-type"]).toBe("application/pdf");
    expect(response.headers["content-length"]).toBe(String(original.length));
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["content-disposition"]).toBe(
      `attachment; filename="Ma?ana en Par?s.pdf"; filename*=UTF-8''Ma%C3%B1ana%20en%20Par%C3%ADs.pdf`,
    );
  });

  it("names the file with one extension, the real file's, when the title already ends in one", async () => {
    const named = async (title: string, file: string) => {
      const book = (await sendBookForm(owner.agent.post("/api/books"), { title, file: fixture(file) }).expect(201)).body as { id: number };
      const response = await stranger.agent.post(`/api/books/${book.id}/download`).expect(200);
      return response.headers["content-disposition"];
    };
    expect(await named("Informe anual.DOCX", "book.docx")).toBe('attachment; filename="Informe anual.docx"');
    expect(await named("Draft.pdf", "book.doc")).toBe("attachment; filename=Draft.doc");
  });

  it("answers 404 for a missing book and 400 for a bad id", async () => {
    await stranger.agent.post("/api/books/999999/download").expect(404);
    await stranger.agent.post("/api/books/x1/download").expect(400);
  });
});
