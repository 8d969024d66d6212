import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LANGUAGE_COOKIE } from "../../shared/languages.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";

/*
 * "Title A–Z" in the order a reader of the interface's language expects (docs/decisions/0046), the
 * same on PGlite and on PostgreSQL: this file runs in both the api and the api-postgres projects.
 */

let testApp: TestApp;

/** In English and French: accents and case only break ties, numbers by value, punctuation ignored. */
const ROOT_ORDER = [
  "Ábaco",
  "Éclair",
  "enigme",
  "Enigme",
  "Énigme à Lyon",
  "ñandú",
  "Ñu",
  "nube",
  "oso",
  "¿Quién fue?",
  "Tome 2",
  "Tome 10",
  "Word 97 Book",
  "Zèbre",
];
/** In Spanish, ñ is a letter of its own, after n. */
const SPANISH_ORDER = [
  "Ábaco",
  "Éclair",
  "enigme",
  "Enigme",
  "Énigme à Lyon",
  "nube",
  "ñandú",
  "Ñu",
  "oso",
  "¿Quién fue?",
  "Tome 2",
  "Tome 10",
  "Word 97 Book",
  "Zèbre",
];

beforeAll(async () => {
  testApp = await createTestApp();
  const author = await signedInAgent(testApp.app);
  // Published in an order unlike any of the expected ones, with a title stored decomposed (n + ◌̃).
  for (const title of ["Zèbre", "Word 97 Book", "ñandú", "Tome 10", "enigme", "Énigme à Lyon", "Éclair", "N\u0303u", "oso", "Tome 2", "¿Quién fue?", "Enigme", "nube", "Ábaco"]) {
    const genre = ["ñandú", "N\u0303u", "nube", "Zèbre"].includes(title) ? "historia" : "novela";
    await sendBookForm(author.agent.post("/api/books"), { title, genre, description: "Un libro.", coverImage: null }).expect(201);
  }
});
afterAll(() => testApp.close());

type Reader = { cookie?: string; acceptLanguage?: string };

async function titlesInOrder(reader: Reader, query = ""): Promise<Array<{ id: number; title: string }>> {
  let call = request(testApp.app).get(`/api/books?sort=title${query}`);
  if (reader.cookie) call = call.set("Cookie", `${LANGUAGE_COOKIE}=${reader.cookie}`);
  if (reader.acceptLanguage) call = call.set("Accept-Language", reader.acceptLanguage);
  const response = await call.expect(200);
  expect(response.headers.vary).toMatch(/Accept-Language.*Cookie/);
  return (response.body as Array<{ id: number; title: string }>).map(({ id, title }) => ({ id, title: title.normalize("NFC") }));
}

/** The whole order read two books at a time, each page after the last book of the one before. */
async function pagedByCursor(reader: Reader): Promise<string[]> {
  const titles: string[] = [];
  let after = "";
  for (;;) {
    const page = await titlesInOrder(reader, `&limit=2${after}`);
    titles.push(...page.map((book) => book.title));
    if (page.length < 2) return titles;
    after = `&after=${page.at(-1)!.id}`;
  }
}

describe("GET /api/books?sort=title", () => {
  it.each([
    ["English, from the browser's languages", { acceptLanguage: "en-GB,en;q=0.8" }, ROOT_ORDER],
    ["French, the app's chosen language", { cookie: "fr", acceptLanguage: "es" }, ROOT_ORDER],
    ["Spanish, the app's chosen language", { cookie: "es", acceptLanguage: "fr" }, SPANISH_ORDER],
    ["Spanish, from the browser's languages", { acceptLanguage: "es-MX,es;q=0.9" }, SPANISH_ORDER],
    ["English, when nothing names a language", {}, ROOT_ORDER],
  ])("orders titles as a reader of %s expects", async (_reader, reader: Reader, expected) => {
    expect((await titlesInOrder(reader)).map((book) => book.title)).toEqual(expected);
  });

  it.each([
    ["French", { cookie: "fr" }, ROOT_ORDER],
    ["Spanish", { cookie: "es" }, SPANISH_ORDER],
  ])("pages through the %s order by cursor and by offset without a gap or a repeat", async (_language, reader: Reader, expected) => {
    expect(await pagedByCursor(reader)).toEqual(expected);
    const byOffset = await Promise.all([0, 5, 10].map((offset) => titlesInOrder(reader, `&limit=5&offset=${offset}`)));
    expect(byOffset.flat().map((book) => book.title)).toEqual(expected);
  });

  it("keeps the reader's order within a genre and a search", async () => {
    expect((await titlesInOrder({ cookie: "es" }, "&genre=historia")).map((book) => book.title)).toEqual(["nube", "ñandú", "Ñu", "Zèbre"]);
    expect((await titlesInOrder({ cookie: "fr" }, "&genre=historia")).map((book) => book.title)).toEqual(["ñandú", "Ñu", "nube", "Zèbre"]);
    expect((await titlesInOrder({ cookie: "es" }, "&search=enigme")).map((book) => book.title)).toEqual(["enigme", "Enigme", "Énigme à Lyon"]);
  });
});
