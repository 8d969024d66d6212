import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { JSDOM } from "jsdom";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookPath } from "../../shared/book-urls.ts";
import { infoPageAt } from "../../shared/info-pages.ts";
import { ALL_TEXTS } from "../../shared/locales/all-texts.ts";
import { type AuthorProfile, BOOK_PAGE_COVER_SIZES } from "../../shared/page-meta.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { books, downloads } from "../db/schema.ts";
import { serveBuiltClient } from "../http/serve-client.ts";

/** The shape of the built index.html (client/index.html after `vite build`). */
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta
      name="description"
      content="Plume: independent authors publish their books."
    />
    <title>Plume</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

const ORIGIN = "https://plume.example";
const HOSTILE_TITLE = `</script><script>alert(1)</script> "Quotes" & 'more' <b>`;

let testApp: TestApp;
let clientFolder: string;
let author: Awaited<ReturnType<typeof signedInAgent>>;
let book: { id: number; title: string; coverImageUrl: string };
let plainBook: { id: number; title: string };

beforeAll(async () => {
  clientFolder = mkdtempSync(join(tmpdir(), "plume-pages-"));
  writeFileSync(join(clientFolder, "index.html"), INDEX_HTML);
  testApp = await createTestApp({ PUBLIC_URL: ORIGIN }, { client: serveBuiltClient(clientFolder) });
  author = await signedInAgent(testApp.app, { firstName: "Ana", lastName: "García", email: "ana.secret@example.test" });
  const published = await sendBookForm(author.agent.post("/api/books"), {
    title: HOSTILE_TITLE,
    description: "A hostile <description> & a \"quoted\" one.\nOn two lines.",
    genre: "misterio",
    language: "en",
  }).expect(201);
  book = published.body as typeof book;
  const second = await sendBookForm(author.agent.post("/api/books"), { title: "Sin portada", coverImage: null }).expect(201);
  plainBook = second.body as typeof plainBook;
  // Books from before descriptions were required have none, nor, until `npm run covers:fill` draws it, a
  // cover. Uploaded long ago, as they were: a process's start takes up only recent books lacking a cover
  // (server/system/background-book-queue.ts), and the Host test below starts another process.
  await testApp.coversDone();
  const longAgo = new Date("2024-03-01T12:00:00Z");
  await testApp.database.db.update(books).set({ description: null, coverImageUrl: null, createdAt: longAgo }).where(eq(books.id, plainBook.id));
});

afterAll(async () => {
  await testApp?.close();
  rmSync(clientFolder, { recursive: true, force: true });
});

const page = (path: string) => request(testApp.app).get(path);

function parse(html: string) {
  const { document } = new JSDOM(html).window;
  const metaOf = (key: string) => document.querySelector(`meta[property="${key}"], meta[name="${key}"]`)?.getAttribute("content");
  const jsonLd = () => JSON.parse(document.querySelector('script[type="application/ld+json"]')!.textContent!) as Record<string, unknown>;
  return { document, metaOf, jsonLd };
}

const fetchPreloadsOf = (document: Document) =>
  [...document.querySelectorAll('link[rel="preload"][as="fetch"]')].map((link) => link.getAttribute("href"));

