import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { ALL_TEXTS } from "../../shared/locales/all-texts.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { mailsTo } from "../../test/helpers/mail-files.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, newAccount, sessionAccount, signedInAgent } from "../../test/helpers/test-app.ts";
import { users } from "../db/schema.ts";
import { serveBuiltClient } from "../http/serve-client.ts";

type Agent = Awaited<ReturnType<typeof signedInAgent>>;
let testApp: TestApp;
let clientFolder: string;
let admin: Agent;
let author: Agent;
let reader: Agent;

const INDEX_HTML = `<!doctype html><html lang="en"><head><title>Plume</title></head><body><div id="root"></div></body></html>`;
const FACTS = "A notice showed this book is a copy of a published novel.";

beforeAll(async () => {
  clientFolder = mkdtempSync(join(tmpdir(), "plume-moderation-"));
  writeFileSync(join(clientFolder, "index.html"), INDEX_HTML);
  testApp = await createTestApp(
    { TRUST_PROXY: "loopback", PUBLIC_URL: "https://plume.example", CONTACT_EMAIL: "legal@plume.example" },
    { client: serveBuiltClient(clientFolder) },
  );
  admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL });
  await testApp.proveEmail(TEST_ADMIN_EMAIL);
  author = await signedInAgent(testApp.app, { firstName: "Irene", lastName: "Copista" });
  reader = await signedInAgent(testApp.app);
});
afterAll(async () => {
  await testApp.close();
  rmSync(clientFolder, { recursive: true, force: true });
});

async function publish(title: string): Promise<number> {
  return (await sendBookForm(author.agent.post("/api/books"), { title, coverImage: null }).expect(201)).body.id as number;
}
const decideBook = (id: number, body: object) => admin.agent.post(`/api/admin/books/${id}/moderation`).send(body);
const decideAccount = (id: string, body: object) => admin.agent.post(`/api/admin/users/${id}/moderation`).send(body);

/** Every public list a book shows in (docs/product.md#moderation, "Everywhere at once"), and whether it is in each. */
async function whereListed(id: number, title: string): Promise<Record<string, boolean>> {
  const visitor = request(testApp.app);
  const [catalog, search, authorBooks, atom, authorAtom, opdsNew, opdsSearch, sitemap] = await Promise.all([
    visitor.get("/api/books").expect(200),
    visitor.get("/api/books").query({ search: title }).expect(200),
    visitor.get(`/api/authors/${author.user.id}/books`).expect(200),
    visitor.get("/feed.xml").expect(200),
    visitor.get(`/authors/${author.user.id}/feed.xml`),
    visitor.get("/opds/new").expect(200),
    visitor.get("/opds/search").query({ q: title }).expect(200),
    visitor.get("/sitemaps/books-1.xml"),
  ]);
  const ids = (body: { books?: Array<{ id: number }> } | Array<{ id: number }>) => (Array.isArray(body) ? body : (body.books ?? [])).map((book) => book.id);
  return {
    catalog: ids(catalog.body).includes(id),
    search: ids(search.body).includes(id),
    authorBooks: ids(authorBooks.body).includes(id),
    atom: atom.text.includes(`/books/${id}`),
    authorAtom: authorAtom.text.includes(`/books/${id}`),
    opdsNew: opdsNew.text.includes(`/opds/books/${id}/file`),
    opdsSearch: opdsSearch.text.includes(`/opds/books/${id}/file`),
    sitemap: sitemap.text.includes(`/books/${id}`),
  };
}
const everywhere = (listed: boolean) => ({ catalog: listed, search: listed, authorBooks: listed, atom: listed, authorAtom: listed, opdsNew: listed, opdsSearch: listed, sitemap: listed });

describe("moderation calls refuse the wrong caller", () => {
  it.each([
    ["/api/admin/books/1/moderation", { action: "hide", ground: "terms-spam", basis: "notice", facts: FACTS }],
    [`/api/admin/users/00000000-0000-4000-8000-000000000000/moderation`, { action: "suspend", ground: "terms-spam", basis: "notice", facts: FACTS }],
  ])("POST %s: 401 for a visitor, 403 for an author", async (path, body) => {
    await request(testApp.app).post(path).send(body).expect(401);
    expect((await author.agent.post(path).send(body).expect(403)).body.code).toBe("forbidden");
  });

  it("GET /api/moderation/decisions: 401 for a visitor", async () => {
    await request(testApp.app).get("/api/moderation/decisions").expect(401);
  });
});

