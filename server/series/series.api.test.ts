import { eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BookForm, sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { bookTags, books, catalogRevision } from "../db/schema.ts";

/** Series and tags (docs/product.md#series-and-tags). */

let testApp: TestApp;
let author: Awaited<ReturnType<typeof signedInAgent>>;
let other: Awaited<ReturnType<typeof signedInAgent>>;
let reader: Awaited<ReturnType<typeof signedInAgent>>;

beforeAll(async () => {
  testApp = await createTestApp();
  author = await signedInAgent(testApp.app);
  other = await signedInAgent(testApp.app);
  reader = await signedInAgent(testApp.app);
});
afterAll(async () => {
  await testApp.coversDone();
  await testApp.close();
});

async function newSeries(agent = author.agent, title = "The Long Road", description = "Three books of walking.") {
  return (await agent.post("/api/series").send({ title, description }).expect(201)).body as { id: number; title: string };
}

function upload(form: BookForm, agent = author.agent) {
  return sendBookForm(agent.post("/api/books"), { coverImage: null, ...form });
}

async function uploaded(form: BookForm, agent = author.agent): Promise<number> {
  const response = await upload(form, agent);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return (response.body as { id: number }).id;
}

describe("an author's series", () => {
  it("creates, lists, renames, describes and deletes a series; its books stay, in no series", async () => {
    const created = await newSeries();
    expect(created).toMatchObject({ title: "The Long Road", description: "Three books of walking.", bookCount: 0 });
    const bookId = await uploaded({ title: "First steps", seriesId: String(created.id), seriesVolume: "1" });
    const listed = await author.agent.get("/api/account/series").expect(200);
    expect(listed.body).toEqual([expect.objectContaining({ id: created.id, bookCount: 1 })]);
    const renamed = await author.agent.put(`/api/series/${created.id}`).send({ title: "The Longer Road", description: "" }).expect(200);
    expect(renamed.body).toMatchObject({ title: "The Longer Road", description: "", bookCount: 1 });
    await author.agent.delete(`/api/series/${created.id}`).expect(204);
    await author.agent.get(`/api/series/${created.id}`).expect(404);
    const placement = await request(testApp.app).get(`/api/books/${bookId}/placement`).expect(200);
    expect(placement.body).toEqual({ series: null, next: null, tags: [] });
    await request(testApp.app).get(`/api/books/${bookId}`).expect(200);
  });

  it("refuses anyone but the author: anonymous 401, another account and the admin 403, an unknown series 404", async () => {
    const mine = await newSeries();
    await request(testApp.app).post("/api/series").send({ title: "Nobody's" }).expect(401);
    await request(testApp.app).get("/api/account/series").expect(401);
    await request(testApp.app).put(`/api/series/${mine.id}`).send({ title: "Taken" }).expect(401);
    await request(testApp.app).delete(`/api/series/${mine.id}`).expect(401);
    const renamed = await other.agent.put(`/api/series/${mine.id}`).send({ title: "Taken" }).expect(403);
    expect(renamed.body.code).toBe("series_not_yours");
    await other.agent.delete(`/api/series/${mine.id}`).expect(403);
    const admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL });
    await testApp.proveEmail(TEST_ADMIN_EMAIL);
    await admin.agent.put(`/api/series/${mine.id}`).send({ title: "Taken" }).expect(403);
    await author.agent.put("/api/series/999999").send({ title: "Gone" }).expect(404);
    await author.agent.delete("/api/series/999999").expect(404);
    expect((await author.agent.get("/api/account/series").expect(200)).body.map((s: { title: string }) => s.title)).toContain("The Long Road");
    expect((await other.agent.get("/api/account/series").expect(200)).body).toEqual([]);
  });

  it.each([
    [{}, "title", "validation.seriesTitleRequired"],
    [{ title: "  " }, "title", "validation.seriesTitleRequired"],
    [{ title: "x".repeat(256) }, "title", "validation.seriesTitleMax"],
    [{ title: "Fine", description: "d".repeat(2001) }, "description", "validation.seriesDescriptionMax"],
    [{ title: "Line\nbreak" }, "title", "validation.invalid"],
  ])("refuses the series %j with 400 naming %s", async (body, field, key) => {
    const response = await author.agent.post("/api/series").send(body).expect(400);
    expect(response.body.fields[field]).toBe(key);
  });

  it("refuses a malformed series id with 400", async () => {
    await request(testApp.app).get("/api/series/abc").expect(400);
    await author.agent.put("/api/series/0").send({ title: "Zero" }).expect(400);
  });
});