describe("the page of a book, as the server sends it", () => {
  it("carries the book's own title, description, canonical address, Open Graph and Twitter card", async () => {
    const response = await page(`/books/${book.id}-an-old-slug`).set("Accept-Language", "en").expect(200);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    const { document, metaOf } = parse(response.text);
    const canonical = `${ORIGIN}${bookPath(book)}`;
    expect(document.title).toBe(`${HOSTILE_TITLE} · Plume`);
    expect(document.querySelectorAll("title")).toHaveLength(1);
    expect(document.querySelectorAll('meta[name="description"]')).toHaveLength(1);
    expect(metaOf("description")).toBe('A hostile <description> & a "quoted" one. On two lines.');
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(canonical);
    expect(metaOf("og:type")).toBe("book");
    expect(metaOf("og:title")).toBe(`${HOSTILE_TITLE} · Plume`);
    expect(metaOf("og:url")).toBe(canonical);
    expect(metaOf("og:image")).toBe(`${ORIGIN}${book.coverImageUrl}`);
    expect(metaOf("og:image:alt")).toBe(`Cover of ${HOSTILE_TITLE}`);
    expect([metaOf("og:image:type"), metaOf("og:image:width"), metaOf("og:image:height")]).toEqual(["image/webp", "600", "900"]);
    expect(metaOf("book:author")).toBe(`${ORIGIN}/authors/${author.user.id}`);
    expect(metaOf("twitter:card")).toBe("summary_large_image");
    expect(metaOf("twitter:image")).toBe(`${ORIGIN}${book.coverImageUrl}`);
    expect(document.documentElement.lang).toBe("en");
    const coverPreload = document.querySelector('link[rel="preload"][as="image"]');
    expect(coverPreload?.getAttribute("imagesrcset")).toBe(
      [200, 400, 600].map((width) => `${book.coverImageUrl.replace("-600.webp", `-${width}.webp`)} ${width}w`).join(", "),
    );
    expect(coverPreload?.getAttribute("imagesizes")).toBe(BOOK_PAGE_COVER_SIZES);
    // The app itself is still there.
    expect(document.querySelector('script[src="/assets/index-abc.js"]')).not.toBeNull();
    expect(document.getElementById("root")).not.toBeNull();
  });

  it("names the reads of the book's screen as preloads: who is signed in, the book and its author", async () => {
    const { document } = parse((await page(bookPath(book)).expect(200)).text);
    expect(fetchPreloadsOf(document)).toEqual(["/api/auth/user", `/api/books/${book.id}`, `/api/authors/${author.user.id}`]);
  });

  it("takes every address from the configured site whatever Host or X-Forwarded-Host the request names (docs/decisions/0053)", async () => {
    const behindProxy = testApp.anotherProcess({ PUBLIC_URL: ORIGIN, TRUST_PROXY: "loopback" });
    try {
      for (const headers of [{ Host: "evil.example" }, { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "http" }]) {
        const { text } = await request(behindProxy.app).get(bookPath(book)).set(headers).expect(200);
        expect(parse(text).metaOf("og:url")).toBe(`${ORIGIN}${bookPath(book)}`);
        expect(text).not.toContain("evil.example");
      }
    } finally {
      behindProxy.close();
    }
  });

  it("keeps a hostile title text everywhere: no element, attribute or script comes out of it", async () => {
    const { text } = await page(bookPath(book)).expect(200);
    const { document } = parse(text);
    expect(document.querySelectorAll("script:not([src])")).toHaveLength(1);
    expect(document.querySelectorAll("b")).toHaveLength(0);
    expect(document.body.textContent?.trim()).toBe("");
    expect(text).not.toContain("</script><script>alert(1)");
    expect(text).toContain("\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e");
  });

  it("describes the book in schema.org JSON-LD", async () => {
    const { jsonLd } = parse((await page(bookPath(book)).expect(200)).text);
    const data = jsonLd();
    const url = `${ORIGIN}${bookPath(book)}`;
    expect(data).toMatchObject({
      "@context": "https://schema.org",
      "@type": "Book",
      url,
      name: HOSTILE_TITLE,
      author: { "@type": "Person", name: "Ana García", url: `${ORIGIN}/authors/${author.user.id}` },
      inLanguage: "en",
      genre: "Mystery",
      image: `${ORIGIN}${book.coverImageUrl}`,
      description: 'A hostile <description> & a "quoted" one.\nOn two lines.',
      interactionStatistic: { "@type": "InteractionCounter", interactionType: "https://schema.org/DownloadAction", userInteractionCount: 0 },
      potentialAction: [
        { "@type": "ReadAction", target: `${ORIGIN}/books/${book.id}/read` },
        { "@type": "DownloadAction", target: url },
      ],
    });
    expect(data.datePublished).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Not rated yet: no rating to claim.
    expect(data).not.toHaveProperty("aggregateRating");
  });

  it("gives the rating once there is one", async () => {
    const reader = await signedInAgent(testApp.app);
    await reader.agent.post("/rate").send({ bookId: book.id, userId: reader.user.id, rating: 4 }).expect(201);
    const { jsonLd } = parse((await page(bookPath(book)).expect(200)).text);
    expect(jsonLd().aggregateRating).toEqual({ "@type": "AggregateRating", ratingValue: 4, ratingCount: 1, bestRating: 5, worstRating: 1 });
  });

  it("names the most helpful reviews beside the rating (docs/product.md#reviews)", async () => {
    const reader = await signedInAgent(testApp.app, { firstName: "Lea", lastName: "Moreau" });
    // Taken, without a counted download: the author page's counts below stay as they are.
    await testApp.database.db.insert(downloads).values({ bookId: book.id, userId: reader.user.id, channel: "read", counted: false });
    await reader.agent.put(`/api/books/${book.id}/review`).send({ rating: 5, text: "A hostile </script><b> review & its second line.\nKept." }).expect(200);
    const { jsonLd } = parse((await page(bookPath(book)).expect(200)).text);
    expect(jsonLd().review).toEqual([
      {
        "@type": "Review",
        author: { "@type": "Person", name: "Lea Moreau" },
        reviewRating: { "@type": "Rating", ratingValue: 5, bestRating: 5, worstRating: 1 },
        reviewBody: "A hostile </script><b> review & its second line.\nKept.",
        datePublished: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      },
    ]);
  });

  it("falls back to a sentence for a book without description, and a small card without cover", async () => {
    const { document, metaOf, jsonLd } = parse((await page(bookPath(plainBook)).set("Accept-Language", "fr").expect(200)).text);
    expect(metaOf("description")).toBe("Sin portada, un livre de Ana García : lisez-le en ligne ou téléchargez-le gratuitement sur Plume.");
    expect(metaOf("og:image")).toBeUndefined();
    expect(metaOf("twitter:card")).toBe("summary");
    expect(jsonLd()).not.toHaveProperty("image");
    expect(document.querySelector('link[rel="preload"][as="image"]')).toBeNull();
    expect(metaOf("og:locale")).toBe("fr_FR");
  });

  it("links the three languages and x-default; an address naming a language is its own canonical, in that language", async () => {
    const response = await page(`${bookPath(book)}?lang=es&utm_source=chat`).set("Accept-Language", "fr").expect(200);
    const { document, metaOf } = parse(response.text);
    const url = `${ORIGIN}${bookPath(book)}`;
    const alternates = [...document.querySelectorAll('link[rel="alternate"][hreflang]')].map((element) => [
      element.getAttribute("hreflang"),
      element.getAttribute("href"),
    ]);
    expect(alternates).toEqual([
      ["en", `${url}?lang=en`],
      ["es", `${url}?lang=es`],
      ["fr", `${url}?lang=fr`],
      ["x-default", url],
    ]);
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(`${url}?lang=es`);
    expect(document.documentElement.lang).toBe("es");
    expect(metaOf("og:locale")).toBe("es_ES");
    expect(JSON.parse(document.querySelector('script[type="application/ld+json"]')!.textContent!).genre).toBe("Misterio");
  });

  it("is made per request, revalidated each time, and varies with the reader's languages", async () => {
    const response = await page(bookPath(book)).expect(200);
    expect(response.headers["cache-control"]).toBe("no-cache");
    expect(response.headers["vary"]).toBe("Accept-Encoding, Accept-Language, Cookie");
    await page(bookPath(book)).set("If-None-Match", String(response.headers["etag"])).expect(304);
  });

  it("is compressed for a browser that accepts it", async () => {
    const response = await page(bookPath(book)).set("Accept-Encoding", "gzip, deflate, br").expect(200);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.text).toContain("<title>");
  });

  it("answers HEAD like GET", async () => {
    await request(testApp.app).head(bookPath(book)).expect(200);
    await request(testApp.app).head("/books/abc").expect(404);
  });

  it.each(["/books/abc", "/books/99999999999", "/books/0", "/books/-1", "/books/2147483647", "/books/12abc", "/books/%3Cscript%3E"])(
    "answers %s with status 404 and the app's page, not indexed",
    async (path) => {
      const response = await page(path).expect(404);
      const { document, metaOf } = parse(response.text);
      expect(response.headers["content-type"]).toMatch(/^text\/html/);
      expect(document.getElementById("root")).not.toBeNull();
      expect(document.title).toBe("404 Page Not Found · Plume");
      expect(metaOf("robots")).toBe("noindex");
      expect(document.querySelector('link[rel="canonical"]')).toBeNull();
    },
  );

  it("gives the content rating in the JSON-LD, in the page's language (docs/product.md#content-ratings)", async () => {
    // Another author's: this file's author page lists Ana's books only.
    const rater = await signedInAgent(testApp.app, { firstName: "Eve", lastName: "Rater" });
    const teen = (await sendBookForm(rater.agent.post("/api/books"), { title: "Quiet teen", contentRating: "teen", coverImage: null }).expect(201)).body as { id: number; title: string };
    expect(parse((await page(bookPath(teen)).expect(200)).text).jsonLd()).toMatchObject({ "@type": "Book", contentRating: "Teen" });
    expect(parse((await page(`${bookPath(teen)}?lang=fr`).expect(200)).text).jsonLd()).toMatchObject({ contentRating: "Adolescents" });
    expect(parse((await page(bookPath(book)).expect(200)).text).jsonLd()).toMatchObject({ contentRating: "General" });
  });

  it("names nothing of an explicit book in its head: a notice's title, no indexing, no structured data; and leaves it off its author's page", async () => {
    const rater = await signedInAgent(testApp.app, { firstName: "Eve", lastName: "Rater" });
    await sendBookForm(rater.agent.post("/api/books"), { title: "A general one", coverImage: null }).expect(201);
    const explicit = (await sendBookForm(rater.agent.post("/api/books"), { title: "Unveiled nights", description: "Very explicit.", contentRating: "explicit" }).expect(201))
      .body as { id: number; title: string };
    const response = await page(bookPath(explicit)).expect(200);
    expect(response.text).not.toContain("Unveiled");
    expect(response.text).not.toContain("Very explicit");
    const { document, metaOf } = parse(response.text);
    expect(document.title).toBe(`${ALL_TEXTS.en.contentRating.gate.metaTitle} · Plume`);
    expect(metaOf("robots")).toBe("noindex");
    expect(metaOf("rating")).toBe("adult");
    expect(document.querySelector('script[type="application/ld+json"]')).toBeNull();
    expect(document.querySelector('meta[property="og:image"]')).toBeNull();
    // The author page's head is a visitor's: the explicit book is not among its parts.
    const authorPage = await page(`/authors/${rater.user.id}`).expect(200);
    expect(authorPage.text).toContain("A general one");
    expect(authorPage.text).not.toContain("Unveiled");
  });

  it("answers 404 for a deleted book and for an unpublished one, even to its author", async () => {
    const deleted = (await sendBookForm(author.agent.post("/api/books"), { title: "Gone" }).expect(201)).body as { id: number };
    await author.agent.delete(`/api/books/${deleted.id}`).expect(204);
    await page(`/books/${deleted.id}`).expect(404);

    const hidden = (await sendBookForm(author.agent.post("/api/books"), { title: "Hidden" }).expect(201)).body as { id: number };
    await testApp.database.db.update(books).set({ isPublished: false }).where(eq(books.id, hidden.id));
    await page(`/books/${hidden.id}`).expect(404);
    await author.agent.get(`/books/${hidden.id}`).expect(404);
  });

  it("leaves the other screens as they were: the generic page", async () => {
    const response = await page("/catalog").expect(200);
    expect(response.text).toContain("<title>Plume</title>");
    expect(response.text).toContain('name="description"');
  });
});