describe("a decision states its reasons, or is refused with a 4xx naming the problem", () => {
  it.each([
    ["no facts", { action: "hide", ground: "terms-spam", basis: "notice" }, "facts"],
    ["facts too short", { action: "hide", ground: "terms-spam", basis: "notice", facts: "copy" }, "facts"],
    ["facts too long", { action: "hide", ground: "terms-spam", basis: "notice", facts: "x".repeat(2_001) }, "facts"],
    ["an unknown ground", { action: "remove", ground: "terms-made-up", basis: "notice", facts: FACTS }, "ground"],
    ["no ground to a removal", { action: "remove", basis: "notice", facts: FACTS }, "ground"],
    ["an unknown basis", { action: "hide", ground: "terms-spam", basis: "rumour", facts: FACTS }, "basis"],
    ["an unknown action", { action: "burn", ground: "terms-spam", basis: "notice", facts: FACTS }, "action"],
    ["an account's action on a book", { action: "suspend", ground: "terms-spam", basis: "notice", facts: FACTS }, "action"],
  ])("%s: 400", async (_case, body, field) => {
    const id = await publish(`Refused ${field}`);
    const response = await decideBook(id, body).expect(400);
    expect(response.body.code).toBe("validation_failed");
    expect(Object.keys(response.body.fields)).toContain(field);
    expect((await request(testApp.app).get(`/api/books/${id}`).expect(200)).body.moderationState).toBeUndefined();
  });

  it("answers 404 for an unknown book or account, 400 for a malformed id", async () => {
    await decideBook(2_000_000, { action: "hide", ground: "terms-spam", basis: "notice", facts: FACTS }).expect(404);
    await decideAccount("00000000-0000-4000-8000-000000000000", { action: "suspend", ground: "terms-spam", basis: "notice", facts: FACTS }).expect(404);
    await admin.agent.post("/api/admin/books/abc/moderation").send({ action: "hide", ground: "terms-spam", basis: "notice", facts: FACTS }).expect(400);
    await decideAccount("not-a-uuid", { action: "suspend", ground: "terms-spam", basis: "notice", facts: FACTS }).expect(400);
  });
});

describe("a hidden book is gone from every public surface, and restoring brings it back", () => {
  it("hides, refuses a second hide, and restores", async () => {
    const title = "Zanahorias robadas";
    const id = await publish(title);
    expect(await whereListed(id, title)).toEqual(everywhere(true));

    const hidden = await decideBook(id, { action: "hide", ground: "law-copyright", basis: "notice", facts: FACTS }).expect(201);
    expect(hidden.body).toMatchObject({ action: "hide", bookId: id, accountId: author.user.id, ground: "law-copyright", basis: "notice", facts: FACTS });
    expect(await whereListed(id, title)).toEqual(everywhere(false));
    // To the public it does not exist; its author sees it, and why.
    await request(testApp.app).get(`/api/books/${id}`).expect(404);
    await request(testApp.app).get(`/books/${id}`).expect(404);
    expect((await author.agent.get(`/api/books/${id}`).expect(200)).body.moderationState).toBe("hidden");
    expect((await author.agent.get(`/api/authors/${author.user.id}/books`).expect(200)).body.find((book: { id: number }) => book.id === id).moderationState).toBe("hidden");
    const statements = (await author.agent.get("/api/moderation/decisions").expect(200)).body;
    expect(statements[0]).toMatchObject({ id: hidden.body.id, action: "hide", bookId: id, bookTitle: title, ground: "law-copyright", facts: FACTS });

    await decideBook(id, { action: "hide", ground: "terms-spam", basis: "notice", facts: FACTS }).expect(409);
    await decideBook(id, { action: "restore", basis: "notice", facts: "The notice was withdrawn by its sender." }).expect(201);
    expect(await whereListed(id, title)).toEqual(everywhere(true));
    expect((await author.agent.get(`/api/books/${id}`).expect(200)).body.moderationState).toBeUndefined();
    const restoreAgain = await decideBook(id, { action: "restore", basis: "notice", facts: "The notice was withdrawn by its sender." }).expect(409);
    expect(restoreAgain.body.code).toBe("moderation_conflict");
  });

  it("refuses the file of a hidden book to its readers and its author; the admin opens it without counting", async () => {
    const id = await publish("Libro en revisión");
    await decideBook(id, { action: "hide", ground: "terms-harmful-file", basis: "own-initiative", facts: "The file looks like it hides a script." }).expect(201);
    await reader.agent.post(`/api/books/${id}/download`).set("X-Forwarded-For", "192.0.2.7").expect(404);
    await reader.agent.post(`/api/books/${id}/read`).set("X-Forwarded-For", "192.0.2.7").expect(404);
    const own = await author.agent.post(`/api/books/${id}/download`).expect(403);
    expect(own.body).toMatchObject({ code: "book_restricted", message: expect.stringContaining("under review") });
    await admin.agent.post(`/api/books/${id}/download`).set("X-Forwarded-For", "192.0.2.8").expect(200);
    const book = (await admin.agent.get(`/api/books/${id}`).expect(200)).body;
    expect(book.downloadCount).toBe(0);
    const report = (await author.agent.get(`/api/authors/${author.user.id}/download-report`).expect(200)).body;
    const row = report.books.find((entry: { bookId: number }) => entry.bookId === id);
    expect(row.months.at(-1).notCounted["moderation-review"]).toBe(1);
  });
});

