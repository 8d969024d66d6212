import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { simpleParser } from "mailparser";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreatedEReaderKey } from "../../shared/e-reader-keys.ts";
import type { FollowingItem } from "../../shared/follows.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { parseOpdsFeed, parseXmlStrictly } from "../../test/helpers/opds.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { bookEditions, books, follows, users } from "../db/schema.ts";
import { followingItemsSchema } from "../openapi/answer-schemas.ts";
import { DIGEST_SETTLE_MS } from "./digest-worker.ts";

const ORIGIN = "https://plume.example";
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let testApp: TestApp;
type Account = Awaited<ReturnType<typeof signedInAgent>>;
let author: Account;
let reader: Account;

const db = () => testApp.database.db;

async function publish(who: Account, form: Parameters<typeof sendBookForm>[1] = {}): Promise<{ id: number; title: string }> {
  const response = await sendBookForm(who.agent.post("/api/books"), { coverImage: null, ...form }).expect(201);
  return response.body as { id: number; title: string };
}

/** Moves a book's publication (and its first edition) to `at`: the digest reads when things came. */
async function dateBook(id: number, at: Date) {
  await db().update(books).set({ createdAt: at, updatedAt: at }).where(eq(books.id, id));
}

async function addEdition(bookId: number, number: number, at: Date, changelog: string | null) {
  await db().insert(bookEditions).values({ bookId, number, fileName: `e${number}.pdf`, filePath: `books/e${number}-${bookId}.pdf`, fileSize: 10, mimeType: "application/pdf", changelog, createdAt: at });
}

async function proven(overrides: Record<string, string> = {}): Promise<Account> {
  const account = await signedInAgent(testApp.app, overrides);
  await testApp.proveEmail(account.account.email);
  return account;
}

interface Eml {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The message's own header lines, by lower-cased name, as written (mailparser folds List-* headers into one object). */
  headers: Map<string, string>;
}

/** The digests mailed to this address, oldest first: the mails that carry a List-Unsubscribe (registration's own mail does not). */
async function mailsTo(address: string): Promise<Eml[]> {
  const dir = testApp.mailDir;
  const files = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(".eml")).sort() : [];
  const found: Eml[] = [];
  for (const name of files) {
    const parsed = await simpleParser(readFileSync(join(dir, name)));
    const to = [parsed.to ?? []].flat().flatMap((entry) => entry.value.map((value) => value.address?.toLowerCase() ?? ""));
    const headers = new Map(parsed.headerLines.map(({ key, line }) => [key, line.slice(line.indexOf(":") + 1).trim()]));
    if (to.includes(address.toLowerCase()) && headers.has("list-unsubscribe")) found.push({ to: to[0]!, subject: parsed.subject ?? "", text: parsed.text ?? "", html: parsed.html || "", headers });
  }
  return found;
}

const digestOf = async (who: Account) => (await db().select({ frequency: users.digestFrequency, through: users.digestSentThrough }).from(users).where(eq(users.id, who.user.id)))[0]!;
const setDigest = (who: Account, digestFrequency: string) => who.agent.put("/api/account/digest").send({ digestFrequency });
const unsubscribeLinkOf = (mail: Eml) => new URL(/<([^>]+)>/.exec(String(mail.headers.get("list-unsubscribe")))![1]!);

beforeAll(async () => {
  testApp = await createTestApp({ PUBLIC_URL: ORIGIN });
  author = await proven({ firstName: "Ana", lastName: "Autora" });
  reader = await proven({ firstName: "Rita" });
  await publish(author, { title: "First of Ana" });
  await testApp.coversDone();
});

afterAll(() => testApp.close());

