import { and, eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { books, shelfEntries, users } from "../db/schema.ts";

type Agent = Awaited<ReturnType<typeof signedInAgent>>;

let testApp: TestApp;
let author: Agent;
let reader: Agent;
let other: Agent;
let admin: Agent;
let bookId: number;
let secondBookId: number;

async function publish(form: Parameters<typeof sendBookForm>[1] = {}): Promise<number> {
  return (await sendBookForm(author.agent.post("/api/books"), { coverImage: null, ...form }).expect(201)).body.id as number;
}

const FACTS = "The shelves' tests decide on a book.";
const decideBook = (id: number, action: "hide" | "remove" | "restore") =>
  admin.agent.post(`/api/admin/books/${id}/moderation`).send({ action, ground: "terms-spam", basis: "own-initiative", facts: FACTS }).expect(201);

async function shelfOf(agent: Agent, id: number): Promise<string | undefined> {
  const [row] = await testApp.database.db
    .select({ shelf: shelfEntries.shelf })
    .from(shelfEntries)
    .where(and(eq(shelfEntries.userId, agent.user.id), eq(shelfEntries.bookId, id)));
  return row?.shelf;
}

beforeAll(async () => {
  testApp = await createTestApp();
  author = await signedInAgent(testApp.app);
  reader = await signedInAgent(testApp.app);
  other = await signedInAgent(testApp.app);
  admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL });
  await testApp.proveEmail(TEST_ADMIN_EMAIL);
  bookId = await publish({ title: "The first shelf" });
  secondBookId = await publish({ title: "The second shelf" });
  await testApp.coversDone();
});
afterAll(() => testApp.close());

describe("PUT /api/shelves/:bookId and DELETE", () => {
  it("refuses a visitor with 401", async () => {
    await request(testApp.app).put(`/api/shelves/${bookId}`).send({ shelf: "want" }).expect(401);
    await request(testApp.app).delete(`/api/shelves/${bookId}`).expect(401);
    await request(testApp.app).get("/api/shelves").expect(401);
  });

  it.each(["favourites", "READ", "", null, 3])("refuses the shelf %j with 400 naming it", async (shelf) => {
    const response = await reader.agent.put(`/api/shelves/${bookId}`).send({ shelf }).expect(400);
    expect(response.body.fields.shelf).toBe("validation.shelfUnknown");
    expect(await shelfOf(reader, bookId)).toBeUndefined();
  });

  it("refuses a bad book id with 400 and an unknown book with 404", async () => {
    const bad = await reader.agent.put("/api/shelves/abc").send({ shelf: "want" }).expect(400);
    expect(bad.body.fields.bookId).toBe("validation.bookIdInvalid");
    await reader.agent.put("/api/shelves/0").send({ shelf: "want" }).expect(400);
    await reader.agent.put("/api/shelves/999999").send({ shelf: "want" }).expect(404);
  });

  it("puts a book on one shelf at a time, moves it, and takes it off", async () => {
    expect((await reader.agent.put(`/api/shelves/${bookId}`).send({ shelf: "want" }).expect(200)).body).toEqual({ bookId, shelf: "want" });
    await reader.agent.put(`/api/shelves/${bookId}`).send({ shelf: "read" }).expect(200);
    expect(await shelfOf(reader, bookId)).toBe("read");
    expect((await reader.agent.get("/api/shelves").expect(200)).body).toEqual({ shelves: { [bookId]: "read" } });
    await reader.agent.delete(`/api/shelves/${bookId}`).expect(204);
    expect(await shelfOf(reader, bookId)).toBeUndefined();
    const again = await reader.agent.delete(`/api/shelves/${bookId}`).expect(404);
    expect(again.body.code).toBe("not_found");
  });

  it("keeps each reader's shelves their own", async () => {
    await reader.agent.put(`/api/shelves/${secondBookId}`).send({ shelf: "want" }).expect(200);
    await other.agent.put(`/api/shelves/${secondBookId}`).send({ shelf: "read" }).expect(200);
    expect(await shelfOf(reader, secondBookId)).toBe("want");
    expect((await other.agent.get("/api/shelves").expect(200)).body).toEqual({ shelves: { [secondBookId]: "read" } });
    // Another reader's taking off is theirs alone.
    await other.agent.delete(`/api/shelves/${secondBookId}`).expect(204);
    expect(await shelfOf(reader, secondBookId)).toBe("want");
    await reader.agent.delete(`/api/shelves/${secondBookId}`).expect(204);
  });

  it("shelves only listed books: not an unpublished, hidden or removed one", async () => {
    const unpublished = await publish({ title: "Draft" });
    await testApp.database.db.update(books).set({ isPublished: false }).where(eq(books.id, unpublished));
    await reader.agent.put(`/api/shelves/${unpublished}`).send({ shelf: "want" }).expect(404);
    // Not even its author shelves a book no one else may see.
    await author.agent.put(`/api/shelves/${unpublished}`).send({ shelf: "want" }).expect(404);
    const hidden = await publish({ title: "Under review" });
    await decideBook(hidden, "hide");
    await reader.agent.put(`/api/shelves/${hidden}`).send({ shelf: "want" }).expect(404);
    const removed = await publish({ title: "Removed" });
    await decideBook(removed, "remove");
    await reader.agent.put(`/api/shelves/${removed}`).send({ shelf: "want" }).expect(410);
    expect(await shelfOf(reader, unpublished)).toBeUndefined();
  });

  it("shelves an explicit book only for a reader who chose to see explicit books", async () => {
    const explicit = await publish({ title: "Explicit", contentRating: "explicit" });
    const refused = await reader.agent.put(`/api/shelves/${explicit}`).send({ shelf: "want" }).expect(403);
    expect(refused.body.code).toBe("explicit_not_chosen");
    const chooser = await signedInAgent(testApp.app);
    await chooser.agent.put("/api/account/explicit-books").send({ showExplicit: true }).expect(200);
    await chooser.agent.put(`/api/shelves/${explicit}`).send({ shelf: "want" }).expect(200);
  });
});

