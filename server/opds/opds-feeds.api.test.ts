import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookPath } from "../../shared/book-urls.ts";
import { GENRE_KEYS } from "../../shared/genres.ts";
import type { BookEditions } from "../../shared/editions.ts";
import { fixture, multiPagePdf, sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type Entry, type Link, type OPDS, parseOpdsFeed, parseXmlStrictly } from "../../test/helpers/opds.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { books } from "../db/schema.ts";

const ORIGIN = "https://plume.example";
const NAVIGATION = "application/atom+xml;profile=opds-catalog;kind=navigation";
const ACQUISITION = "application/atom+xml;profile=opds-catalog;kind=acquisition";
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

let testApp: TestApp;
let author: Awaited<ReturnType<typeof signedInAgent>>;
const published: Record<string, { id: number; title: string; coverImageUrl: string | null }> = {};

async function publish(key: string, form: Parameters<typeof sendBookForm>[1]) {
  const response = await sendBookForm(author.agent.post("/api/books"), form).expect(201);
  published[key] = response.body as { id: number; title: string; coverImageUrl: string | null };
}

async function feed(path: string): Promise<OPDS> {
  const response = await request(testApp.app).get(path).expect(200);
  return parseOpdsFeed(response.text);
}

const linkOf = (links: Link[] | undefined, rel: string) => links?.find((link) => link.Rel === rel);
const idsOf = (opds: OPDS) => (opds.Entries ?? []).map((entry) => entry.Id);
const bookId = (key: string) => `${ORIGIN}/books/${published[key]!.id}`;

beforeAll(async () => {
  testApp = await createTestApp({ PUBLIC_URL: ORIGIN });
  author = await signedInAgent(testApp.app, { firstName: "Ana", lastName: "García" });
  // Oldest first: the newest-first feeds list them the other way round.
  await publish("paris", {});
  await publish("hostile", {
    title: `Le </title><script>alert("x")</script> & 'Noir'`,
    description: "A <b>bold</b> & \"quoted\" summary.",
    genre: "ficcion",
    language: "fr",
    coverImage: null,
  });
  for (const n of [1, 2, 3]) await publish(`winter${n}`, { title: `Winter ${n}`, description: `The winter, part ${n}.`, genre: "historia", language: "en", coverImage: null });
  await publish("word", { title: "Notes in Word", description: "A Word book.", genre: "articulo", language: "en", file: fixture("book.docx"), coverImage: null });
  await publish("deleted", { title: "Gone for good", description: "Withdrawn.", genre: "historia", language: "en", coverImage: null });
  await author.agent.delete(`/api/books/${published.deleted!.id}`).expect(204);
});

afterAll(() => testApp.close());

