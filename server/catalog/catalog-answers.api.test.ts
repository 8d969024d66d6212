import { eq, sql } from "drizzle-orm";
import request from "supertest";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cardColumns } from "../books/books-repository.ts";
import { books, users } from "../db/schema.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { CATALOG_ANSWER_LIMITS } from "./catalog-answers.ts";
import { readCardRevision } from "./catalog-repository.ts";

/*
 * Kept catalog answers (docs/decisions/0077). Changes written straight into the database stand for
 * another server process or an operator: nothing in this process is told of them.
 */

let testApp: TestApp;
type Author = Awaited<ReturnType<typeof signedInAgent>>;
let author: Author;
let reader: Author;
const db = () => testApp.database.db;

beforeAll(async () => {
  testApp = await createTestApp();
  author = await signedInAgent(testApp.app, { firstName: "Odile", lastName: "Quentin" });
  reader = await signedInAgent(testApp.app);
});
afterAll(() => testApp.close());
afterEach(() => vi.restoreAllMocks());

interface Card {
  id: number;
  title: string;
  coverImageUrl: string | null;
  downloadCount: number;
  rating: number;
  reviewCount: number;
  author: { displayName: string | null };
}

const page = async (query: string) => (await request(testApp.app).get(`/api/books${query}`).expect(200)).body as Card[];
const cardOf = async (query: string, id: number) => (await page(query)).find((card) => card.id === id);

/** A book of the author's, uploaded through the API, its cover (if drawn) in place; `word` makes it the only match of a search. */
async function upload(word: string, coverImage: null | undefined = undefined) {
  const response = await sendBookForm(author.agent.post("/api/books"), { title: `${word} Tide`, coverImage }).expect(201);
  await testApp.coversDone();
  return response.body.id as number;
}

/** The clock of kept answers moved on by the time to live, as if that long had passed. */
function afterTimeToLive() {
  const now = performance.now.bind(performance);
  vi.spyOn(performance, "now").mockImplementation(() => now() + CATALOG_ANSWER_LIMITS.ttlMs);
}