describe("the statement of reasons reaches the author by mail, in their language", () => {
  it("states the ground, the basis, the facts and how to contest a restriction (a copyright one by counter-notice), escaping what the admin typed", async () => {
    const id = await publish("Cuentos prestados");
    const facts = "The <b>notice</b> & its proof: a scan of the original's first pages.";
    await decideBook(id, { action: "hide", ground: "law-copyright", basis: "notice", facts }).expect(201);
    const [mail] = await mailsTo(testApp.mailDir, author.account.email);
    const texts = ALL_TEXTS.en;
    expect(mail!.subject).toBe("Your book “Cuentos prestados” is hidden while we review it");
    const contest = texts.mail.moderationDecision;
    for (const line of [texts.moderation.grounds["law-copyright"], texts.moderation.bases.notice, facts, contest.contestBook, contest.counterNotice, "https://plume.example/dashboard"]) {
      expect(mail!.text).toContain(line);
    }
    expect(mail!.html).toContain("The &lt;b&gt;notice&lt;/b&gt; &amp; its proof");
    expect(mail!.html).not.toContain("<b>notice</b>");

    // Lifting a restriction says so, with no ground and nothing to contest.
    await decideBook(id, { action: "restore", basis: "notice", facts: "The notice was withdrawn by its sender." }).expect(201);
    const [restored] = await mailsTo(testApp.mailDir, author.account.email);
    expect(restored!.subject).toBe("Your book “Cuentos prestados” is back on Plume");
    expect(restored!.text).not.toContain(contest.contestBook);
  });

  it("writes to a Spanish-speaking author in Spanish", async () => {
    await testApp.database.db.update(users).set({ language: "es" }).where(eq(users.id, author.user.id));
    try {
      const id = await publish("Poemas ajenos");
      await decideBook(id, { action: "remove", ground: "terms-spam", basis: "own-initiative", facts: "The book repeats one advertisement." }).expect(201);
      const [mail] = await mailsTo(testApp.mailDir, author.account.email);
      expect(mail!.subject).toBe("Tu libro «Poemas ajenos» se ha retirado de Plume");
      expect(mail!.text).toContain(ALL_TEXTS.es.moderation.grounds["terms-spam"]);
      expect(mail!.text).toContain(ALL_TEXTS.es.moderation.bases["own-initiative"]);
    } finally {
      await testApp.database.db.update(users).set({ language: "en" }).where(eq(users.id, author.user.id));
    }
  });
});

