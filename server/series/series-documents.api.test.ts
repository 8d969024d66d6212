import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JSDOM } from "jsdom";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { parseOpdsFeed } from "../../test/helpers/opds.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { serveBuiltClient } from "../http/serve-client.ts";
import * as answers from "../openapi/answer-schemas.ts";

/** Series and tags in the documents others read (docs/product.md#series-and-tags): a series' head, OPDS, the sitemap, the API's described answers. */

const INDEX_HTML = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Plume</title></head><body><div id="root"></div></body></html>`;
const ORIGIN = "https://plume.example";

let testApp: TestApp;
let clientFolder: string;
let author: Awaited<ReturnType<typeof signedInAgent>>;
let seriesId: number;
const volumes: number[] = [];

beforeAll(async () => {
  clientFolder = mkdtempSync(join(tmpdir(), "plume-series-"));
  writeFileSync(join(clientFolder, "index.html"), INDEX_HTML);
  testApp = await createTestApp({ PUBLIC_URL: ORIGIN }, { client: serveBuiltClient(clientFolder) });
  author = await signedInAgent(testApp.app, { firstName: "Ana", lastName: "García" });
  seriesId = (await author.agent.post("/api/series").send({ title: "The <Long> Road", description: "Three books & a road." }).expect(201)).body.id;
  for (const [volume, title] of [["1", "Setting out"], ["2", "Halfway"], ["3", "Home"]] as const) {
    const response = await sendBookForm(author.agent.post("/api/books"), { title, seriesId: String(seriesId), seriesVolume: volume, tags: "Road trip, Sciénce Fiction", coverImage: null, language: "en" }).expect(201);
    volumes.push(response.body.id);
  }
  await sendBookForm(author.agent.post("/api/books"), { title: "Explicit side story", seriesId: String(seriesId), seriesVolume: "2.5", tags: "Road trip", contentRating: "explicit", coverImage: null }).expect(201);
});

afterAll(async () => {
  await testApp.coversDone();
  await testApp.close();
  rmSync(clientFolder, { recursive: true, force: true });
});

describe("a series' page", () => {
  it("is sent with its head: title, description, Open Graph and BookSeries JSON-LD listing the volumes a visitor sees", async () => {
    const response = await request(testApp.app).get(`/series/${seriesId}`).expect(200);
    const { document } = new JSDOM(response.text).window;
    expect(document.title).toMatch(/^The <Long> Road/);
    expect(document.querySelector('meta[name="description"]')?.getAttribute("content")).toBe("Three books & a road.");
    expect(document.querySelector('meta[property="og:url"]')?.getAttribute("content")).toBe(`${ORIGIN}/series/${seriesId}`);
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(`${ORIGIN}/series/${seriesId}`);
    const jsonLd = JSON.parse(document.querySelector('script[type="application/ld+json"]')!.textContent!);
    expect(jsonLd).toMatchObject({ "@type": "BookSeries", name: "The <Long> Road", author: { "@type": "Person", name: "Ana García" } });
    expect(jsonLd.hasPart.map((part: { name: string; position: number }) => [part.position, part.name])).toEqual([
      [1, "Setting out"],
      [2, "Halfway"],
      [3, "Home"],
    ]);
    expect(response.text).not.toContain("<Long>");
  });

  it("answers 404 with the not-found head for an unknown or malformed series", async () => {
    await request(testApp.app).get("/series/999999").expect(404);
    await request(testApp.app).get("/series/abc").expect(404);
  });
});

describe("OPDS", () => {
  it("lists the most used tags from the root, each a feed whose entries carry their tags and series", async () => {
    const root = parseOpdsFeed((await request(testApp.app).get("/opds").expect(200)).text);
    expect(root.Entries.map((entry) => entry.Links[0]?.Href)).toContain(`${ORIGIN}/opds/tags`);
    const tags = parseOpdsFeed((await request(testApp.app).get("/opds/tags").expect(200)).text);
    expect(tags.Entries.map((entry) => entry.Title)).toEqual(["Road trip", "Sciénce Fiction"]);
    const tagged = await request(testApp.app).get("/opds/tags/road-trip").expect(200);
    const feed = parseOpdsFeed(tagged.text);
    expect(feed.Title).toContain("Road trip");
    // A visitor's feed: no explicit book.
    expect(feed.Entries.map((entry) => entry.Title)).toEqual(["Home", "Halfway", "Setting out"]);
    const entry = feed.Entries.find((candidate) => candidate.Title === "Halfway")!;
    expect(entry.Categories?.map((category) => category.Term)).toEqual(expect.arrayContaining(["road-trip", "science-fiction"]));
    const seriesLink = entry.Links.find((link) => link.Rel === "related");
    expect(seriesLink).toMatchObject({ Href: `${ORIGIN}/opds/series/${seriesId}`, Title: "The <Long> Road, volume 2" });
    await request(testApp.app).get("/opds/tags/no-such-tag").expect(404);
    await request(testApp.app).get("/opds/tags/-").expect(400);
  });

  it("gives each series a feed of its volumes in order, paged", async () => {
    const feed = parseOpdsFeed((await request(testApp.app).get(`/opds/series/${seriesId}`).expect(200)).text);
    expect(feed.Title).toContain("The <Long> Road");
    expect(feed.Entries.map((entry) => entry.Title)).toEqual(["Setting out", "Halfway", "Home"]);
    const first = parseOpdsFeed((await request(testApp.app).get(`/opds/series/${seriesId}?size=2`).expect(200)).text);
    expect(first.Entries.map((entry) => entry.Title)).toEqual(["Setting out", "Halfway"]);
    expect(first.Links.find((link) => link.Rel === "next")?.Href).toBe(`${ORIGIN}/opds/series/${seriesId}?page=2&size=2`);
    await request(testApp.app).get("/opds/series/999999").expect(404);
    await request(testApp.app).get("/opds/series/abc").expect(400);
  });
});

describe("the sitemap", () => {
  it("names each series with a listed book, and the catalog page of each used tag", async () => {
    const index = (await request(testApp.app).get("/sitemap.xml").expect(200)).text;
    expect(index).toContain(`<loc>${ORIGIN}/sitemaps/series-1.xml</loc>`);
    const series = (await request(testApp.app).get("/sitemaps/series-1.xml").expect(200)).text;
    expect(series).toContain(`<loc>${ORIGIN}/series/${seriesId}</loc>`);
    const pages = (await request(testApp.app).get("/sitemaps/pages.xml").expect(200)).text;
    expect(pages).toContain(`<loc>${ORIGIN}/catalog?tag=road-trip</loc>`);
    await request(testApp.app).get("/sitemaps/series-2.xml").expect(404);
  });
});

describe("the API's described answers", () => {
  it("match their strict schemas", async () => {
    const check = (schema: { safeParse: (value: unknown) => { error?: { issues: unknown[] } } }, body: unknown) => expect(schema.safeParse(body).error?.issues ?? []).toEqual([]);
    check(answers.seriesPageSchema, (await request(testApp.app).get(`/api/series/${seriesId}`).expect(200)).body);
    check(answers.bookPlacementSchema, (await request(testApp.app).get(`/api/books/${volumes[0]}/placement`).expect(200)).body);
    check(answers.tagSuggestionsSchema, (await request(testApp.app).get("/api/tags?q=ro").expect(200)).body);
    check(answers.tagInfoSchema, (await request(testApp.app).get("/api/tags/road-trip").expect(200)).body);
    for (const series of (await author.agent.get("/api/account/series").expect(200)).body) check(answers.seriesSummarySchema, series);
    check(answers.seriesSummarySchema, (await author.agent.put(`/api/series/${seriesId}`).send({ title: "The <Long> Road", description: "Three books & a road." }).expect(200)).body);
  });
});