describe("following an author", () => {
  it("is for a signed-in reader only", async () => {
    await request(testApp.app).put(`/api/authors/${author.user.id}/follow`).expect(401);
    await request(testApp.app).delete(`/api/authors/${author.user.id}/follow`).expect(401);
    await request(testApp.app).get(`/api/authors/${author.user.id}/follow`).expect(401);
    await request(testApp.app).get("/api/following").expect(401);
  });

  it("refuses a malformed id, oneself, and an account no reader can find", async () => {
    const bad = await reader.agent.put("/api/authors/42/follow").expect(400);
    expect(bad.body.fields).toEqual({ id: "validation.userIdInvalid" });
    const self = await author.agent.put(`/api/authors/${author.user.id}/follow`).expect(400);
    expect(self.body).toMatchObject({ code: "follow_self", message: "You cannot follow yourself." });
    await author.agent.delete(`/api/authors/${author.user.id}/follow`).expect(400);
    await reader.agent.put("/api/authors/00000000-0000-4000-8000-000000000000/follow").expect(404);
    // An account that never published is no author to follow.
    const nobody = await signedInAgent(testApp.app);
    await reader.agent.put(`/api/authors/${nobody.user.id}/follow`).expect(404);
    expect(await db().select().from(follows)).toEqual([]);
  });

  it("refuses a suspended author and a deleted one with 404", async () => {
    const suspended = await proven();
    const deleted = await proven();
    await publish(suspended, { title: "Suspended book" });
    await publish(deleted, { title: "Deleted author's book" });
    await db().update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.user.id));
    await db().update(users).set({ deletedAt: new Date() }).where(eq(users.id, deleted.user.id));
    await reader.agent.put(`/api/authors/${suspended.user.id}/follow`).expect(404);
    await reader.agent.put(`/api/authors/${deleted.user.id}/follow`).expect(404);
  });

  it("follows once, tells the reader, and tells the author only how many", async () => {
    const first = await reader.agent.put(`/api/authors/${author.user.id}/follow`).expect(200);
    expect(first.body).toEqual({ following: true, followerCount: null });
    await reader.agent.put(`/api/authors/${author.user.id.toUpperCase()}/follow`).expect(200);
    expect((await reader.agent.get(`/api/authors/${author.user.id}/follow`).expect(200)).body).toEqual({ following: true, followerCount: null });
    // The author sees a count, never who.
    expect((await author.agent.get(`/api/authors/${author.user.id}/follow`).expect(200)).body).toEqual({ following: false, followerCount: 1 });
    // Nobody else learns anything: another reader's state is their own, and the public profile says nothing of followers.
    const other = await signedInAgent(testApp.app);
    expect((await other.agent.get(`/api/authors/${author.user.id}/follow`).expect(200)).body).toEqual({ following: false, followerCount: null });
    const profile = await request(testApp.app).get(`/api/authors/${author.user.id}`).expect(200);
    expect(JSON.stringify(profile.body)).not.toMatch(/follow/i);
    expect(await db().select().from(follows).where(eq(follows.authorId, author.user.id))).toHaveLength(1);
  });

  it("unfollows, twice as once", async () => {
    const someone = await signedInAgent(testApp.app);
    await someone.agent.put(`/api/authors/${author.user.id}/follow`).expect(200);
    expect((await someone.agent.delete(`/api/authors/${author.user.id}/follow`).expect(200)).body).toEqual({ following: false, followerCount: null });
    await someone.agent.delete(`/api/authors/${author.user.id}/follow`).expect(200);
    expect((await author.agent.get(`/api/authors/${author.user.id}/follow`).expect(200)).body.followerCount).toBe(1);
  });
});