describe("the hour's shelving limit", () => {
  it("counts putting on and taking off together, answers 429 shelving_limit with Retry-After, and leaves the shelf as it was", async () => {
    const limited = await createTestApp({ RATE_LIMIT_SHELVINGS_PER_ACCOUNT: "2" });
    try {
      const writer = await signedInAgent(limited.app);
      const id = (await sendBookForm(writer.agent.post("/api/books"), { coverImage: null }).expect(201)).body.id as number;
      const shelver = await signedInAgent(limited.app);
      await shelver.agent.put(`/api/shelves/${id}`).send({ shelf: "want" }).expect(200);
      await shelver.agent.delete(`/api/shelves/${id}`).expect(204);
      const refused = await shelver.agent.put(`/api/shelves/${id}`).send({ shelf: "read" }).expect(429);
      expect(refused.body.code).toBe("shelving_limit");
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect((await shelver.agent.get("/api/shelves").expect(200)).body).toEqual({ shelves: {} });
      // Opening the book still moves it to Reading: that is reading, not shelving.
      await shelver.agent.post(`/api/books/${id}/read`).expect(200);
      expect((await shelver.agent.get("/api/shelves").expect(200)).body).toEqual({ shelves: { [id]: "reading" } });
      // Another reader has an hour of their own.
      await (await signedInAgent(limited.app)).agent.put(`/api/shelves/${id}`).send({ shelf: "want" }).expect(200);
    } finally {
      await limited.close();
    }
  });
});

describe("opening a book moves it to Reading", () => {
  it("from no shelf and from Want to read, never back from Read", async () => {
    const opener = await signedInAgent(testApp.app);
    await opener.agent.post(`/api/books/${bookId}/read`).expect(200);
    expect(await shelfOf(opener, bookId)).toBe("reading");
    await opener.agent.put(`/api/shelves/${secondBookId}`).send({ shelf: "want" }).expect(200);
    await opener.agent.post(`/api/books/${secondBookId}/read`).expect(200);
    expect(await shelfOf(opener, secondBookId)).toBe("reading");
    await opener.agent.put(`/api/shelves/${bookId}`).send({ shelf: "read" }).expect(200);
    await opener.agent.post(`/api/books/${bookId}/read`).expect(200);
    expect(await shelfOf(opener, bookId)).toBe("read");
  });

  it("leaves an author's own book off their shelves", async () => {
    await author.agent.post(`/api/books/${bookId}/read`).expect(200);
    expect(await shelfOf(author, bookId)).toBeUndefined();
  });
});