describe("volumes", () => {
  it("shows a series of three volumes in order, and the next volume of each", async () => {
    const series = await newSeries(author.agent, "Tides");
    const third = await uploaded({ title: "Tides III", seriesId: String(series.id), seriesVolume: "3" });
    const first = await uploaded({ title: "Tides I", seriesId: String(series.id), seriesVolume: "1" });
    const between = await uploaded({ title: "Tides I½", seriesId: String(series.id), seriesVolume: "1.5" });
    const page = await request(testApp.app).get(`/api/series/${series.id}`).expect(200);
    expect(page.body.title).toBe("Tides");
    expect(page.body.author.id).toBe(author.user.id);
    expect(page.body.volumes.map((v: { volume: number; book: { id: number } }) => [v.volume, v.book.id])).toEqual([
      [1, first],
      [1.5, between],
      [3, third],
    ]);
    const placement = await request(testApp.app).get(`/api/books/${first}/placement`).expect(200);
    expect(placement.body.series).toEqual({ id: series.id, title: "Tides", volume: 1, volumes: 3 });
    expect(placement.body.next).toEqual({ id: between, title: "Tides I½", volume: 1.5 });
    expect((await request(testApp.app).get(`/api/books/${third}/placement`).expect(200)).body.next).toBeNull();
  });

  it("refuses a second book with the same volume (409), and frees the volume when the book is deleted", async () => {
    const series = await newSeries(author.agent, "Twins");
    const first = await uploaded({ seriesId: String(series.id), seriesVolume: "2" });
    const twin = await upload({ seriesId: String(series.id), seriesVolume: "2.00" }).expect(409);
    expect(twin.body).toMatchObject({ code: "series_volume_taken", fields: { seriesVolume: "validation.seriesVolumeTaken" } });
    // Nothing half-written: the refused upload left no book.
    expect((await author.agent.get(`/api/authors/${author.user.id}/books`).expect(200)).body.filter((b: { id: number }) => b.id > first)).toEqual([]);
    const second = await uploaded({ seriesId: String(series.id), seriesVolume: "3" });
    const moved = await sendBookForm(author.agent.put(`/api/books/${second}`), { file: null, coverImage: null, seriesId: String(series.id), seriesVolume: "2" }).expect(409);
    expect(moved.body.code).toBe("series_volume_taken");
    await author.agent.delete(`/api/books/${first}`).expect(204);
    await sendBookForm(author.agent.put(`/api/books/${second}`), { file: null, coverImage: null, seriesId: String(series.id), seriesVolume: "2" }).expect(200);
  });

  it("places two books at once in one volume only once", async () => {
    const series = await newSeries(author.agent, "Race");
    const results = await Promise.all([upload({ seriesId: String(series.id), seriesVolume: "1" }), upload({ seriesId: String(series.id), seriesVolume: "1" })]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it.each([
    [{ seriesVolume: "0" }, "seriesVolume", "validation.seriesVolumeInvalid", 400],
    [{ seriesVolume: "-1" }, "seriesVolume", "validation.seriesVolumeInvalid", 400],
    [{ seriesVolume: "10000" }, "seriesVolume", "validation.seriesVolumeInvalid", 400],
    [{ seriesVolume: "1.234" }, "seriesVolume", "validation.seriesVolumeInvalid", 400],
    [{ seriesVolume: "1e3" }, "seriesVolume", "validation.seriesVolumeInvalid", 400],
    [{ seriesVolume: "" }, "seriesVolume", "validation.seriesVolumeRequired", 400],
    [{ seriesId: "abc", seriesVolume: "1" }, "seriesId", "validation.seriesInvalid", 400],
    [{ seriesId: "999999", seriesVolume: "1" }, "seriesId", "validation.seriesUnknown", 404],
  ])("refuses the placement %j naming %s", async (form, field, key, status) => {
    const series = await newSeries(author.agent, "Bad input");
    const response = await upload({ seriesId: String(series.id), ...form }).expect(status);
    expect(response.body.fields[field]).toBe(key);
  });

  it("refuses a volume without a series", async () => {
    const response = await upload({ seriesId: "", seriesVolume: "2" }).expect(400);
    expect(response.body.fields.seriesId).toBe("validation.seriesRequired");
  });

  it("never puts a book in another author's series: 403 at upload and edit", async () => {
    const theirs = await newSeries(other.agent, "Not yours");
    const refused = await upload({ seriesId: String(theirs.id), seriesVolume: "1" }).expect(403);
    expect(refused.body).toMatchObject({ code: "series_not_yours", fields: { seriesId: "validation.seriesNotYours" } });
    const mine = await uploaded({});
    await sendBookForm(author.agent.put(`/api/books/${mine}`), { file: null, coverImage: null, seriesId: String(theirs.id), seriesVolume: "1" }).expect(403);
  });

  it("keeps a book's series and tags when an edit leaves them out, and takes them off when sent empty", async () => {
    const series = await newSeries(author.agent, "Kept");
    const bookId = await uploaded({ seriesId: String(series.id), seriesVolume: "4", tags: "Kept tag" });
    await sendBookForm(author.agent.put(`/api/books/${bookId}`), { title: "Renamed", file: null, coverImage: null }).expect(200);
    let placement = (await request(testApp.app).get(`/api/books/${bookId}/placement`).expect(200)).body;
    expect(placement.series.volume).toBe(4);
    expect(placement.tags).toEqual([{ slug: "kept-tag", name: "Kept tag" }]);
    await sendBookForm(author.agent.put(`/api/books/${bookId}`), { file: null, coverImage: null, seriesId: "", seriesVolume: "", tags: "" }).expect(200);
    placement = (await request(testApp.app).get(`/api/books/${bookId}/placement`).expect(200)).body;
    expect(placement).toEqual({ series: null, next: null, tags: [] });
  });

  it("lists only listed volumes, explicit ones only for readers who chose them; 404 until one is listed", async () => {
    const series = await newSeries(author.agent, "Shades");
    await author.agent.get(`/api/series/${series.id}`).expect(200);
    await request(testApp.app).get(`/api/series/${series.id}`).expect(404);
    const tame = await uploaded({ title: "Shade one", seriesId: String(series.id), seriesVolume: "1" });
    const explicit = await uploaded({ title: "Shade two", seriesId: String(series.id), seriesVolume: "2", contentRating: "explicit" });
    const hidden = await uploaded({ title: "Shade three", seriesId: String(series.id), seriesVolume: "3" });
    await testApp.database.db.update(books).set({ isPublished: false }).where(eq(books.id, hidden));
    const anonymous = await request(testApp.app).get(`/api/series/${series.id}`).expect(200);
    expect(anonymous.body.volumes.map((v: { book: { id: number } }) => v.book.id)).toEqual([tame]);
    expect((await request(testApp.app).get(`/api/books/${tame}/placement`).expect(200)).body.next).toBeNull();
    await reader.agent.put("/api/account/explicit-books").send({ showExplicit: true }).expect(200);
    const chosen = await reader.agent.get(`/api/series/${series.id}`).expect(200);
    expect(chosen.body.volumes.map((v: { book: { id: number } }) => v.book.id)).toEqual([tame, explicit]);
    expect((await reader.agent.get(`/api/books/${tame}/placement`).expect(200)).body.next).toMatchObject({ id: explicit, volume: 2 });
  });

  it("answers 404 for a placement of an unknown book, 400 for a malformed id", async () => {
    await request(testApp.app).get("/api/books/999999/placement").expect(404);
    await request(testApp.app).get("/api/books/abc/placement").expect(400);
  });
});

describe("tags", () => {
  it("normalises tags: one tag for 'Science Fiction', 'science-fiction' and 'Sciénce  fiction', named as first written", async () => {
    const first = await uploaded({ tags: "Science Fiction, Space opera" });
    const second = await uploaded({ tags: "science-fiction" });
    const third = await uploaded({ tags: "Sciénce  fiction, SCIENCE FICTION" });
    for (const id of [first, second, third]) {
      const { tags } = (await request(testApp.app).get(`/api/books/${id}/placement`).expect(200)).body;
      expect(tags).toContainEqual({ slug: "science-fiction", name: "Science Fiction" });
    }
    expect((await request(testApp.app).get(`/api/books/${third}/placement`).expect(200)).body.tags).toHaveLength(1);
    expect((await request(testApp.app).get("/api/tags/Science%20Fiction").expect(200)).body).toEqual({ slug: "science-fiction", name: "Science Fiction", books: 3 });
  });

  it("suggests tags by prefix of their normalised form, most used first", async () => {
    await uploaded({ tags: "Space opera, Spaceships" });
    await uploaded({ tags: "Spaceships" });
    await uploaded({ tags: "Spaceships, Spies" });
    const suggested = await request(testApp.app).get("/api/tags?q=SPA").expect(200);
    expect(suggested.body.map((tag: { slug: string }) => tag.slug)).toEqual(["spaceships", "space-opera"]);
    expect(suggested.body[0]).toEqual({ slug: "spaceships", name: "Spaceships", books: 3 });
    expect((await request(testApp.app).get("/api/tags?q=").expect(200)).body).toEqual([]);
    expect((await request(testApp.app).get("/api/tags?q=%25").expect(200)).body).toEqual([]);
    expect((await request(testApp.app).get("/api/tags?q=zzzz").expect(200)).body).toEqual([]);
    await request(testApp.app).get(`/api/tags?q=${"a".repeat(201)}`).expect(400);
  });

  it.each([
    [Array.from({ length: 11 }, (_, i) => `tag number ${i}`).join(","), "validation.tagsMax"],
    ["good, , also good", "validation.tagEmpty"],
    ["a", "validation.tagTooShort"],
    ["!!", "validation.tagTooShort"],
    ["x".repeat(41), "validation.tagTooLong"],
  ])("refuses the tags %j with 400", async (tags, key) => {
    const response = await upload({ tags }).expect(400);
    expect(response.body.fields.tags).toBe(key);
  });

  it("takes ten tags, the repeated ones merged first", async () => {
    const ten = Array.from({ length: 10 }, (_, i) => `theme ${i}`);
    const bookId = await uploaded({ tags: [...ten, "Theme 0"].join(", ") });
    expect((await request(testApp.app).get(`/api/books/${bookId}/placement`).expect(200)).body.tags).toHaveLength(10);
  });

  it("filters the catalog by tag, moving the kept answers when a tag is put on or taken off", async () => {
    const tagged = await uploaded({ title: "Tagged lighthouse", tags: "Lighthouses" });
    await uploaded({ title: "Untagged lighthouse" });
    const page = await request(testApp.app).get("/api/books?tag=lighthouses").expect(200);
    expect(page.body.map((book: { id: number }) => book.id)).toEqual([tagged]);
    // Asked twice, so the answer is kept (docs/decisions/0081); a tag put on another book shows at once.
    await request(testApp.app).get("/api/books?tag=Lighthouses").expect(200);
    const [before] = await testApp.database.db.select().from(catalogRevision);
    const later = await uploaded({ title: "Another lighthouse" });
    await sendBookForm(author.agent.put(`/api/books/${later}`), { title: "Another lighthouse", file: null, coverImage: null, tags: "lighthouses" }).expect(200);
    const [after] = await testApp.database.db.select().from(catalogRevision);
    expect(after!.cardRevision).toBeGreaterThan(before!.cardRevision);
    expect((await request(testApp.app).get("/api/books?tag=lighthouses").expect(200)).body.map((book: { id: number }) => book.id)).toEqual([later, tagged]);
    // Searching within a tag.
    expect((await request(testApp.app).get("/api/books?tag=lighthouses&search=another").expect(200)).body.map((book: { id: number }) => book.id)).toEqual([later]);
    await request(testApp.app).get("/api/books?tag=!").expect(400);
    expect((await request(testApp.app).get("/api/books?tag=no-such-tag").expect(200)).body).toEqual([]);
  });

  it("takes a deleted book's tags off: gone from the tag's page, count and suggestions", async () => {
    const bookId = await uploaded({ tags: "Ephemeral" });
    expect((await request(testApp.app).get("/api/tags/ephemeral").expect(200)).body.books).toBe(1);
    await author.agent.delete(`/api/books/${bookId}`).expect(204);
    expect((await request(testApp.app).get("/api/tags/ephemeral").expect(200)).body.books).toBe(0);
    expect(await testApp.database.db.select().from(bookTags).where(eq(bookTags.bookId, bookId))).toEqual([]);
    expect((await request(testApp.app).get("/api/books?tag=ephemeral").expect(200)).body).toEqual([]);
    expect((await request(testApp.app).get("/api/tags?q=ephem").expect(200)).body).toEqual([]);
    await request(testApp.app).get("/api/tags/unknown-tag").expect(404);
    await request(testApp.app).get("/api/tags/-").expect(400);
  });
});

describe("account deletion and export", () => {
  it("exports the series and each book's place and tags; deletion removes the series and the tags", async () => {
    const leaving = await signedInAgent(testApp.app);
    const series = await newSeries(leaving.agent, "Farewell");
    const bookId = await uploaded({ seriesId: String(series.id), seriesVolume: "1", tags: "Goodbyes" }, leaving.agent);
    const exported = await leaving.agent.get("/api/account/export").expect(200);
    expect(exported.body.series).toEqual([expect.objectContaining({ id: series.id, title: "Farewell" })]);
    expect(exported.body.books[0]).toMatchObject({ seriesId: series.id, seriesVolume: 1, tags: ["Goodbyes"] });
    await leaving.agent.delete("/api/account").send({ currentPassword: leaving.account.password }).expect(204);
    await request(testApp.app).get(`/api/series/${series.id}`).expect(404);
    expect(await testApp.database.db.select().from(bookTags).where(eq(bookTags.bookId, bookId))).toEqual([]);
  });
});
