import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { parseFeed } from "feedsmith";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorPath, bookPath } from "../../shared/book-urls.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, newAccount } from "../../test/helpers/test-app.ts";
import { books } from "../db/schema.ts";

const ORIGIN = "https://plume.example";
const HOSTILE_TITLE = `</title></entry><script>alert("x")</script> & 'quotes' ]]>`;

let testApp: TestApp;
interface Author {
  id: string;
  cookie: string;
}
let author: Author;
let other: Author;
let readerWithoutBooks: Author;
const published: Array<{ id: number; title: string }> = [];
let unpublished: { id: number; title: string };
let deleted: { id: number; title: string };

async function register(firstName: string): Promise<Author> {
  const response = await request(testApp.app).post("/api/auth/register").send(newAccount({ firstName, lastName: "Writer" })).expect(201);
  return { id: response.body.id as string, cookie: [response.headers["set-cookie"] ?? []].flat()[0]!.split(";")[0]! };
}

async function publish(by: Author, title: string, language = "fr") {
  const response = await sendBookForm(request(testApp.app).post("/api/books").set("Cookie", by.cookie), { title, language }).expect(201);
  return { id: response.body.id as number, title };
}

const get = (path: string) => request(testApp.app).get(path).set("Host", "plume.example");

/** A feed as a real feed parser reads it, after checking it is well-formed XML. */
function parseAtom(text: string) {
  expect(XMLValidator.validate(text)).toBe(true);
  const parsed = parseFeed(text);
  expect(parsed.format).toBe("atom");
  if (parsed.format !== "atom") throw new Error("not Atom");
  return parsed.feed;
}

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", isArray: (name) => ["url", "sitemap"].includes(name) });

beforeAll(async () => {
  testApp = await createTestApp({ PUBLIC_URL: ORIGIN });
  author = await register("Ada");
  other = await register("Bea");
  readerWithoutBooks = await register("Cy");
  published.push(await publish(author, "Le premier livre"));
  published.push(await publish(other, "The second book", "en"));
  published.push(await publish(author, HOSTILE_TITLE));
  unpublished = await publish(author, "Not yet out");
  await testApp.database.db.update(books).set({ isPublished: false }).where(eq(books.id, unpublished.id));
  deleted = await publish(author, "Withdrawn");
  await request(testApp.app).delete(`/api/books/${deleted.id}`).set("Cookie", author.cookie).expect(204);
  // A cover drawn after an upload changes its book's row, and with it the feeds' validators.
  await testApp.coversDone();
});

afterAll(() => testApp.close());