describe("kept catalog answers", () => {
  it("answers a repeated search from the kept page: a count written meanwhile shows once the time to live has passed", async () => {
    const id = await upload("Quokka");
    // The first ask keeps nothing (docs/decisions/0081); the second keeps the page.
    await request(testApp.app).get("/api/books?search=quokka").expect(200);
    const first = await request(testApp.app).get("/api/books?search=quokka").expect(200);
    await db().update(books).set({ downloadCount: 41 }).where(eq(books.id, id));
    const again = await request(testApp.app).get("/api/books?search=quokka").expect(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    // The same query, written otherwise, is the same kept answer.
    expect((await cardOf(`?search=quokka&offset=0&limit=20&genre=all`, id))!.downloadCount).toBe(0);
    afterTimeToLive();
    expect((await cardOf("?search=quokka", id))!.downloadCount).toBe(41);
  });

  it("shows a counted download within the time to live, and at once after any other change to the page", async () => {
    const id = await upload("Numbat");
    expect((await cardOf("?search=numbat", id))!.downloadCount).toBe(0);
    expect((await cardOf("?search=numbat", id))!.downloadCount).toBe(0);
    await reader.agent.post(`/api/books/${id}/download`).expect(200);
    expect((await cardOf("?search=numbat", id))!.downloadCount).toBe(0);
    await reader.agent.post("/rate").send({ bookId: id, userId: reader.user.id, rating: 4 }).expect(201);
    expect(await cardOf("?search=numbat", id)).toMatchObject({ downloadCount: 1, rating: 4, reviewCount: 1 });
  });

  it("finds a book published, edited or deleted through the API with the very next request", async () => {
    expect(await page("?search=wombat")).toEqual([]);
    const id = await upload("Wombat");
    expect((await page("?search=wombat")).map((card) => card.id)).toEqual([id]);
    await sendBookForm(author.agent.put(`/api/books/${id}`), { title: "Wallaby Tide", file: null, coverImage: null }).expect(200);
    expect(await page("?search=wombat")).toEqual([]);
    expect((await cardOf("?search=wallaby", id))!.title).toBe("Wallaby Tide");
    await author.agent.delete(`/api/books/${id}`).expect(204);
    expect(await page("?search=wallaby")).toEqual([]);
  });

  it("leaves out a book hidden from another process, and shows its author's new name", async () => {
    const id = await upload("Dingo");
    const first = await page("?genre=novela&sort=downloads&limit=100");
    expect(first.map((card) => card.id)).toContain(id);
    await db().update(users).set({ firstName: "Ondine" }).where(eq(users.id, author.user.id));
    expect((await cardOf("?genre=novela&sort=downloads&limit=100", id))!.author.displayName).toBe("Ondine Quentin");
    await db().update(books).set({ isPublished: false }).where(eq(books.id, id));
    expect((await page("?genre=novela&sort=downloads&limit=100")).map((card) => card.id)).not.toContain(id);
  });

  it("shows a cover drawn by another process with the next request", async () => {
    const id = await upload("Kiwi", null);
    const drawn = (await cardOf("?search=kiwi", id))!.coverImageUrl;
    expect(drawn).toEqual(expect.any(String));
    await db().update(books).set({ coverImageUrl: null, coverSource: null }).where(eq(books.id, id));
    expect((await cardOf("?search=kiwi", id))!.coverImageUrl).toBeNull();
    const other = testApp.anotherProcess();
    try {
      other.coverQueue.add(id);
      await other.coverQueue.idle();
    } finally {
      other.close();
    }
    expect((await cardOf("?search=kiwi", id))!.coverImageUrl).toEqual(expect.any(String));
  });

  it("answers 304 to a kept answer's ETag until a change, then the new page", async () => {
    const id = await upload("Emu");
    const first = await request(testApp.app).get("/api/books?search=emu").expect(200);
    await request(testApp.app).get("/api/books?search=emu").set("If-None-Match", first.headers.etag!).expect(304);
    await db().update(books).set({ title: "Emu Dawn" }).where(eq(books.id, id));
    const changed = await request(testApp.app).get("/api/books?search=emu").set("If-None-Match", first.headers.etag!).expect(200);
    expect(changed.body[0].title).toBe("Emu Dawn");
  });

  it("keeps each reader language's order of titles apart", async () => {
    await upload("Ñandú");
    await upload("Nutria");
    const titles = async (language: string) =>
      (await request(testApp.app).get("/api/books?sort=title&search=tide&limit=100").set("Accept-Language", language).expect(200)).body
        .map((card: Card) => card.title)
        .filter((title: string) => /^(Ñandú|Nutria) /.test(title));
    expect(await titles("en")).toEqual(["Ñandú Tide", "Nutria Tide"]);
    expect(await titles("es")).toEqual(["Nutria Tide", "Ñandú Tide"]);
  });

  it.each(["?limit=0", "?limit=abc", "?sort=loudest", "?genre=nonsense", "?language=xx", "?offset=-1", `?search=${"a".repeat(300)}`])(
    "still refuses %s with 400 once pages are kept",
    async (query) => {
      await page("?search=tide");
      await request(testApp.app).get(`/api/books${query}`).expect(400);
    },
  );
});

describe("the card revision", () => {
  it("moves with every column a card shows but the id, the download count and the last change", async () => {
    const result = await db().execute(sql`
      select distinct a.attname as name from pg_trigger t join pg_attribute a on a.attrelid = t.tgrelid and a.attnum = any(t.tgattr)
      where t.tgname in ('books_catalog_changed', 'books_cards_changed')`);
    const watched = (result as unknown as { rows: Array<{ name: string }> }).rows.map((row) => row.name);
    const shown = Object.values(cardColumns).filter((column) => column.table === books).map((column) => column.name);
    expect(shown.filter((name) => !watched.includes(name)).sort()).toEqual(["download_count", "id", "updated_at"]);
  });

  it("moves in the writer's transaction with a rating, a cover or a page count, and not with a counted download", async () => {
    const id = await upload("Revision");
    const book = eq(books.id, id);
    const movedBy = async (change: () => Promise<unknown>) => {
      const before = await readCardRevision(db());
      await change();
      return (await readCardRevision(db())) - before;
    };
    for (const change of [{ rating: "3.50", reviewCount: 2 }, { coverImageUrl: "covers/other.webp" }, { pageCount: 12 }, { language: "fr" }]) {
      expect(await movedBy(() => db().update(books).set(change).where(book))).toBeGreaterThan(0);
    }
    expect(await movedBy(() => db().update(books).set({ downloadCount: 3, firstDownloadDate: new Date() }).where(book))).toBe(0);
    expect(
      await movedBy(() =>
        db()
          .transaction(async (tx) => {
            await tx.update(books).set({ rating: "1.00" }).where(book);
            tx.rollback();
          })
          .catch(() => undefined),
      ),
    ).toBe(0);
  });
});