describe("the info pages, as the server sends them (docs/product.md#info-pages)", () => {
  it.each([
    ["/help", "es", "Cómo funciona Plume · Plume"],
    ["/author-guide", "fr", "Guide de l'auteur · Plume"],
    ["/terms", "en", "Terms of use · Plume"],
    ["/privacy", "es", "Privacidad · Plume"],
    ["/contact", "fr", "Contact · Plume"],
    ["/transparency", "es", "Informe de transparencia · Plume"],
  ])("%s carries its own title, description, canonical address and languages, in %s", async (path, language, title) => {
    const response = await page(`${path}?lang=${language}`).expect(200);
    const { document, metaOf, jsonLd } = parse(response.text);
    expect(document.title).toBe(title);
    expect(document.documentElement.lang).toBe(language);
    expect(metaOf("description")).toBe(ALL_TEXTS[language as "en"].infoPages[infoPageAt(path)!.key].description);
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(`${ORIGIN}${path}?lang=${language}`);
    expect([...document.querySelectorAll('link[rel="alternate"][hreflang]')].map((element) => element.getAttribute("hreflang"))).toEqual(["en", "es", "fr", "x-default"]);
    expect(metaOf("og:type")).toBe("website");
    expect(jsonLd()).toMatchObject({ "@type": "WebPage", url: `${ORIGIN}${path}`, inLanguage: language });
    expect(metaOf("robots")).toBeUndefined();
  });

  it("is found whatever the letter case and with one trailing slash, and not below it", async () => {
    const { document } = parse((await page("/Privacy/").expect(200)).text);
    expect(document.title).toBe("Privacy · Plume");
    await page("/privacy/extra").expect(404);
  });
});