describe("what is new from followed authors", () => {
  let newer: { id: number };
  let explicit: { id: number };
  let hidden: { id: number };
  let taken: { id: number };
  let other: Account;

  beforeAll(async () => {
    newer = await publish(author, { title: "Second of Ana" });
    explicit = await publish(author, { title: "Explicit of Ana", contentRating: "explicit" });
    hidden = await publish(author, { title: "Hidden of Ana" });
    await db().update(books).set({ isPublished: false }).where(eq(books.id, hidden.id));
    other = await proven({ firstName: "Otro" });
    taken = await publish(other, { title: "Taken from Otro" });
    await testApp.coversDone();
    await reader.agent.post(`/api/books/${taken.id}/download`).expect(200);
    // Editions: one of a followed author's book, one of a book the reader took (after the download), one before it.
    await addEdition(newer.id, 2, new Date(Date.now() + 1000), "Chapter 3 rewritten.");
    await addEdition(taken.id, 2, new Date(Date.now() - DAY), null);
    await addEdition(taken.id, 3, new Date(Date.now() + 2000), "Typos fixed.");
  });

  it("lists listed books of followed authors and new editions, newest first, explicit ones only for a reader who chose them", async () => {
    const items = (await reader.agent.get("/api/following").expect(200)).body as FollowingItem[];
    // As the OpenAPI description says, strictly.
    expect(followingItemsSchema.safeParse(items).error?.issues ?? []).toEqual([]);
    const seen = items.map((item) => [item.kind, item.book.title, item.edition]);
    expect(seen.slice(0, 2)).toEqual([
      ["edition", "Taken from Otro", 3],
      ["edition", "Second of Ana", 2],
    ]);
    expect(seen).toContainEqual(["book", "Second of Ana", null]);
    expect(seen).toContainEqual(["book", "First of Ana", null]);
    expect(seen).not.toContainEqual(["book", "Explicit of Ana", null]);
    expect(seen).not.toContainEqual(["book", "Hidden of Ana", null]);
    expect(seen).not.toContainEqual(["edition", "Taken from Otro", 2]);
    await reader.agent.put("/api/account/explicit-books").send({ showExplicit: true }).expect(200);
    const withExplicit = (await reader.agent.get("/api/following").expect(200)).body as FollowingItem[];
    expect(withExplicit.map((item) => item.book.id)).toContain(explicit.id);
    await reader.agent.put("/api/account/explicit-books").send({ showExplicit: false }).expect(200);
  });

  it("is empty for a reader who follows nobody and took nothing", async () => {
    const stranger = await signedInAgent(testApp.app);
    expect((await stranger.agent.get("/api/following").expect(200)).body).toEqual([]);
  });

  it("is the reader's own OPDS and Atom feed, read with an e-reader key", async () => {
    await request(testApp.app).get("/opds/following").expect(401);
    await request(testApp.app).get("/opds/following/atom").expect(401);
    const key = (await reader.agent.post("/api/e-reader-keys").send({ name: "Feeds" }).expect(201)).body as CreatedEReaderKey;
    await request(testApp.app).get("/opds/following").auth(reader.account.username, "wrong-key").expect(401);
    const opds = await request(testApp.app).get("/opds/following").auth(reader.account.username, key.key).expect(200);
    expect(opds.headers["content-type"]).toBe("application/atom+xml; profile=opds-catalog; kind=acquisition; charset=utf-8");
    expect(opds.headers["cache-control"]).toBe("private, max-age=60");
    const feed = parseOpdsFeed(opds.text);
    expect(feed.Id).toBe(`${ORIGIN}/opds/following`);
    const entries = feed.Entries.map((entry) => ({ id: entry.Id, title: entry.Title, updated: entry.Updated }));
    const edition = entries.find((entry) => entry.id === `${ORIGIN}/books/${newer.id}/editions/2`)!;
    expect(edition.title).toBe("Second of Ana (new edition 2)");
    const [editionRow] = await db()
      .select()
      .from(bookEditions)
      .where(and(eq(bookEditions.bookId, newer.id), eq(bookEditions.number, 2)));
    expect(edition.updated?.toISOString()).toBe(editionRow!.createdAt.toISOString());
    expect(entries.map((entry) => entry.id)).toContain(`${ORIGIN}/books/${newer.id}`);
    const acquisition = feed.Entries.find((entry) => entry.Id === `${ORIGIN}/books/${newer.id}`)!.Links.find((link) => link.Rel === "http://opds-spec.org/acquisition");
    expect(acquisition?.Href).toBe(`${ORIGIN}/opds/books/${newer.id}/file`);
    const atom = await request(testApp.app).get("/opds/following/atom").auth(reader.account.username, key.key).expect(200);
    const document = parseXmlStrictly(atom.text);
    expect(document.documentElement?.getElementsByTagName("entry").length).toBe(feed.Entries.length);
    expect(atom.text).toContain("Chapter 3 rewritten.");
    // The catalog's root leads there.
    const root = parseOpdsFeed((await request(testApp.app).get("/opds").expect(200)).text);
    expect(root.Entries.map((entry) => entry.Links[0]!.Href)).toContain(`${ORIGIN}/opds/following`);
  });
});

