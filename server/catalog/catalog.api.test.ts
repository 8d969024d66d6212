import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";

let testApp: TestApp;
const ids: Record<string, number> = {};

beforeAll(async () => {
  testApp = await createTestApp();
  const lucia = await signedInAgent(testApp.app, { firstName: "Lucía", lastName: "Fernández" });
  const marc = await signedInAgent(testApp.app, { firstName: "Marc", lastName: "Dupont" });
  const books = [
    [lucia, { title: "Mañana será otro día", description: "Una historia de amor.", genre: "romance", language: "es" }],
    [lucia, { title: "El misterio del faro", description: "Ficción policíaca en la costa.", genre: "misterio", language: "es" }],
    [marc, { title: "Le Petit Café", description: "Une histoire de Paris.", genre: "novela", language: "fr" }],
    [marc, { title: "Business Basics", description: "How to start a company.", genre: "negocios", language: "en" }],
    [marc, { title: "Deleted Book", description: "Gone.", genre: "negocios", language: "en" }],
  ] as const;
  for (const [author, form] of books) {
    const response = await sendBookForm(author.agent.post("/api/books"), { ...form, coverImage: null }).expect(201);
    ids[form.title] = response.body.id;
  }
  await marc.agent.delete(`/api/books/${ids["Deleted Book"]}`).expect(204);
});
afterAll(() => testApp.close());

const titlesFor = async (query: string) =>
  ((await request(testApp.app).get(`/api/books${query}`).expect(200)).body as Array<{ title: string }>).map((book) => book.title);
const idsFor = async (query: string) =>
  ((await request(testApp.app).get(`/api/books${query}`).expect(200)).body as Array<{ id: number }>).map((book) => book.id);

describe("GET /api/books", () => {
  it("lists published, live books newest first, without any e-mail", async () => {
    const response = await request(testApp.app).get("/api/books").expect(200);
    expect(response.body.map((book: { title: string }) => book.title)).toEqual([
      "Business Basics",
      "Le Petit Café",
      "El misterio del faro",
      "Mañana será otro día",
    ]);
    expect(JSON.stringify(response.body)).not.toMatch(/@|email/i);
    expect(response.body[0].author).toEqual({ id: expect.any(String), firstName: "Marc", lastName: "Dupont", displayName: "Marc Dupont" });
  });

  it.each([
    ["?search=manana", ["Mañana será otro día"]],
    ["?search=MAÑANA", ["Mañana será otro día"]],
    ["?search=ficcion", ["El misterio del faro"]],
    ["?search=cafe", ["Le Petit Café"]],
    ["?search=man", ["Mañana será otro día"]],
    ["?search=misterio%20del%20f", ["El misterio del faro"]],
    ["?search=fernandez", ["El misterio del faro", "Mañana será otro día"]],
    ["?search=marc%20dupont%20business", ["Business Basics"]],
    ["?search=deleted", []],
    ["?search=%21%21%21", []],
  ])("searches %s accent- and case-insensitively", async (query, expected) => {
    expect((await titlesFor(query)).sort()).toEqual([...expected].sort());
  });

  it("ranks a title match above a description match", async () => {
    expect(await titlesFor("?search=historia")).toEqual(["Mañana será otro día"]);
    const titles = await titlesFor("?search=misterio");
    expect(titles[0]).toBe("El misterio del faro");
  });

  it("finds a title despite a typo through trigram similarity", async () => {
    expect(await titlesFor("?search=busines%20basiks")).toContain("Business Basics");
  });

  it("filters by genre key or legacy value, and 'all' means every genre", async () => {
    expect(await titlesFor("?genre=misterio")).toEqual(["El misterio del faro"]);
    expect(await titlesFor("?genre=negocios")).toEqual(["Business Basics"]);
    expect(await titlesFor("?genre=all")).toHaveLength(4);
  });

  it("sorts by title, newest, downloads and rating", async () => {
    expect(await titlesFor("?sort=title")).toEqual(["Business Basics", "El misterio del faro", "Le Petit Café", "Mañana será otro día"]);
    expect((await titlesFor("?sort=newest"))[0]).toBe("Business Basics");
    expect(await titlesFor("?sort=downloads")).toHaveLength(4);
    expect(await titlesFor("?sort=rating")).toHaveLength(4);
  });

  it("pages with limit and offset", async () => {
    const all = await titlesFor("?sort=title");
    expect(await titlesFor("?sort=title&limit=2")).toEqual(all.slice(0, 2));
    expect(await titlesFor("?sort=title&limit=2&offset=2")).toEqual(all.slice(2, 4));
    expect(await titlesFor("?sort=title&offset=10")).toEqual([]);
  });

  it.each(["", "&sort=newest", "&sort=title", "&sort=downloads", "&sort=rating", "&search=ma", "&genre=misterio"])(
    "pages after a book exactly as the whole list continues (%s)",
    async (filters) => {
      const all = await idsFor(`?limit=100${filters}`);
      for (const [index, id] of all.entries()) {
        expect(await idsFor(`?limit=2&after=${id}${filters}`)).toEqual(all.slice(index + 1, index + 3));
      }
      expect(await idsFor("?after=999999")).toEqual([]);
    },
  );

  it.each([
    ["?limit=0", "limit"],
    ["?limit=101", "limit"],
    ["?limit=abc", "limit"],
    ["?limit=-1", "limit"],
    ["?limit=1.5", "limit"],
    ["?offset=-5", "offset"],
    ["?offset=1e3", "offset"],
    ["?after=0", "after"],
    ["?after=abc", "after"],
    ["?genre=poetry", "genre"],
    ["?sort=price", "sort"],
    [`?search=${"x".repeat(201)}`, "search"],
    ["?limit=1&limit=2", "limit"],
  ])("refuses %s with 400 naming %s", async (query, field) => {
    const response = await request(testApp.app).get(`/api/books${query}`).expect(400);
    expect(response.body.code).toBe("validation_failed");
    expect(Object.keys(response.body.fields)).toContain(field);
  });
});