describe("a shelf's page, My books and Continue reading", () => {
  it("pages a shelf, the latest shelved first, with listed books only", async () => {
    const shelver = await signedInAgent(testApp.app);
    await shelver.agent.put(`/api/shelves/${bookId}`).send({ shelf: "want" }).expect(200);
    await shelver.agent.put(`/api/shelves/${secondBookId}`).send({ shelf: "want" }).expect(200);
    const page = (await shelver.agent.get("/api/my-books/shelves/want").expect(200)).body;
    expect(page).toMatchObject({ total: 2, page: 1, pageSize: 24 });
    expect(page.items.map((item: { book: { id: number } }) => item.book.id)).toEqual([secondBookId, bookId]);
    // A book hidden later leaves the list, and comes back when restored.
    await decideBook(secondBookId, "hide");
    expect((await shelver.agent.get("/api/my-books/shelves/want").expect(200)).body.total).toBe(1);
    await decideBook(secondBookId, "restore");
    expect((await shelver.agent.get("/api/my-books/shelves/reading").expect(200)).body).toMatchObject({ items: [], total: 0 });
    expect((await shelver.agent.get("/api/my-books/shelves/want?page=2").expect(200)).body.items).toEqual([]);
  });

  it("refuses an unknown shelf and a bad page with 400", async () => {
    expect((await reader.agent.get("/api/my-books/shelves/favourites").expect(400)).body.fields.shelf).toBe("validation.shelfUnknown");
    for (const page of ["0", "-1", "1.5", "abc", "501"]) {
      expect((await reader.agent.get(`/api/my-books/shelves/want?page=${page}`).expect(400)).body.fields.page).toBe("validation.pageInvalid");
    }
    await reader.agent.get("/api/my-books/taken?page=0").expect(400);
    await reader.agent.get("/api/my-books/continue-reading?bookId=abc").expect(400);
  });

  it("lists the books taken, each once, with every way it was taken, newest first", async () => {
    const taker = await signedInAgent(testApp.app);
    await taker.agent.post(`/api/books/${bookId}/download`).expect(200);
    await taker.agent.post(`/api/books/${secondBookId}/read`).expect(200);
    await taker.agent.post(`/api/books/${bookId}/download`).expect(200);
    const page = (await taker.agent.get("/api/my-books/taken").expect(200)).body;
    expect(page.total).toBe(2);
    expect(page.items.map((item: { book: { id: number }; channels: string[] }) => [item.book.id, item.channels])).toEqual([
      [bookId, ["download"]],
      [secondBookId, ["read"]],
    ]);
    expect((await other.agent.get("/api/my-books/taken").expect(200)).body.total).toBe(0);
  });

  it("answers where the reader was, newest first, until the book is on Read", async () => {
    const continuer = await signedInAgent(testApp.app);
    await continuer.agent.post(`/api/books/${bookId}/read`).expect(200);
    await continuer.agent.put(`/api/books/${bookId}/read/position`).send({ page: 1, percentage: 0.5, format: "pdf" }).expect(204);
    await continuer.agent.post(`/api/books/${secondBookId}/read`).expect(200);
    await continuer.agent.put(`/api/books/${secondBookId}/read/position`).send({ page: 1, percentage: 0.34, format: "epub" }).expect(204);
    const all = (await continuer.agent.get("/api/my-books/continue-reading").expect(200)).body;
    expect(all.items.map((item: { book: { id: number }; page: number; percentage: number; format: string }) => [item.book.id, item.page, item.percentage, item.format])).toEqual([
      [secondBookId, 1, expect.closeTo(0.34, 5), "epub"],
      [bookId, 1, 0.5, "pdf"],
    ]);
    const one = (await continuer.agent.get(`/api/my-books/continue-reading?bookId=${bookId}`).expect(200)).body;
    expect(one.items).toHaveLength(1);
    await continuer.agent.put(`/api/shelves/${bookId}`).send({ shelf: "read" }).expect(200);
    expect((await continuer.agent.get(`/api/my-books/continue-reading?bookId=${bookId}`).expect(200)).body.items).toEqual([]);
    expect((await other.agent.get("/api/my-books/continue-reading").expect(200)).body.items).toEqual([]);
  });

  it("refuses a visitor with 401", async () => {
    await request(testApp.app).get("/api/my-books/shelves/want").expect(401);
    await request(testApp.app).get("/api/my-books/taken").expect(401);
    await request(testApp.app).get("/api/my-books/continue-reading").expect(401);
  });
});