describe("a path that no screen shows (docs/product.md#screens)", () => {
  it.each([
    "/",
    "/catalog",
    "/catalog?search=x",
    "/catalog/",
    "/CATALOG",
    "/catalo%67",
    "/login",
    "/register",
    "/upload",
    "/edit-book/12",
    "/edit-book/abc",
    "/edit-book",
    "/dashboard",
    "/settings",
    "/admin",
    "/admin/moderation",
    "/forgot-password",
    "/reset-password?token=abc",
    "/verify-email",
    "/books/1-x/read",
    "/books/1/read/",
  ])("leaves the screen %s its generic page and status 200", async (path) => {
    const response = await page(path).expect(200);
    expect(parse(response.text).document.title).toBe("Plume");
  });

  it.each([
    "/nope",
    "/nope?search=x",
    "/catalog/extra",
    "/catalog//",
    "//catalog",
    "/books/1/read/x",
    "/books",
    "/authors/",
    "/edit-book/1/2",
    "/uploads/../x",
    "/%zz",
    "/catalog%2Fextra",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/%3Cscript%3Ealert(1)%3C/script%3E",
  ])("answers %s with status 404 and the app's page, not indexed", async (path) => {
    const response = await page(path).expect(404);
    const { document, metaOf } = parse(response.text);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    expect(response.headers["cache-control"]).toBe("no-cache");
    expect(document.getElementById("root")).not.toBeNull();
    expect(document.title).toBe("404 Page Not Found · Plume");
    expect(metaOf("robots")).toBe("noindex");
    expect(document.querySelector('link[rel="canonical"]')).toBeNull();
    expect(response.text).not.toContain("<script>alert");
  });

  it("is written in the reader's language", async () => {
    const response = await page("/nope").set("Accept-Language", "fr-FR").expect(404);
    const { document } = parse(response.text);
    expect(document.documentElement.lang).toBe("fr");
    expect(document.title).toBe("404 Page introuvable · Plume");
  });

  it("answers HEAD like GET", async () => {
    await request(testApp.app).head("/nope").expect(404);
    await request(testApp.app).head("/catalog/").expect(200);
  });

  it("answers a file missing from the build's assets with a JSON 404, never the app's page", async () => {
    const response = await page("/assets/index-gone.js").expect(404);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.body).toMatchObject({ code: "not_found" });
  });

  it("leaves the API's misses their JSON 404", async () => {
    const response = await page("/api/nope").expect(404);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.body).toMatchObject({ code: "not_found" });
  });
});