describe("the navigation feeds", () => {
  it("open at /opds with new, popular, by genre, by language and by tag, and a search link", async () => {
    const response = await request(testApp.app).get("/opds").expect(200);
    expect(response.headers["content-type"]).toBe("application/atom+xml; profile=opds-catalog; kind=navigation; charset=utf-8");
    const root = parseOpdsFeed(response.text);
    expect(root.Id).toBe(`${ORIGIN}/opds`);
    expect(root.Title).toBe("Plume");
    expect(linkOf(root.Links, "self")).toMatchObject({ Href: `${ORIGIN}/opds`, Type: NAVIGATION });
    expect(linkOf(root.Links, "start")).toMatchObject({ Href: `${ORIGIN}/opds`, Type: NAVIGATION });
    expect(linkOf(root.Links, "search")).toMatchObject({ Href: `${ORIGIN}/opds/opensearch.xml`, Type: "application/opensearchdescription+xml" });
    expect(
      root.Entries.map((entry) => ({ title: entry.Title, rel: entry.Links[0]!.Rel, href: entry.Links[0]!.Href, type: entry.Links[0]!.Type })),
    ).toEqual([
      { title: "New books", rel: "http://opds-spec.org/sort/new", href: `${ORIGIN}/opds/new`, type: ACQUISITION },
      { title: "Popular books", rel: "http://opds-spec.org/sort/popular", href: `${ORIGIN}/opds/popular`, type: ACQUISITION },
      { title: "By genre", rel: "subsection", href: `${ORIGIN}/opds/genres`, type: NAVIGATION },
      { title: "By language", rel: "subsection", href: `${ORIGIN}/opds/languages`, type: NAVIGATION },
      { title: "New from authors you follow", rel: "subsection", href: `${ORIGIN}/opds/following`, type: ACQUISITION },
      { title: "By tag", rel: "subsection", href: `${ORIGIN}/opds/tags`, type: NAVIGATION },
    ]);
    for (const entry of root.Entries) expect(entry.Updated).toBeInstanceOf(Date);
  });

  it("list every genre and every language, each an acquisition feed, under the root", async () => {
    const genres = await feed("/opds/genres");
    expect(linkOf(genres.Links, "up")).toMatchObject({ Href: `${ORIGIN}/opds`, Type: NAVIGATION });
    expect(genres.Entries.map((entry) => entry.Links[0]!.Href)).toEqual(GENRE_KEYS.map((genre) => `${ORIGIN}/opds/genres/${genre}`));
    expect(genres.Entries.find((entry) => entry.Links[0]!.Href.endsWith("/historia"))!.Title).toBe("History");
    for (const entry of genres.Entries) expect(entry.Links[0]!.Type).toBe(ACQUISITION);

    const languages = await feed("/opds/languages");
    expect(languages.Entries.map((entry) => [entry.Title, entry.Links[0]!.Href])).toEqual([
      ["English", `${ORIGIN}/opds/languages/en`],
      ["Spanish", `${ORIGIN}/opds/languages/es`],
      ["French", `${ORIGIN}/opds/languages/fr`],
    ]);
  });

  it("are compressed for the apps that accept it", async () => {
    const response = await request(testApp.app).get("/opds/genres").set("Accept-Encoding", "gzip").expect(200);
    expect(response.headers["content-encoding"]).toBe("gzip");
    expect(parseOpdsFeed(response.text).Entries).toHaveLength(GENRE_KEYS.length);
  });

  it("make their links from the configured site whatever Host or X-Forwarded-Host the request names (docs/decisions/0053)", async () => {
    for (const [settings, origin] of [
      [{ PUBLIC_URL: ORIGIN }, ORIGIN],
      // Development, without PUBLIC_URL: the address the server listens on.
      [{ PORT: "8080", PUBLIC_URL: "" }, "http://localhost:8080"],
    ] as const) {
      const { app, close } = testApp.anotherProcess({ ...settings, TRUST_PROXY: "loopback" });
      try {
        for (const headers of [{ Host: "evil.example" }, { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" }]) {
          const response = await request(app).get("/opds").set(headers).expect(200);
          expect(linkOf(parseOpdsFeed(response.text).Links, "self")!.Href).toBe(`${origin}/opds`);
          expect(response.text).not.toContain("evil.example");
          expect((await request(app).get("/opds/new").set(headers).expect(200)).text).not.toContain("evil.example");
        }
      } finally {
        close();
      }
    }
  });
});

describe("the acquisition feeds", () => {
  it("page newest first with first, previous, next, up and start links, every listed book once", async () => {
    const pages: OPDS[] = [];
    let next: string | undefined = "/opds/new?size=2";
    while (next) {
      const page = await feed(next.replace(ORIGIN, ""));
      pages.push(page);
      next = linkOf(page.Links, "next")?.Href;
    }
    expect(pages.map(idsOf)).toEqual([
      [bookId("word"), bookId("winter3")],
      [bookId("winter2"), bookId("winter1")],
      [bookId("hostile"), bookId("paris")],
    ]);
    const [first, second, last] = pages as [OPDS, OPDS, OPDS];
    expect(linkOf(first.Links, "self")).toMatchObject({ Href: `${ORIGIN}/opds/new?size=2`, Type: ACQUISITION });
    expect(linkOf(first.Links, "previous")).toBeUndefined();
    expect(linkOf(second.Links, "self")!.Href).toBe(`${ORIGIN}/opds/new?page=2&size=2`);
    expect(linkOf(second.Links, "previous")).toMatchObject({ Href: `${ORIGIN}/opds/new?size=2`, Type: ACQUISITION });
    expect(linkOf(second.Links, "next")).toMatchObject({ Href: `${ORIGIN}/opds/new?page=3&size=2`, Type: ACQUISITION });
    expect(linkOf(last.Links, "next")).toBeUndefined();
    for (const page of pages) {
      expect(page.Id).toBe(`${ORIGIN}/opds/new`);
      expect(linkOf(page.Links, "first")).toMatchObject({ Href: `${ORIGIN}/opds/new?size=2`, Type: ACQUISITION });
      expect(linkOf(page.Links, "up")).toMatchObject({ Href: `${ORIGIN}/opds`, Type: NAVIGATION });
      expect(linkOf(page.Links, "start")).toMatchObject({ Href: `${ORIGIN}/opds`, Type: NAVIGATION });
      expect(linkOf(page.Links, "search")!.Href).toBe(`${ORIGIN}/opds/opensearch.xml`);
    }
    // A page past the last is empty, not an error: a book may have been withdrawn meanwhile.
    expect((await feed("/opds/new?page=9&size=2")).Entries ?? []).toEqual([]);
  });

  it("describe each book: id, title, author and page, dates, language, genre, summary, covers, file and book page", async () => {
    const response = await request(testApp.app).get("/opds/new").expect(200);
    expect(response.headers["content-type"]).toBe("application/atom+xml; profile=opds-catalog; kind=acquisition; charset=utf-8");
    const entries = parseOpdsFeed(response.text).Entries;
    const paris = entries.find((entry) => entry.Id === bookId("paris"))!;
    const row = (await testApp.database.db.select().from(books).where(eq(books.id, published.paris!.id)))[0]!;
    expect(paris.Title).toBe("Mañana en París");
    expect(paris.Authors).toEqual([expect.objectContaining({ Name: "Ana García", Uri: `${ORIGIN}/authors/${author.user.id}` })]);
    expect(paris.Updated.toISOString()).toBe(row.updatedAt.toISOString());
    expect(paris.DcIssued).toBe(row.createdAt.toISOString().slice(0, 10));
    expect(paris.DcLanguage).toBe("es");
    expect(paris.Categories).toEqual([expect.objectContaining({ Term: "novela", Label: "Novel" })]);
    expect(paris.Summary).toBe("Una novela de ficción sobre la mañana.");
    const cover = published.paris!.coverImageUrl!;
    expect(linkOf(paris.Links, "http://opds-spec.org/image")).toMatchObject({ Href: `${ORIGIN}${cover}`, Type: "image/webp" });
    expect(linkOf(paris.Links, "http://opds-spec.org/image/thumbnail")).toMatchObject({ Href: `${ORIGIN}${cover.replace("-600.webp", "-200.webp")}`, Type: "image/webp" });
    expect(linkOf(paris.Links, "http://opds-spec.org/acquisition")).toMatchObject({ Href: `${ORIGIN}/opds/books/${published.paris!.id}/file`, Type: "application/pdf" });
    expect(linkOf(paris.Links, "alternate")).toMatchObject({ Href: `${ORIGIN}${bookPath(published.paris!)}`, Type: "text/html" });
    // The cover answers where the feed says.
    await request(testApp.app).get(cover.replace("-600.webp", "-200.webp")).expect(200).expect("Content-Type", "image/webp");

    const word = entries.find((entry) => entry.Id === bookId("word"))!;
    expect(linkOf(word.Links, "http://opds-spec.org/acquisition")!.Type).toBe(DOCX);
  });

  it("keep a hostile title and summary as text, and drop control characters stored before titles were checked", async () => {
    const hostile = parseOpdsFeed((await request(testApp.app).get("/opds/languages/fr").expect(200)).text).Entries[0]!;
    expect(hostile.Title).toBe(`Le </title><script>alert("x")</script> & 'Noir'`);
    expect(hostile.Summary).toBe('A <b>bold</b> & "quoted" summary.');

    await testApp.database.db.update(books).set({ title: "Bell\u0007 book\u001B" }).where(eq(books.id, published.winter1!.id));
    const xml = (await request(testApp.app).get("/opds/genres/historia").expect(200)).text;
    parseXmlStrictly(xml);
    expect(parseOpdsFeed(xml).Entries.map((entry: Entry) => entry.Title)).toContain("Bell book");
  });

  it("filter by genre and by language, and order the popular feed by counted downloads", async () => {
    expect(idsOf(await feed("/opds/genres/historia"))).toEqual([bookId("winter3"), bookId("winter2"), bookId("winter1")]);
    expect(linkOf((await feed("/opds/genres/historia")).Links, "up")!.Href).toBe(`${ORIGIN}/opds/genres`);
    expect(idsOf(await feed("/opds/languages/es"))).toEqual([bookId("paris")]);
    expect(linkOf((await feed("/opds/languages/es")).Links, "up")!.Href).toBe(`${ORIGIN}/opds/languages`);

    const reader = await signedInAgent(testApp.app);
    await reader.agent.post(`/api/books/${published.winter2!.id}/download`).expect(200);
    expect(idsOf(await feed("/opds/popular"))[0]).toBe(bookId("winter2"));
  });
});

describe("search", () => {
  it("is described by OpenSearch, with a template an app fills with its terms", async () => {
    const response = await request(testApp.app).get("/opds/opensearch.xml").expect(200);
    expect(response.headers["content-type"]).toBe("application/opensearchdescription+xml; charset=utf-8");
    const description = parseXmlStrictly(response.text).documentElement!;
    expect(description.namespaceURI).toBe("http://a9.com/-/spec/opensearch/1.1/");
    expect(description.getElementsByTagName("ShortName")[0]!.textContent).toBe("Plume");
    const urls = Array.from(description.getElementsByTagName("Url"));
    expect(urls.map((url) => [url.getAttribute("type"), url.getAttribute("template")])).toEqual([[ACQUISITION, `${ORIGIN}/opds/search?q={searchTerms}`]]);
  });

  it("finds books as the catalog does, accents or not, and keeps the terms in its paging links", async () => {
    const results = await feed(`/opds/search?q=${encodeURIComponent("paris")}`);
    expect(idsOf(results)).toEqual([bookId("paris")]);
    expect(linkOf(results.Links, "self")!.Href).toBe(`${ORIGIN}/opds/search?q=paris`);
    expect(linkOf(results.Links, "up")!.Href).toBe(`${ORIGIN}/opds`);

    const winter = await feed("/opds/search?q=winter&size=1");
    expect(winter.Entries).toHaveLength(1);
    expect(linkOf(winter.Links, "next")!.Href).toBe(`${ORIGIN}/opds/search?q=winter&page=2&size=1`);
    expect(idsOf(await feed("/opds/search?q=nothing-like-this"))).toEqual([]);
  });
});

describe("bad requests", () => {
  it.each([
    ["/opds/new?page=0", "page"],
    ["/opds/new?page=-1", "page"],
    ["/opds/new?page=1e9", "page"],
    ["/opds/new?page=501", "page"],
    ["/opds/new?page=two", "page"],
    ["/opds/new?page=1&page=2", "page"],
    ["/opds/new?size=0", "size"],
    ["/opds/new?size=100000", "size"],
    ["/opds/popular?start=-1", "start"],
    ["/opds/search", "q"],
    ["/opds/search?q=%20%20", "q"],
    ["/opds/genres/poetry", "genre"],
    ["/opds/languages/de", "language"],
  ])("%s is a 400 naming %s", async (path, field) => {
    const response = await request(testApp.app).get(path).expect(400);
    expect(response.body).toMatchObject({ code: "validation_failed", fields: { [field]: expect.any(String) } });
    expect(response.body.message).toContain(field);
  });

  it("an unknown feed is a JSON 404, never the app's page", async () => {
    const response = await request(testApp.app).get("/opds/authors").expect(404);
    expect(response.body).toMatchObject({ code: "not_found" });
  });
});

describe("a book's editions (docs/product.md#editions)", () => {
  it("offer the current edition's files first, then each older edition's own file, titled with its number and date", async () => {
    const id = (await sendBookForm(author.agent.post("/api/books"), { title: "A book in three editions", language: "fr", file: { buffer: await multiPagePdf(3), name: "first.pdf" } }).expect(201)).body
      .id as number;
    const publishEdition = (file: string | Buffer, name: string) =>
      author.agent.post(`/api/books/${id}/editions`).field("changelog", "Revised.").attach("file", file, name).expect(201);
    await publishEdition(fixture("book.epub"), "second.epub");
    const third = await publishEdition(await multiPagePdf(4), "third.pdf");
    const editions = (third.body as BookEditions).editions;
    const dayOf = (number: number) => editions.find((edition) => edition.number === number)!.createdAt.slice(0, 10);

    const entry = (await feed("/opds/languages/fr")).Entries.find((each) => each.Id === `${ORIGIN}/books/${id}`)!;
    const acquisitions = entry.Links.filter((link) => link.Rel === "http://opds-spec.org/acquisition").map((link) => ({ href: link.Href, type: link.Type, title: link.Title }));
    expect(acquisitions).toEqual([
      { href: `${ORIGIN}/opds/books/${id}/file`, type: "application/pdf", title: `Edition 3 (${dayOf(3)}), current` },
      { href: `${ORIGIN}/opds/books/${id}/file?edition=2`, type: "application/epub+zip", title: `Edition 2 (${dayOf(2)})` },
      { href: `${ORIGIN}/opds/books/${id}/file?edition=1`, type: "application/pdf", title: `Edition 1 (${dayOf(1)})` },
    ]);
    // A book in its first edition keeps its one untitled link.
    const hostile = (await feed("/opds/languages/fr")).Entries.find((each) => each.Id === bookId("hostile"))!;
    expect(hostile.Links.filter((link) => link.Rel === "http://opds-spec.org/acquisition").map((link) => link.Title)).toEqual([undefined]);

    // Each link takes what it says, with an e-reader key.
    const reader = await signedInAgent(testApp.app);
    const key = ((await reader.agent.post("/api/e-reader-keys").send({ name: "Kobo" }).expect(201)).body as { key: string }).key;
    const second = await request(testApp.app).get(`/opds/books/${id}/file?edition=2`).auth(reader.account.username, key).responseType("blob").expect(200);
    expect(second.headers["content-type"]).toBe("application/epub+zip");
    expect(Buffer.from(second.body as Buffer).equals(readFileSync(fixture("book.epub")))).toBe(true);
    await request(testApp.app).get(`/opds/books/${id}/file?edition=4`).auth(reader.account.username, key).expect(404);
    const bad = await request(testApp.app).get(`/opds/books/${id}/file?edition=0`).auth(reader.account.username, key).expect(400);
    expect(bad.body).toMatchObject({ code: "validation_failed", fields: { edition: "validation.editionInvalid" } });
  });
});