describe("GET /api/books/:id", () => {
  it("answers a live book, 404 for a deleted or missing one, 400 for a bad id", async () => {
    const book = await request(testApp.app).get(`/api/books/${ids["Le Petit Café"]}`).expect(200);
    expect(book.body).toMatchObject({ title: "Le Petit Café", language: "fr", genre: "novela" });
    await request(testApp.app).get(`/api/books/${ids["Deleted Book"]}`).expect(404);
    await request(testApp.app).get("/api/books/999999").expect(404);
    for (const bad of ["abc", "1.5", "-1", "0", "99999999999"]) {
      const response = await request(testApp.app).get(`/api/books/${bad}`).expect(400);
      expect(response.body.fields).toEqual({ id: "validation.bookIdInvalid" });
    }
  });
});

describe("public and author statistics", () => {
  it("counts listed books, their authors and downloads", async () => {
    const response = await request(testApp.app).get("/api/stats/public").expect(200);
    expect(response.body).toEqual({ totalBooks: 4, totalAuthors: 2, totalDownloads: 0 });
  });

  it("lists an author's live books and answers 400/404 for bad authors", async () => {
    const book = await request(testApp.app).get(`/api/books/${ids["Le Petit Café"]}`).expect(200);
    const authorBooks = await request(testApp.app).get(`/api/authors/${book.body.author.id}/books`).expect(200);
    expect(authorBooks.body.map((b: { title: string }) => b.title)).toEqual(["Business Basics", "Le Petit Café"]);
    await request(testApp.app).get("/api/authors/not-a-uuid/books").expect(400);
    const stats = await request(testApp.app).get(`/api/authors/${book.body.author.id}/stats`).expect(200);
    expect(stats.body.totalDownloads).toBe(0);
    expect(stats.body.monthlyDownloads).toHaveLength(12);
    await request(testApp.app).get("/api/authors/00000000-0000-4000-8000-000000000000/stats").expect(404);
  });
});
