import { eq, sql } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogQuerySchema } from "../../shared/book-schemas.ts";
import { books, catalogRevision, users } from "../db/schema.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { type CatalogRequest, listCatalog, readCatalogRevision } from "./catalog-repository.ts";
import { RANKED_BOOKS, listCatalogPage, pageOf } from "./search-rankings.ts";

let testApp: TestApp;
let authorId: string;
const db = () => testApp.database.db;
const query = (params: Record<string, string | number | undefined>): CatalogRequest => ({
  ...catalogQuerySchema.parse(Object.fromEntries(Object.entries(params).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])))),
  showExplicit: false,
});

/** Books written straight into the database, as another server process or an operator would. */
async function insertBooks(count: number, title: (index: number) => string, extra: Partial<typeof books.$inferInsert> = {}) {
  const rows = Array.from({ length: count }, (_, index) => ({
    title: title(index),
    description: index % 3 === 0 ? "Un atlas de cartes anciennes." : "Maps.",
    genre: index % 2 === 0 ? "novela" : "historia",
    authorId,
    fileName: "atlas.pdf",
    filePath: `missing-${index}.pdf`,
    fileSize: 1000,
    mimeType: "application/pdf",
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index % 7)),
    ...extra,
  }));
  return (await db().insert(books).values(rows).returning({ id: books.id })).map((row) => row.id);
}

beforeAll(async () => {
  testApp = await createTestApp();
  authorId = (await signedInAgent(testApp.app, { firstName: "Mercator", lastName: "Ortelius" })).user.id;
  // More matches than a ranking keeps, with ties of rank and date, in two genres.
  await insertBooks(RANKED_BOOKS + 30, (index) => (index % 4 === 0 ? `Atlas atlas ${index}` : `Atlas ${index}`));
  await insertBooks(10, (index) => `Unrelated ${index}`);
});
afterAll(() => testApp.close());

/**
 * The page as the query alone answers it, and as listCatalogPage answers it, asked three times: by
 * its query (the first ask, when the search was not asked lately), ranked, then from the kept ranking.
 */
async function expectSamePage(params: Record<string, string | number | undefined>) {
  const asked = query(params);
  const expected = await listCatalog(db(), asked);
  for (let ask = 0; ask < 3; ask += 1) expect(await listCatalogPage(db(), asked)).toEqual(expected);
  return expected;
}

/** A change to the books that the catalog revision does not show: what only a kept ranking would miss. */
async function hiddenFromTheRevision(change: () => Promise<unknown>) {
  const [before] = await db().select().from(catalogRevision);
  await change();
  await db().update(catalogRevision).set({ revision: before!.revision });
}