describe("the Atom feed of new books", () => {
  it("is valid Atom with the feed's id, title, updated, self link and author", async () => {
    const response = await get("/feed.xml").expect(200);
    expect(response.headers["content-type"]).toBe("application/atom+xml; charset=utf-8");
    expect(response.headers["cache-control"]).toMatch(/^public, max-age=\d+$/);
    const feed = parseAtom(response.text);
    expect(feed.id).toBe(`${ORIGIN}/feed.xml`);
    expect(feed.title?.value).toMatch(/new books/);
    expect(feed.links).toContainEqual({ rel: "self", type: "application/atom+xml", href: `${ORIGIN}/feed.xml` });
    expect(feed.authors?.[0]?.name).toBeTruthy();
    expect(new Date(feed.updated!).toUTCString()).toBe(response.headers["last-modified"]);
  });

  it("lists published books newest first, each with its page, author, genre, language and cover", async () => {
    const feed = parseAtom((await get("/feed.xml").expect(200)).text);
    expect(feed.entries?.map((entry) => entry.title?.value)).toEqual([...published].reverse().map((book) => book.title));
    const [, second] = feed.entries!;
    const book = published[1]!;
    expect(second!.id).toBe(`${ORIGIN}/books/${book.id}`);
    expect(second!.links).toContainEqual({ rel: "alternate", type: "text/html", href: `${ORIGIN}${bookPath(book)}` });
    expect(second!.links?.find((link) => link.rel === "enclosure")).toMatchObject({ type: "image/webp", href: expect.stringMatching(new RegExp(`^${ORIGIN}/covers/.+\\.webp$`)) });
    expect(second!.authors).toEqual([{ name: "Bea Writer", uri: `${ORIGIN}${authorPath(other)}` }]);
    expect(second!.categories).toEqual([{ term: "novela", label: expect.any(String) }]);
    expect(second!.summary?.value).toBe("Una novela de ficción sobre la mañana.");
    expect(second!.xml?.lang).toBe("en");
    expect(feed.entries![0]!.xml?.lang).toBe("fr");
    expect(Date.parse(second!.published!)).not.toBeNaN();
    expect(Date.parse(second!.updated!)).not.toBeNaN();
  });

  it("keeps a hostile title as text", async () => {
    const { text } = await get("/feed.xml").expect(200);
    expect(text).not.toContain("<script>");
    expect(parseAtom(text).entries?.[0]?.title?.value).toBe(HOSTILE_TITLE);
  });

  it("leaves out unpublished and deleted books", async () => {
    const { text } = await get("/feed.xml").expect(200);
    for (const hidden of [unpublished, deleted]) {
      expect(text).not.toContain(hidden.title);
      expect(text).not.toContain(`/books/${hidden.id}`);
    }
  });

  it("answers 304 to a reader that has the current copy", async () => {
    const first = await get("/feed.xml").expect(200);
    expect(first.headers.etag).toBeTruthy();
    await get("/feed.xml").set("If-None-Match", first.headers.etag!).expect(304);
  });

  it("makes the feed, the sitemap and robots.txt from the configured site whatever Host or X-Forwarded-Host the request names (docs/decisions/0053)", async () => {
    for (const [settings, origin] of [
      [{ PUBLIC_URL: ORIGIN }, ORIGIN],
      // Development, without PUBLIC_URL: the address the server listens on.
      [{ PORT: "5123", PUBLIC_URL: "" }, "http://localhost:5123"],
    ] as const) {
      const local = testApp.anotherProcess({ ...settings, TRUST_PROXY: "loopback" });
      try {
        for (const headers of [{ Host: "evil.example" }, { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" }]) {
          const read = async (path: string) => (await request(local.app).get(path).set(headers).expect(200)).text;
          expect(parseAtom(await read("/feed.xml")).id).toBe(`${origin}/feed.xml`);
          expect(await read("/sitemap.xml")).toContain(`<loc>${origin}/sitemaps/pages.xml</loc>`);
          expect((await read("/robots.txt")).split("\n")).toContain(`Sitemap: ${origin}/sitemap.xml`);
          expect(await read("/sitemaps/pages.xml")).not.toContain("evil.example");
        }
      } finally {
        local.close();
      }
    }
  });

  it("is compressed for a reader that accepts it", async () => {
    const response = await get("/feed.xml").set("Accept-Encoding", "gzip").expect(200);
    expect(response.headers["content-encoding"]).toBe("gzip");
    parseAtom(response.text);
  });
});

describe("an author's Atom feed", () => {
  it("lists that author's published books only", async () => {
    const response = await get(`/authors/${author.id}/feed.xml`).expect(200);
    expect(response.headers["content-type"]).toBe("application/atom+xml; charset=utf-8");
    const feed = parseAtom(response.text);
    expect(feed.id).toBe(`${ORIGIN}/authors/${author.id}/feed.xml`);
    expect(feed.title?.value).toBe("Ada Writer on Plume");
    expect(feed.authors).toEqual([{ name: "Ada Writer", uri: `${ORIGIN}${authorPath(author)}` }]);
    expect(feed.links).toContainEqual({ rel: "self", type: "application/atom+xml", href: `${ORIGIN}/authors/${author.id}/feed.xml` });
    expect(feed.entries?.map((entry) => entry.title?.value)).toEqual([HOSTILE_TITLE, "Le premier livre"]);
  });

  it("is 404 for an account without published books, like an unknown one: a reader's name stays private", async () => {
    const response = await get(`/authors/${readerWithoutBooks.id}/feed.xml`).expect(404);
    expect(response.body).toEqual((await get(`/authors/${randomUUID()}/feed.xml`).expect(404)).body);
    expect(response.text).not.toContain(readerWithoutBooks.id);
  });

  it("is 404 for an unknown author and 400 for an id that is not one", async () => {
    expect((await get(`/authors/${randomUUID()}/feed.xml`).expect(404)).body).toMatchObject({ code: "not_found" });
    for (const bad of ["42", "not-an-id", "%27%20or%201%3D1"]) {
      expect((await get(`/authors/${bad}/feed.xml`).expect(400)).body).toMatchObject({ code: "validation_failed", fields: { id: expect.any(String) } });
    }
  });
});

describe("the sitemap", () => {
  const locsOf = (text: string) => {
    expect(XMLValidator.validate(text)).toBe(true);
    const parsed = xml.parse(text) as { urlset: { url: Array<{ loc: string; lastmod?: string }> } };
    return parsed.urlset.url;
  };
  const W3C_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

  it("is an index of absolute sitemap addresses", async () => {
    const response = await get("/sitemap.xml").expect(200);
    expect(response.headers["content-type"]).toBe("application/xml; charset=utf-8");
    expect(XMLValidator.validate(response.text)).toBe(true);
    const index = xml.parse(response.text) as { sitemapindex: { "@xmlns": string; sitemap: Array<{ loc: string; lastmod?: string }> } };
    expect(index.sitemapindex["@xmlns"]).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
    expect(index.sitemapindex.sitemap.map((sitemap) => sitemap.loc)).toEqual([
      `${ORIGIN}/sitemaps/pages.xml`,
      `${ORIGIN}/sitemaps/books-1.xml`,
      `${ORIGIN}/sitemaps/authors-1.xml`,
    ]);
    expect(index.sitemapindex.sitemap[1]!.lastmod).toMatch(W3C_DATETIME);
  });

  it("names the home and catalog pages, and the info pages without a date", async () => {
    const pages = locsOf((await get("/sitemaps/pages.xml").expect(200)).text);
    expect(pages.map((url) => url.loc)).toEqual([`${ORIGIN}/`, `${ORIGIN}/catalog`, ...["/help", "/author-guide", "/terms", "/privacy", "/contact", "/transparency"].map((path) => `${ORIGIN}${path}`)]);
    expect(pages.slice(2).every((url) => url.lastmod === undefined)).toBe(true);
  });

  it("names every published book at its canonical address, with a valid lastmod, and no other", async () => {
    const urls = locsOf((await get("/sitemaps/books-1.xml").expect(200)).text);
    expect(urls.map((url) => url.loc)).toEqual(published.map((book) => `${ORIGIN}${bookPath(book)}`));
    for (const url of urls) {
      expect(url.lastmod).toMatch(W3C_DATETIME);
      expect(Date.parse(url.lastmod!)).toBeLessThanOrEqual(Date.now());
    }
  });

  it("names the authors with a published book", async () => {
    const urls = locsOf((await get("/sitemaps/authors-1.xml").expect(200)).text);
    expect(urls.map((url) => url.loc).sort()).toEqual([author, other].map((account) => `${ORIGIN}${authorPath(account)}`).sort());
    for (const url of urls) expect(url.lastmod).toMatch(W3C_DATETIME);
  });

  it("puts books with ids past 50,000 on a page of their own", async () => {
    const [source] = await testApp.database.db.select().from(books).where(eq(books.id, published[0]!.id));
    const { id: _id, ...columns } = source!;
    const far = 50_001 + Math.floor(Math.random() * 1000);
    await testApp.database.db.execute(
      sql`insert into books (id, title, author_id, file_name, file_path, file_size, mime_type, language, genre)
          overriding system value values (${far}, 'Far away', ${columns.authorId}, ${columns.fileName}, ${columns.filePath}, ${columns.fileSize}, ${columns.mimeType}, 'en', 'novela')`,
    );
    try {
      const index = (await get("/sitemap.xml").expect(200)).text;
      expect(index).toContain(`${ORIGIN}/sitemaps/books-2.xml`);
      expect(locsOf((await get("/sitemaps/books-2.xml").expect(200)).text).map((url) => url.loc)).toEqual([`${ORIGIN}${bookPath({ id: far, title: "Far away" })}`]);
      expect(locsOf((await get("/sitemaps/books-1.xml").expect(200)).text)).toHaveLength(published.length);
    } finally {
      await testApp.database.db.delete(books).where(eq(books.id, far));
    }
  });

  it("is gzipped as it is written for a crawler that accepts it, and 304 when unchanged", async () => {
    const response = await get("/sitemaps/books-1.xml").set("Accept-Encoding", "gzip").expect(200);
    expect(response.headers["content-encoding"]).toBe("gzip");
    expect(locsOf(response.text)).toHaveLength(published.length);
    await get("/sitemaps/books-1.xml").set("If-Modified-Since", response.headers["last-modified"]!).expect(304);
  });

  it("is 404 for a sitemap it does not list", async () => {
    for (const name of ["books-0.xml", "books-7.xml", "authors-2.xml", "books-1", "other.xml", "books-1.xml.gz"]) {
      expect((await get(`/sitemaps/${name}`).expect(404)).body, name).toMatchObject({ code: "not_found" });
    }
  });
});

describe("robots.txt", () => {
  it("allows pages, keeps crawlers out of the API, and names the sitemap's absolute address", async () => {
    const response = await get("/robots.txt").expect(200);
    expect(response.headers["content-type"]).toBe("text/plain; charset=utf-8");
    const lines = response.text.split("\n");
    expect(lines).toContain("User-agent: *");
    expect(lines).toContain("Allow: /");
    expect(lines).toContain("Disallow: /api/");
    expect(lines).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    expect(lines).not.toContain("Disallow: /books/");
  });
});