describe("the page of an author", () => {
  it("shows the display name, the books, the public total and member since; never the e-mail", async () => {
    const response = await request(testApp.app).get(`/api/authors/${author.user.id}`).expect(200);
    const profile = response.body as AuthorProfile;
    expect(profile.author).toEqual({ id: author.user.id, firstName: "Ana", lastName: "García", displayName: "Ana García" });
    expect(profile.books.map((listed) => listed.id).sort()).toEqual([book.id, plainBook.id].sort());
    expect(profile.totalDownloads).toBe(0);
    expect(new Date(profile.memberSince).getTime()).toBeLessThanOrEqual(Date.now());
    expect(response.text).not.toContain("ana.secret");
  });

  it("counts the downloads of the books it lists", async () => {
    const reader = await signedInAgent(testApp.app);
    await reader.agent.post(`/api/books/${book.id}/download`).expect(200);
    const profile = (await request(testApp.app).get(`/api/authors/${author.user.id}`).expect(200)).body as AuthorProfile;
    expect(profile.totalDownloads).toBe(1);
    expect(profile.books.find((listed) => listed.id === book.id)?.downloadCount).toBe(1);
  });

  it("names the reads of the author's screen as preloads: who is signed in and the author's profile", async () => {
    const { document } = parse((await page(`/authors/${author.user.id}`).expect(200)).text);
    expect(fetchPreloadsOf(document)).toEqual(["/api/auth/user", `/api/authors/${author.user.id}`]);
  });

  it("is sent with a ProfilePage of a Person, and the author's own title", async () => {
    const response = await page(`/authors/${author.user.id}`).set("Accept-Language", "es").expect(200);
    const { document, metaOf, jsonLd } = parse(response.text);
    const url = `${ORIGIN}/authors/${author.user.id}`;
    expect(document.title).toBe("Ana García · Plume");
    expect(metaOf("og:type")).toBe("profile");
    expect(metaOf("profile:first_name")).toBe("Ana");
    expect(metaOf("description")).toBe("Libros de Ana García en Plume, gratis para leer y descargar.");
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(url);
    // A feed reader given the author's page finds the author's feed.
    const feed = document.querySelector('link[rel="alternate"][type="application/atom+xml"]');
    expect([feed?.getAttribute("href"), feed?.getAttribute("title")]).toEqual([`${url}/feed.xml`, "Libros nuevos de Ana García (feed Atom)"]);
    expect(jsonLd()).toMatchObject({
      "@type": "ProfilePage",
      url,
      mainEntity: { "@type": "Person", name: "Ana García", url },
    });
    expect(response.text).not.toContain("ana.secret");
  });

  it("answers 404 for an unknown, malformed or bookless account, on the page and in the API", async () => {
    const reader = await signedInAgent(testApp.app);
    for (const id of ["00000000-0000-4000-8000-000000000000", reader.user.id]) {
      await page(`/authors/${id}`).expect(404);
      await request(testApp.app).get(`/api/authors/${id}`).expect(404, { message: "This author does not exist.", code: "not_found" });
    }
    await page("/authors/not-a-uuid").expect(404);
    const malformed = await request(testApp.app).get("/api/authors/not-a-uuid").expect(400);
    expect(malformed.body).toMatchObject({ code: "validation_failed", fields: { id: "validation.userIdInvalid" } });
  });
});