describe("kept search rankings", () => {
  it.each([
    { search: "atlas" },
    { search: "atlas", offset: 20 },
    { search: "atlas", offset: RANKED_BOOKS - 20 },
    { search: "atlas", offset: RANKED_BOOKS - 10 },
    { search: "atlas", offset: RANKED_BOOKS + 20 },
    { search: "atlas", limit: 100, offset: 150 },
    { search: "atlas", genre: "novela", offset: 40 },
    { search: "atlas", genre: "historia", limit: 1 },
    { search: "ATLAS cartes" },
    { search: "atlsa" },
    { search: "nothing-matches-this" },
  ])("answers %o exactly as its query does", async (params) => {
    await expectSamePage(params);
  });

  it("answers the pages after a book (load more) exactly as its query does, within the ranking and past it", async () => {
    const ranked = await listCatalog(db(), query({ search: "atlas", limit: 100, offset: 100 }));
    for (const position of [0, 50, 90, 99]) await expectSamePage({ search: "atlas", after: ranked[position]!.id });
    const [unrelated] = await listCatalog(db(), query({ search: "unrelated", limit: 1 }));
    await expectSamePage({ search: "atlas", after: unrelated!.id });
    await expectSamePage({ search: "atlas", after: 999_999_999 });
  });

  it("ranks a search from its second ask on: the first is its page's query alone", async () => {
    const ids = await insertBooks(3, (index) => `Portolan ${index}`);
    const firstIds = async () => (await listCatalogPage(db(), query({ search: "portolan" }))).map((book) => book.id);
    const retitle = (id: number, title: string) => () => db().update(books).set({ title }).where(eq(books.id, id));
    try {
      await firstIds();
      await hiddenFromTheRevision(retitle(ids[0]!, "Portolan portolan"));
      // Nothing was kept of the first ask: the second is ranked now, and sees the change.
      expect((await firstIds())[0]).toBe(ids[0]);
      await hiddenFromTheRevision(retitle(ids[1]!, "Portolan portolan portolan"));
      // The second ask's ranking was kept: a change hidden from the revision does not show.
      expect((await firstIds())[0]).toBe(ids[0]);
    } finally {
      await db().update(catalogRevision).set({ revision: sql`${catalogRevision.revision} + 1` });
    }
    expect((await firstIds())[0]).toBe(ids[1]);
  });

  it("shows a change made outside this process at the next search: a new match, a retitled book, an unlisted one", async () => {
    const before = await expectSamePage({ search: "atlas" });
    const [best] = await insertBooks(1, () => "Atlas atlas atlas", { createdAt: new Date(Date.UTC(2026, 5, 1)) });
    expect((await expectSamePage({ search: "atlas" }))[0]!.id).toBe(best);

    await db().update(books).set({ title: "Renamed" }).where(eq(books.id, best!));
    expect(await expectSamePage({ search: "atlas" })).toEqual(before);

    await db().update(books).set({ isPublished: false }).where(eq(books.id, before[0]!.id));
    expect((await expectSamePage({ search: "atlas" })).map((book) => book.id)).not.toContain(before[0]!.id);
    await db().update(books).set({ isPublished: true }).where(eq(books.id, before[0]!.id));
  });

  it("finds an author's books under their new name as soon as they rename", async () => {
    expect(await expectSamePage({ search: "gerardus" })).toEqual([]);
    await db().update(users).set({ firstName: "Gerardus" }).where(eq(users.id, authorId));
    expect(await expectSamePage({ search: "gerardus", limit: 100 })).toHaveLength(100);
  });

  it("shows download counts and ratings as they are now, without ranking the search again", async () => {
    const [first] = await listCatalogPage(db(), query({ search: "atlas" }));
    const revision = await readCatalogRevision(db());
    await db()
      .update(books)
      .set({ downloadCount: sql`${books.downloadCount} + 7`, rating: "4.50", reviewCount: 2 })
      .where(eq(books.id, first!.id));
    expect(await readCatalogRevision(db())).toBe(revision);
    const [again] = await listCatalogPage(db(), query({ search: "atlas" }));
    expect(again).toMatchObject({ id: first!.id, downloadCount: first!.downloadCount + 7, rating: "4.50", reviewCount: 2 });
  });

  it("moves the catalog revision with every change that a search could see, in the writer's transaction", async () => {
    const revisionAfter = async (change: () => Promise<unknown>) => {
      const before = await readCatalogRevision(db());
      await change();
      return (await readCatalogRevision(db())) - before;
    };
    const [id] = await insertBooks(1, () => "Revision test");
    const book = eq(books.id, id!);
    expect(await revisionAfter(() => db().update(books).set({ description: "Changed" }).where(book))).toBe(1);
    expect(await revisionAfter(() => db().update(books).set({ genre: "poesia" }).where(book))).toBe(1);
    expect(await revisionAfter(() => db().update(books).set({ deletedAt: new Date() }).where(book))).toBe(1);
    expect(await revisionAfter(() => db().update(books).set({ downloadCount: 3, firstDownloadDate: new Date() }).where(book))).toBe(0);
    expect(
      await revisionAfter(() =>
        db()
          .transaction(async (tx) => {
            await tx.update(books).set({ title: "Never seen" }).where(book);
            tx.rollback();
          })
          .catch(() => undefined),
      ),
    ).toBe(0);
  });

  it("finds a book uploaded through the API right after the same search came back empty", async () => {
    const author = await signedInAgent(testApp.app);
    const search = () => request(testApp.app).get("/api/books?search=zanzibar").expect(200);
    expect((await search()).body).toEqual([]);
    const uploaded = await sendBookForm(author.agent.post("/api/books"), { title: "Zanzibar Nights", coverImage: null }).expect(201);
    expect((await search()).body.map((book: { id: number }) => book.id)).toEqual([uploaded.body.id]);
    await author.agent.delete(`/api/books/${uploaded.body.id}`).expect(204);
    expect((await search()).body).toEqual([]);
  });
});

describe("the page of a ranking", () => {
  const full = { ids: Array.from({ length: RANKED_BOOKS }, (_, index) => index + 1), revision: 1 };
  const short = { ids: [5, 6, 7], revision: 1 };

  it("slices pages by offset and after a book, and says when only the query can tell", () => {
    expect(pageOf(full, { offset: 20, limit: 3 })).toEqual([21, 22, 23]);
    expect(pageOf(full, { offset: 0, limit: 2, after: 10 })).toEqual([11, 12]);
    expect(pageOf(full, { offset: RANKED_BOOKS - 1, limit: 2 })).toBeUndefined();
    expect(pageOf(full, { offset: 0, limit: 1, after: RANKED_BOOKS })).toBeUndefined();
    expect(pageOf(full, { offset: 0, limit: 1, after: 999 })).toBeUndefined();
  });

  it("answers any page of a ranking that holds every match", () => {
    expect(pageOf(short, { offset: 2, limit: 20 })).toEqual([7]);
    expect(pageOf(short, { offset: 40, limit: 20 })).toEqual([]);
    expect(pageOf(short, { offset: 0, limit: 20, after: 7 })).toEqual([]);
  });
});