describe("the digest mail", () => {
  it("mails an instant reader what a followed author published since the follow, once, with a one-click unsubscribe", async () => {
    const writer = await proven({ firstName: "Wanda", lastName: "<b>Writer</b>" });
    const old = await publish(writer, { title: "Older than the follow" });
    await dateBook(old.id, new Date(Date.now() - DAY));
    const fan = await proven({ firstName: "Fan" });
    await setDigest(fan, "instant").expect(200);
    await fan.agent.put(`/api/authors/${writer.user.id}/follow`).expect(200);
    const fresh = await publish(writer, { title: `New & <script>alert(1)</script>` });
    await testApp.coversDone();
    // Within the settling time nothing goes: what an author publishes together leaves together.
    await testApp.digestRound(new Date());
    expect(await mailsTo(fan.account.email)).toEqual([]);
    const later = new Date(Date.now() + DIGEST_SETTLE_MS + MINUTE);
    // Two servers run the same round at once: one mail.
    const second = testApp.anotherProcess({ PUBLIC_URL: ORIGIN });
    await Promise.all([testApp.digestRound(later), second.digestRound(later)]);
    second.close();
    await testApp.digestRound(new Date(later.getTime() + MINUTE));
    const mails = await mailsTo(fan.account.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails as [Eml];
    expect(mail.subject).toBe("New on Plume: New & <script>alert(1)</script>");
    expect(mail.text).toContain(`${ORIGIN}/books/${fresh.id}`);
    expect(mail.text).not.toContain("Older than the follow");
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("New &amp; &lt;script&gt;");
    expect(mail.html).toContain("&lt;b&gt;Writer&lt;/b&gt;");
    expect(mail.headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const link = unsubscribeLinkOf(mail);
    expect(link.origin + link.pathname).toBe(`${ORIGIN}/unsubscribe`);
    expect(mail.text).toContain(link.href);
    expect((await digestOf(fan)).through?.getTime()).toBe(later.getTime() - DIGEST_SETTLE_MS);

    // The mail program's one-click POST, from its own servers: no session, another origin.
    await request(testApp.app)
      .post(`${link.pathname}${link.search}`)
      .set("Origin", "https://mail.example")
      .set("Sec-Fetch-Site", "cross-site")
      .type("form")
      .send("List-Unsubscribe=One-Click")
      .expect(200, { digestFrequency: "off" });
    expect((await digestOf(fan)).frequency).toBe("off");
    await publish(writer, { title: "After the unsubscribe" });
    await testApp.digestRound(new Date(Date.now() + 10 * MINUTE));
    expect(await mailsTo(fan.account.email)).toHaveLength(1);
  });

  it("refuses a forged or malformed unsubscribe link, and still refuses other cross-site changes", async () => {
    const someone = await proven();
    const forged = `${someone.user.id}.${"A".repeat(43)}`;
    const refused = await request(testApp.app).post(`/unsubscribe?token=${forged}`).expect(400);
    expect(refused.body.code).toBe("invalid_unsubscribe_link");
    await request(testApp.app).post("/unsubscribe?token=nonsense").expect(400);
    await request(testApp.app).post("/unsubscribe").expect(400);
    expect((await digestOf(someone)).frequency).toBe("weekly");
    // The exemption is this call alone.
    await someone.agent.put("/api/account/digest").set("Sec-Fetch-Site", "cross-site").send({ digestFrequency: "off" }).expect(403);
    await request(testApp.app).post("/unsubscribe/other").set("Sec-Fetch-Site", "cross-site").expect(403);
  });

  it("mails a weekly reader once a week, in their language, with new editions and their changelog", async () => {
    const writer = await proven({ firstName: "Elena" });
    const book = await publish(writer, { title: "Libro de Elena" });
    const fan = await proven({ firstName: "Lucía" });
    await fan.agent.put("/api/auth/language").send({ language: "es" }).expect((res) => expect(res.status).toBeLessThan(300));
    await fan.agent.put(`/api/authors/${writer.user.id}/follow`).expect(200);
    await addEdition(book.id, 2, new Date(Date.now() + 1000), "Capítulo <nuevo> añadido");
    const soon = new Date(Date.now() + DIGEST_SETTLE_MS + MINUTE);
    // The follow came before the book: the book and its edition go in the first weekly digest.
    await dateBook(book.id, new Date(Date.now() + 500));
    await testApp.digestRound(soon);
    let mails = await mailsTo(fan.account.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Novedades de los autores que sigues en Plume");
    expect(mails[0]!.text).toContain("Qué cambió: Capítulo <nuevo> añadido");
    expect(mails[0]!.html).toContain("Capítulo &lt;nuevo&gt; añadido");
    // A new book the next day waits for the week to pass.
    const next = await publish(writer, { title: "Segundo de Elena" });
    await dateBook(next.id, new Date(soon.getTime() + DAY));
    await testApp.digestRound(new Date(soon.getTime() + 2 * DAY));
    expect(await mailsTo(fan.account.email)).toHaveLength(1);
    await testApp.digestRound(new Date(soon.getTime() + 8 * DAY));
    mails = await mailsTo(fan.account.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text).toContain("Segundo de Elena");
    expect(mails[1]!.text).not.toContain("Libro de Elena");
  });

  it("mails nothing older than two weeks, whatever the cursor", async () => {
    const writer = await proven();
    const fan = await proven();
    const first = await publish(writer, { title: "Writer's first" });
    await fan.agent.put(`/api/authors/${writer.user.id}/follow`).expect(200);
    await dateBook(first.id, new Date(Date.now() - 80 * DAY));
    const longAgo = new Date(Date.now() - 90 * DAY);
    await db().update(follows).set({ createdAt: longAgo }).where(eq(follows.followerId, fan.user.id));
    await db().update(users).set({ digestSentThrough: new Date(Date.now() - 60 * DAY) }).where(eq(users.id, fan.user.id));
    const stale = await publish(writer, { title: "Three weeks old" });
    await dateBook(stale.id, new Date(Date.now() - 21 * DAY));
    await testApp.digestRound(new Date(Date.now() + 10 * MINUTE));
    expect(await mailsTo(fan.account.email)).toEqual([]);
    const fresh = await publish(writer, { title: "Ten days old" });
    await dateBook(fresh.id, new Date(Date.now() - 10 * DAY));
    await testApp.digestRound(new Date(Date.now() + 10 * MINUTE));
    const [mail, ...others] = await mailsTo(fan.account.email);
    expect(others).toEqual([]);
    expect(mail!.text).toContain("Ten days old");
    expect(mail!.text).not.toContain("Three weeks old");
  });

  it("never mails an unproven address, a suspended account, or a reader who turned it off", async () => {
    const writer = await proven();
    const unproven = await signedInAgent(testApp.app);
    const suspended = await proven();
    const off = await proven();
    await publish(writer, { title: "The writer's first" });
    for (const who of [unproven, suspended, off]) await who.agent.put(`/api/authors/${writer.user.id}/follow`).expect(200);
    await setDigest(off, "off").expect(200);
    await db().update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.user.id));
    await publish(writer, { title: "Nobody gets this" });
    await testApp.digestRound(new Date(Date.now() + 10 * MINUTE));
    for (const who of [unproven, suspended, off]) expect(await mailsTo(who.account.email)).toEqual([]);
  });
});

describe("the digest setting", () => {
  it("takes off, instant or weekly, weekly by default, and nothing else", async () => {
    const someone = await signedInAgent(testApp.app);
    expect((await someone.agent.get("/api/auth/user").expect(200)).body.digestFrequency).toBe("weekly");
    const bad = await setDigest(someone, "daily").expect(400);
    expect(bad.body.fields).toEqual({ digestFrequency: "validation.invalid" });
    await someone.agent.put("/api/account/digest").send({}).expect(400);
    await request(testApp.app).put("/api/account/digest").send({ digestFrequency: "off" }).expect(401);
    expect((await setDigest(someone, "off").expect(200)).body.digestFrequency).toBe("off");
    // Turned on again, it starts from now: nothing that came while it was off is mailed.
    const before = Date.now();
    expect((await setDigest(someone, "instant").expect(200)).body.digestFrequency).toBe("instant");
    expect((await digestOf(someone)).through!.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });
});

describe("an account's follows in its export and its deletion", () => {
  it("exports whom the account follows and its digest choice, and deletion removes its follows both ways", async () => {
    const writer = await proven({ firstName: "Dora", lastName: "Escritora" });
    await publish(writer, { title: "Dora's book" });
    const leaving = await proven();
    await publish(leaving, { title: "Leaving's book" });
    await leaving.agent.put(`/api/authors/${writer.user.id}/follow`).expect(200);
    await reader.agent.put(`/api/authors/${leaving.user.id}/follow`).expect(200);
    await setDigest(leaving, "instant").expect(200);
    const exported = JSON.parse((await leaving.agent.get("/api/account/export").expect(200)).text) as {
      profile: { digestFrequency: string };
      following: Array<{ authorId: string; authorName: string | null; followedAt: string }>;
    };
    expect(exported.profile.digestFrequency).toBe("instant");
    expect(exported.following).toEqual([{ authorId: writer.user.id, authorName: "Dora Escritora", followedAt: expect.any(String) }]);
    await leaving.agent.delete("/api/account").send({ currentPassword: leaving.account.password }).expect(204);
    expect(await db().select().from(follows).where(eq(follows.followerId, leaving.user.id))).toEqual([]);
    expect(await db().select().from(follows).where(eq(follows.authorId, leaving.user.id))).toEqual([]);
    expect((await digestOf(leaving)).frequency).toBe("off");
  });
});

describe("the unsubscribe limit", () => {
  it("refuses an address that tries too many links", async () => {
    const limited = await createTestApp({ RATE_LIMIT_UNSUBSCRIBES_PER_IP: "2" });
    try {
      const forged = `00000000-0000-4000-8000-000000000000.${"A".repeat(43)}`;
      for (let attempt = 0; attempt < 2; attempt += 1) await request(limited.app).post(`/unsubscribe?token=${forged}`).expect(400);
      await request(limited.app).post(`/unsubscribe?token=${forged}`).expect(429);
    } finally {
      await limited.close();
    }
  });
});