describe("public shelves at /readers/{username}", () => {
  it("answers 404 while they are off, and the username and listed books once on; nothing else", async () => {
    const owner = await signedInAgent(testApp.app);
    await owner.agent.put(`/api/shelves/${bookId}`).send({ shelf: "read" }).expect(200);
    const explicit = await publish({ title: "Explicit on a shelf", contentRating: "explicit" });
    await owner.agent.put("/api/account/explicit-books").send({ showExplicit: true }).expect(200);
    await owner.agent.put(`/api/shelves/${explicit}`).send({ shelf: "want" }).expect(200);
    await request(testApp.app).get(`/api/readers/${owner.account.username}`).expect(404);
    await owner.agent.get(`/api/readers/${owner.account.username}`).expect(404);

    const on = await owner.agent.put("/api/account/shelves-public").send({ shelvesPublic: true }).expect(200);
    expect(on.body.shelvesPublic).toBe(true);
    const page = (await request(testApp.app).get(`/api/readers/${owner.account.username.toUpperCase()}`).expect(200)).body;
    expect(Object.keys(page).sort()).toEqual(["shelves", "username"]);
    expect(page.username).toBe(owner.account.username);
    expect(page.shelves.read.books.map((book: { id: number }) => book.id)).toEqual([bookId]);
    // The explicit book is left out for a visitor, and shown to a reader who chose explicit books.
    expect(page.shelves.want).toEqual({ books: [], total: 0 });
    expect((await owner.agent.get(`/api/readers/${owner.account.username}`).expect(200)).body.shelves.want.total).toBe(1);
    expect(JSON.stringify(page)).not.toContain(owner.account.email);

    await owner.agent.put("/api/account/shelves-public").send({ shelvesPublic: "yes" }).expect(400);
    await owner.agent.put("/api/account/shelves-public").send({ shelvesPublic: false }).expect(200);
    await request(testApp.app).get(`/api/readers/${owner.account.username}`).expect(404);
  });

  it("answers 404 for an unknown, suspended or deleted reader, 400 for a malformed name", async () => {
    await request(testApp.app).get("/api/readers/nobody_here_at_all").expect(404);
    await request(testApp.app).get(`/api/readers/${encodeURIComponent("a b@c")}`).expect(400);
    const suspended = await signedInAgent(testApp.app);
    await suspended.agent.put("/api/account/shelves-public").send({ shelvesPublic: true }).expect(200);
    await request(testApp.app).get(`/api/readers/${suspended.account.username}`).expect(200);
    await testApp.database.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.user.id));
    await request(testApp.app).get(`/api/readers/${suspended.account.username}`).expect(404);
    const deleted = await signedInAgent(testApp.app);
    await deleted.agent.put("/api/account/shelves-public").send({ shelvesPublic: true }).expect(200);
    await deleted.agent.delete("/api/account").send({ currentPassword: deleted.account.password }).expect(204);
    await request(testApp.app).get(`/api/readers/${deleted.account.username}`).expect(404);
  });
});

describe("the account's data", () => {
  it("exports the shelves and the public switch, and deletion removes the shelves", async () => {
    const leaving = await signedInAgent(testApp.app);
    await leaving.agent.put(`/api/shelves/${bookId}`).send({ shelf: "reading" }).expect(200);
    const exported = JSON.parse((await leaving.agent.get("/api/account/export").buffer(true).expect(200)).text as string);
    expect(exported.profile.shelvesPublic).toBe(false);
    expect(exported.shelves).toEqual([{ bookId, bookTitle: "The first shelf", shelf: "reading", shelvedAt: expect.any(String) }]);
    await leaving.agent.delete("/api/account").send({ currentPassword: leaving.account.password }).expect(204);
    expect(await shelfOf(leaving, bookId)).toBeUndefined();
  });
});