describe("a removed book says it is gone, and why", () => {
  it("answers 410 for a breach of the terms", async () => {
    const id = await publish("Spam spam spam");
    await decideBook(id, { action: "remove", ground: "terms-spam", basis: "notice", facts: "The book is one page of advertising." }).expect(201);
    expect((await request(testApp.app).get(`/api/books/${id}`).expect(410)).body.code).toBe("gone");
    await request(testApp.app).get(`/books/${id}`).expect(410);
    await reader.agent.post(`/api/books/${id}/download`).expect(410);
    expect((await author.agent.get(`/api/books/${id}`).expect(200)).body.moderationState).toBe("removed-terms");
  });

  it("answers 451 with the blocking party for a legal ground (RFC 7725), from hidden to removed", async () => {
    const id = await publish("Novela ajena");
    await decideBook(id, { action: "hide", ground: "law-copyright", basis: "notice", facts: FACTS }).expect(201);
    await decideBook(id, { action: "remove", ground: "law-copyright", basis: "notice", facts: "The rights holder's notice was upheld." }).expect(201);
    expect((await request(testApp.app).get(`/api/books/${id}`).expect(451)).body.code).toBe("unavailable_for_legal_reasons");
    const page = await request(testApp.app).get(`/books/${id}`).expect(451);
    expect(page.headers.link).toBe('<https://plume.example/terms>; rel="blocked-by"');
    await decideBook(id, { action: "remove", ground: "law-copyright", basis: "notice", facts: FACTS }).expect(409);
  });
});

describe("a suspended account", () => {
  it("cannot sign in, is signed out, and its books hide until it is reinstated; a book removed on its own stays removed", async () => {
    const account = newAccount({ firstName: "Sus", lastName: "Pendida" });
    const suspect = request.agent(testApp.app);
    const { id: accountId } = (await suspect.post("/api/auth/register").send(account).expect(201)).body as { id: string };
    const kept = (await sendBookForm(suspect.post("/api/books"), { title: "Primera obra", coverImage: null }).expect(201)).body.id as number;
    const removed = (await sendBookForm(suspect.post("/api/books"), { title: "Obra retirada", coverImage: null }).expect(201)).body.id as number;
    await decideBook(removed, { action: "remove", ground: "terms-spam", basis: "notice", facts: "The book is one page of advertising." }).expect(201);

    const facts = "Three upheld copyright notices against this account's books.";
    await decideAccount(accountId, { action: "suspend", ground: "law-copyright", basis: "notice", facts }).expect(201);
    await decideAccount(accountId, { action: "suspend", ground: "law-copyright", basis: "notice", facts }).expect(409);
    expect(await sessionAccount(suspect.get("/api/auth/user"))).toBeNull();
    const signIn = await request(testApp.app).post("/api/auth/login").send({ username: account.username, password: account.password }).expect(403);
    expect(signIn.body).toMatchObject({ code: "account_suspended", message: expect.stringContaining(facts) });
    // A wrong password learns nothing of the suspension.
    await request(testApp.app).post("/api/auth/login").send({ username: account.username, password: "wrong-pass-word" }).expect(401);
    await request(testApp.app).get(`/api/books/${kept}`).expect(404);
    // The book the suspension hid is restored by reinstating the account, not on its own.
    await decideBook(kept, { action: "restore", basis: "own-initiative", facts: "Trying to restore a suspended author's book." }).expect(409);

    await decideAccount(accountId, { action: "reinstate", basis: "own-initiative", facts: "The counter-notices were accepted." }).expect(201);
    await request(testApp.app).get(`/api/books/${kept}`).expect(200);
    await request(testApp.app).get(`/api/books/${removed}`).expect(410);
    await request(testApp.app).post("/api/auth/login").send({ username: account.username, password: account.password }).expect(200);
    await decideAccount(accountId, { action: "reinstate", basis: "own-initiative", facts: "The counter-notices were accepted." }).expect(409);
  });

  it("the admin cannot suspend their own account", async () => {
    const response = await decideAccount(admin.user.id, { action: "suspend", ground: "terms-spam", basis: "own-initiative", facts: FACTS }).expect(409);
    expect(response.body.code).toBe("moderation_conflict");
  });
});
