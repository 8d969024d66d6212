import { eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { parseOpdsFeed } from "../../test/helpers/opds.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { books } from "../db/schema.ts";

/*
 * Content ratings (docs/product.md#content-ratings, docs/decisions/0092): the author rates each book;
 * an explicit book is listed, downloaded and read only by signed-in readers who chose to see explicit
 * books; its page still answers, with its rating.
 */

const ORIGIN = "https://plume.example";
type Agent = Awaited<ReturnType<typeof signedInAgent>>;

let testApp: TestApp;
let author: Agent;
/** Signed in, explicit books not chosen (the default). */
let reader: Agent;
/** Signed in, explicit books chosen in settings. */
let optedIn: Agent;
const ids: Record<"general" | "teen" | "mature" | "explicit", number> = { general: 0, teen: 0, mature: 0, explicit: 0 };

const visitor = () => request(testApp.app);
const idsIn = (cards: Array<{ id: number }>) => cards.map((card) => card.id);

async function publish(contentRating: string | undefined, title: string): Promise<{ id: number; contentRating: string }> {
  const response = await sendBookForm(author.agent.post("/api/books"), { title, description: `${title}, the story.`, coverImage: null, contentRating }).expect(201);
  return response.body as { id: number; contentRating: string };
}

async function createKey(agent: Agent): Promise<string> {
  return ((await agent.agent.post("/api/e-reader-keys").send({ name: "KOReader" }).expect(201)).body as { key: string }).key;
}

beforeAll(async () => {
  testApp = await createTestApp({ PUBLIC_URL: ORIGIN });
  author = await signedInAgent(testApp.app, { firstName: "Vera", lastName: "Quill" });
  reader = await signedInAgent(testApp.app);
  optedIn = await signedInAgent(testApp.app);
  // Left out, a rating is General; every other one as chosen. One word ("lanterns") in every title, to search for.
  const general = await publish(undefined, "Lanterns for everyone");
  expect(general.contentRating).toBe("general");
  ids.general = general.id;
  ids.teen = (await publish("teen", "Lanterns at school")).id;
  ids.mature = (await publish("mature", "Lanterns after dark")).id;
  ids.explicit = (await publish("explicit", "Lanterns unveiled")).id;
  await optedIn.agent.put("/api/account/explicit-books").send({ showExplicit: true }).expect(200);
});

afterAll(() => testApp.close());

describe("the rating at upload and edit", () => {
  it("is kept as chosen and shown on the book", async () => {
    for (const [rating, id] of Object.entries(ids)) expect((await author.agent.get(`/api/books/${id}`).expect(200)).body.contentRating).toBe(rating);
  });

  it("refuses a rating outside the four with 400 naming the field, and writes nothing", async () => {
    const before = await testApp.database.db.select({ id: books.id }).from(books);
    const refused = await sendBookForm(author.agent.post("/api/books"), { title: "Unrated", coverImage: null, contentRating: "adult" }).expect(400);
    expect(refused.body.fields).toMatchObject({ contentRating: "validation.contentRatingInvalid" });
    expect(await testApp.database.db.select({ id: books.id }).from(books)).toHaveLength(before.length);
    const edit = await sendBookForm(author.agent.put(`/api/books/${ids.teen}`), { title: "Lanterns at school", coverImage: null, file: null, contentRating: "EXPLICIT" }).expect(400);
    expect(edit.body.fields).toMatchObject({ contentRating: "validation.contentRatingInvalid" });
    expect((await visitor().get(`/api/books/${ids.teen}`).expect(200)).body.contentRating).toBe("teen");
  });

  it("is changed by an edit, and kept by an edit that leaves it out", async () => {
    const { id } = await publish("general", "Lanterns, revised");
    const edited = await sendBookForm(author.agent.put(`/api/books/${id}`), { title: "Lanterns, revised", coverImage: null, file: null, contentRating: "mature" }).expect(200);
    expect(edited.body.contentRating).toBe("mature");
    const untouched = await sendBookForm(author.agent.put(`/api/books/${id}`), { title: "Lanterns, revised again", coverImage: null, file: null }).expect(200);
    expect(untouched.body.contentRating).toBe("mature");
    await author.agent.delete(`/api/books/${id}`).expect(204);
  });

  it("is a column the database itself keeps to the four values", async () => {
    await expect(testApp.database.db.update(books).set({ contentRating: "adult" as "general" }).where(eq(books.id, ids.general))).rejects.toThrow();
  });
});

describe("the catalog and search", () => {
  const search = "/api/books?search=lanterns";

  it("leave explicit books out for a visitor and for a reader who did not choose them, asked again from the kept answers", async () => {
    for (let ask = 0; ask < 3; ask += 1) {
      for (const caller of [visitor(), reader.agent]) {
        expect(idsIn((await caller.get("/api/books").expect(200)).body)).not.toContain(ids.explicit);
        const found = idsIn((await caller.get(search).expect(200)).body);
        expect(found).toEqual(expect.arrayContaining([ids.general, ids.teen, ids.mature]));
        expect(found).not.toContain(ids.explicit);
      }
    }
  });

  it("hold them for a reader who chose them, whatever was kept for the others, and the cards carry each rating", async () => {
    for (let ask = 0; ask < 3; ask += 1) {
      const page = (await optedIn.agent.get("/api/books").expect(200)).body as Array<{ id: number; contentRating: string }>;
      expect(page.find((card) => card.id === ids.explicit)?.contentRating).toBe("explicit");
      expect(page.find((card) => card.id === ids.teen)?.contentRating).toBe("teen");
      expect(idsIn((await optedIn.agent.get(search).expect(200)).body)).toContain(ids.explicit);
    }
    // The visitor's kept answers were not replaced by the reader's.
    expect(idsIn((await visitor().get(search).expect(200)).body)).not.toContain(ids.explicit);
  });

  it("follow a change of rating at once, kept answers included", async () => {
    const { id } = await publish("general", "Lanterns that change");
    for (let ask = 0; ask < 2; ask += 1) expect(idsIn((await visitor().get(search).expect(200)).body)).toContain(id);
    await sendBookForm(author.agent.put(`/api/books/${id}`), { title: "Lanterns that change", coverImage: null, file: null, contentRating: "explicit" }).expect(200);
    expect(idsIn((await visitor().get(search).expect(200)).body)).not.toContain(id);
    expect(idsIn((await visitor().get("/api/books").expect(200)).body)).not.toContain(id);
    await author.agent.delete(`/api/books/${id}`).expect(204);
  });
});

describe("the author's pages", () => {
  it("list explicit books only for a reader who chose them, and always for the author", async () => {
    const path = `/api/authors/${author.user.id}`;
    for (const caller of [visitor(), reader.agent]) {
      expect(idsIn((await caller.get(path).expect(200)).body.books)).not.toContain(ids.explicit);
      expect(idsIn((await caller.get(`${path}/books`).expect(200)).body)).not.toContain(ids.explicit);
    }
    expect(idsIn((await optedIn.agent.get(path).expect(200)).body.books)).toContain(ids.explicit);
    expect(idsIn((await optedIn.agent.get(`${path}/books`).expect(200)).body)).toContain(ids.explicit);
    expect(idsIn((await author.agent.get(`${path}/books`).expect(200)).body)).toContain(ids.explicit);
  });
});

describe("the feeds and the sitemap, read by anyone", () => {
  it("never hold an explicit book", async () => {
    for (const path of ["/feed.xml", `/authors/${author.user.id}/feed.xml`]) {
      const text = (await visitor().get(path).expect(200)).text;
      expect(text).toContain(`/books/${ids.mature}`);
      expect(text).not.toContain(`/books/${ids.explicit}`);
    }
    const index = (await visitor().get("/sitemap.xml").expect(200)).text;
    const pages = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
    const sitemaps = await Promise.all(pages.map(async (path) => (await visitor().get(path).expect(200)).text));
    const bookAt = (id: number) => new RegExp(`/books/${id}(-[^<]*)?</loc>`);
    expect(sitemaps.join("")).toMatch(bookAt(ids.mature));
    expect(sitemaps.join("")).not.toMatch(bookAt(ids.explicit));
  });
});

describe("OPDS", () => {
  const entriesOf = (text: string) => parseOpdsFeed(text).Entries ?? [];
  const entryIds = (text: string) => entriesOf(text).map((entry) => entry.Id);

  it("leaves explicit books out of a feed read without a key, or with the key of a reader who did not choose them", async () => {
    const key = await createKey(reader);
    for (const path of ["/opds/new", "/opds/search?q=lanterns"]) {
      expect(entryIds((await visitor().get(path).expect(200)).text)).not.toContain(`${ORIGIN}/books/${ids.explicit}`);
      const keyed = await visitor().get(path).auth(reader.account.username, key).expect(200);
      expect(entryIds(keyed.text)).not.toContain(`${ORIGIN}/books/${ids.explicit}`);
      expect(keyed.headers["cache-control"]).toMatch(/^private/);
    }
  });

  it("holds them for the key of a reader who chose them, kept by their app alone", async () => {
    const key = await createKey(optedIn);
    const response = await visitor().get("/opds/new").auth(optedIn.account.username, key).expect(200);
    expect(entryIds(response.text)).toContain(`${ORIGIN}/books/${ids.explicit}`);
    expect(response.headers["cache-control"]).toMatch(/^private/);
    expect(response.headers.vary).toMatch(/Authorization/);
  });

  it("labels each entry rated above General with its rating, as e-reader apps list categories", async () => {
    const text = (await visitor().get("/opds/new").expect(200)).text;
    const ratingsOf = (id: number) =>
      entriesOf(text)
        .find((entry) => entry.Id === `${ORIGIN}/books/${id}`)!
        .Categories?.filter((category) => category.Scheme === "https://schema.org/contentRating")
        .map((category) => [category.Term, category.Label]);
    expect(ratingsOf(ids.teen)).toEqual([["teen", "Teen"]]);
    expect(ratingsOf(ids.mature)).toEqual([["mature", "Mature"]]);
    expect(ratingsOf(ids.general)).toEqual([]);
  });

  it("answers a wrong key on a feed with 401, as on a file", async () => {
    await visitor().get("/opds/new").auth(reader.account.username, "not-a-key").expect(401);
  });
});

describe("an explicit book's page and file", () => {
  it("answers its page to anyone, with its rating: the app shows its notice", async () => {
    expect((await visitor().get(`/api/books/${ids.explicit}`).expect(200)).body.contentRating).toBe("explicit");
  });

  it("refuses its download and its reading with 403 explicit_not_chosen to a reader who did not choose explicit books", async () => {
    const download = await reader.agent.post(`/api/books/${ids.explicit}/download`).expect(403);
    expect(download.body.code).toBe("explicit_not_chosen");
    expect((await reader.agent.get(`/api/books/${ids.explicit}/read/file`).expect(403)).body.code).toBe("explicit_not_chosen");
    const key = await createKey(reader);
    expect((await visitor().get(`/opds/books/${ids.explicit}/file`).auth(reader.account.username, key).expect(403)).body.code).toBe("explicit_not_chosen");
    // Nothing counted for a refused download.
    const [row] = await testApp.database.db.select({ downloadCount: books.downloadCount }).from(books).where(eq(books.id, ids.explicit));
    expect(row!.downloadCount).toBe(0);
  });

  it("gives it to a reader who chose explicit books, and to its author", async () => {
    await optedIn.agent.post(`/api/books/${ids.explicit}/download`).expect(200);
    await author.agent.post(`/api/books/${ids.explicit}/download`).expect(200);
    // A mature book is every signed-in reader's.
    await reader.agent.post(`/api/books/${ids.mature}/download`).expect(200);
  });
});

describe("the explicit-books setting", () => {
  it("is off for a new account, saved, read back, exported, and refused when not a boolean", async () => {
    const someone = await signedInAgent(testApp.app);
    expect((await someone.agent.get("/api/auth/user").expect(200)).body.showExplicit).toBe(false);
    expect((await someone.agent.put("/api/account/explicit-books").send({ showExplicit: true }).expect(200)).body.showExplicit).toBe(true);
    expect((await someone.agent.get("/api/auth/user").expect(200)).body.showExplicit).toBe(true);
    expect(JSON.parse((await someone.agent.get("/api/account/export").expect(200)).text).profile.showExplicit).toBe(true);
    for (const body of [{ showExplicit: "yes" }, {}, { showExplicit: null }]) {
      expect((await someone.agent.put("/api/account/explicit-books").send(body).expect(400)).body.fields).toHaveProperty("showExplicit");
    }
    expect((await someone.agent.put("/api/account/explicit-books").send({ showExplicit: false }).expect(200)).body.showExplicit).toBe(false);
    expect(idsIn((await someone.agent.get("/api/books").expect(200)).body)).not.toContain(ids.explicit);
  });

  it("is for signed-in accounts only", async () => {
    await visitor().put("/api/account/explicit-books").send({ showExplicit: true }).expect(401);
  });
});