describe("the page of a reader's public shelves (docs/product.md#shelves)", () => {
  it("is 404 while the shelves are private, then sent with the username, counts and a profile's Open Graph; never the e-mail", async () => {
    const reader = await signedInAgent(testApp.app, { firstName: "Lucía", lastName: "Secreta", email: "lucia.secret@example.test" });
    await reader.agent.put(`/api/shelves/${book.id}`).send({ shelf: "reading" }).expect(200);
    await reader.agent.put(`/api/shelves/${plainBook.id}`).send({ shelf: "read" }).expect(200);
    const address = `/readers/${reader.account.username}`;
    const hidden = parse((await page(address).set("Accept-Language", "en").expect(404)).text);
    expect(hidden.metaOf("robots")).toBe("noindex");

    await reader.agent.put("/api/account/shelves-public").send({ shelvesPublic: true }).expect(200);
    const { text } = await page(address.toUpperCase()).set("Accept-Language", "en").expect(200);
    const { document, metaOf, jsonLd } = parse(text);
    const canonical = `${ORIGIN}${address}`;
    expect(document.title).toBe(`${reader.account.username}’s shelves · Plume`);
    expect(metaOf("description")).toBe(`The books ${reader.account.username} wants to read (0), is reading (1) and has read (1) on Plume.`);
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(canonical);
    expect(metaOf("og:type")).toBe("profile");
    expect(metaOf("profile:username")).toBe(reader.account.username);
    expect(metaOf("og:image")).toBe(`${ORIGIN}${book.coverImageUrl}`);
    expect(metaOf("robots")).toBeUndefined();
    expect(jsonLd()).toMatchObject({ "@type": "ProfilePage", mainEntity: { "@type": "Person", alternateName: reader.account.username } });
    for (const secret of ["Lucía", "Secreta", "lucia.secret"]) expect(text).not.toContain(secret);
    const spanish = parse((await page(address).set("Accept-Language", "es").expect(200)).text);
    expect(spanish.document.title).toBe(`Estanterías de ${reader.account.username} · Plume`);
    await page("/readers/no_such_reader_here").expect(404);
    await page("/readers/%E0%A4%A").expect(404);
  });
});
