import { readdirSync } from "node:fs";
import { sql } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { mailsTo } from "../../test/helpers/mail-files.ts";
import type { NoticeGroup } from "../../shared/notices.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { notices } from "../db/schema.ts";

type Agent = Awaited<ReturnType<typeof signedInAgent>>;
let testApp: TestApp;
let author: Agent;
let bookId: number;
let otherBookId: number;
let nextAddress = 1;

// Limits low enough to reach in a test; each case sends from its own address unless it tests the address's limit.
beforeAll(async () => {
  testApp = await createTestApp({ TRUST_PROXY: "loopback", RATE_LIMIT_NOTICES_PER_IP: "3", RATE_LIMIT_NOTICES_PER_EMAIL: "3", RATE_LIMIT_NOTICES_PER_SUBJECT: "40" });
  author = await signedInAgent(testApp.app, { firstName: "Irene", lastName: "Copista" });
  bookId = (await sendBookForm(author.agent.post("/api/books"), { title: "El faro robado", coverImage: null }).expect(201)).body.id;
  otherBookId = (await sendBookForm(author.agent.post("/api/books"), { title: "Otro libro", coverImage: null }).expect(201)).body.id;
});
afterAll(() => testApp.close());

const spam = (overrides: object = {}) => ({
  category: "spam",
  bookId,
  url: `https://plume.example/books/${bookId}`,
  explanation: "Every page of this book is the same advertisement for a casino.",
  name: "Ana Lectora",
  email: `ana.${nextAddress}@example.test`,
  goodFaith: true,
  ...overrides,
});
const send = (body: object) => request(testApp.app).post("/api/notices").set("X-Forwarded-For", `198.51.100.${nextAddress++}`).send(body);
const noticeCount = async () => (await testApp.database.db.select({ count: sql<number>`count(*)::int` }).from(notices))[0]!.count;

describe("POST /api/notices", () => {
  it("takes a visitor's notice about a book, keeps it and acknowledges it by mail in the visitor's language", async () => {
    const email = "lucia.notice@example.test";
    const response = await request(testApp.app)
      .post("/api/notices")
      .set("X-Forwarded-For", `198.51.100.${nextAddress++}`)
      .set("Accept-Language", "es-ES,es;q=0.9")
      .send(spam({ email, name: "Lucía" }))
      .expect(201);
    expect(response.body).toEqual({ id: expect.any(Number), receivedAt: expect.any(String) });
    const [kept] = await testApp.database.db.select().from(notices).where(sql`${notices.id} = ${response.body.id}`);
    expect(kept).toMatchObject({ category: "spam", bookId, accountId: author.user.id, reporterName: "Lucía", reporterEmail: email, reporterAccountId: null, language: "es", status: "open" });
    const [mail] = await mailsTo(testApp.mailDir, email);
    expect(mail!.subject).toBe(`Hemos recibido tu notificación sobre «El faro robado» (n.º ${response.body.id})`);
    expect(mail!.text).toContain("Hola, Lucía");
  });

  it("takes a notice about an author, and remembers the signed-in reporter's account", async () => {
    const reporter = await signedInAgent(testApp.app);
    const response = await reporter.agent
      .post("/api/notices")
      .set("X-Forwarded-For", `198.51.100.${nextAddress++}`)
      .send(spam({ bookId: undefined, authorId: author.user.id, category: "hate-violence", url: `https://plume.example/authors/${author.user.id}` }))
      .expect(201);
    const [kept] = await testApp.database.db.select().from(notices).where(sql`${notices.id} = ${response.body.id}`);
    expect(kept).toMatchObject({ bookId: null, accountId: author.user.id, reporterAccountId: reporter.user.id, category: "hate-violence" });
  });

  it("takes a notice of sexual content involving minors without a name or an address, and mails nobody", async () => {
    const mailsWritten = () => readdirSync(testApp.mailDir).length;
    const before = mailsWritten();
    const response = await send(spam({ category: "minors", name: undefined, email: undefined })).expect(201);
    const [kept] = await testApp.database.db.select().from(notices).where(sql`${notices.id} = ${response.body.id}`);
    expect(kept).toMatchObject({ category: "minors", reporterName: null, reporterEmail: null });
    expect(mailsWritten()).toBe(before);
  });

  it("asks a copyright notice for the original work, its rights holder and the sworn statement", async () => {
    const incomplete = await send(spam({ category: "copyright" })).expect(400);
    expect(Object.keys(incomplete.body.fields).sort()).toEqual(["originalWork", "rightsHolder", "sworn"]);
    const complete = await send(spam({ category: "copyright", originalWork: "El faro, novela, 2019, ISBN 978-84-0000-000-0", rightsHolder: "Editorial Marea", sworn: true })).expect(201);
    const [kept] = await testApp.database.db.select().from(notices).where(sql`${notices.id} = ${complete.body.id}`);
    expect(kept).toMatchObject({ originalWork: "El faro, novela, 2019, ISBN 978-84-0000-000-0", rightsHolder: "Editorial Marea", sworn: true });
  });

  it.each([
    ["no category", { category: undefined }, "category"],
    ["an unknown category", { category: "boring" }, "category"],
    ["no subject", { bookId: undefined }, "bookId"],
    ["a book and an author at once", { authorId: "00000000-0000-4000-8000-000000000000" }, "bookId"],
    ["a script address", { url: "javascript:alert(1)" }, "url"],
    ["an address too long", { url: `https://plume.example/${"a".repeat(2_000)}` }, "url"],
    ["a short explanation", { explanation: "bad" }, "explanation"],
    ["an explanation too long", { explanation: "x".repeat(5_001) }, "explanation"],
    ["no good faith", { goodFaith: false }, "goodFaith"],
    ["no name", { name: "  " }, "name"],
    ["no e-mail", { email: undefined }, "email"],
    ["a malformed e-mail", { email: "not-an-address" }, "email"],
  ])("refuses %s with a 400 naming the field, keeping nothing", async (_case, overrides, field) => {
    const before = await noticeCount();
    const response = await send(spam(overrides)).expect(400);
    expect(response.body.code).toBe("validation_failed");
    expect(Object.keys(response.body.fields)).toContain(field);
    expect(await noticeCount()).toBe(before);
  });

  it("answers 404 for an unknown book or author, keeping nothing", async () => {
    const before = await noticeCount();
    await send(spam({ bookId: 2_000_000 })).expect(404);
    await send(spam({ bookId: undefined, authorId: "00000000-0000-4000-8000-000000000000" })).expect(404);
    expect(await noticeCount()).toBe(before);
  });
});

describe("a flood of notices gets 429, never a 5xx", () => {
  it("limits one network, every attempt counted", async () => {
    const address = "203.0.113.50";
    const from = (body: object) => request(testApp.app).post("/api/notices").set("X-Forwarded-For", address).send(body);
    await from(spam({ email: "flood.1@example.test" })).expect(201);
    await from({ category: "spam" }).expect(400);
    await from(spam({ email: "flood.3@example.test" })).expect(201);
    const refused = await from(spam({ email: "flood.4@example.test" })).expect(429);
    expect(refused.body.code).toBe("rate_limited");
    expect(refused.headers["retry-after"]).toBeDefined();
  });

  it("limits one e-mail address, from whatever network", async () => {
    const email = "prolific@example.test";
    for (const id of [bookId, otherBookId, bookId]) await send(spam({ email, bookId: id })).expect(201);
    await send(spam({ email, bookId: otherBookId })).expect(429);
    await send(spam({ email: "someone.else@example.test" })).expect(201);
  });
});

describe("a flood about one book", () => {
  it("is stopped once the book has had its share, whatever the senders", async () => {
    const flooded = await createTestApp({ TRUST_PROXY: "loopback", RATE_LIMIT_NOTICES_PER_SUBJECT: "2" });
    try {
      const owner = await signedInAgent(flooded.app);
      const target = (await sendBookForm(owner.agent.post("/api/books"), { title: "Blanco", coverImage: null }).expect(201)).body.id;
      const other = (await sendBookForm(owner.agent.post("/api/books"), { title: "Otro", coverImage: null }).expect(201)).body.id;
      const from = (index: number, id: number) =>
        request(flooded.app).post("/api/notices").set("X-Forwarded-For", `192.0.2.${index}`).send(spam({ bookId: id, email: `sender.${index}@example.test` }));
      await from(1, target).expect(201);
      await from(2, target).expect(201);
      await from(3, target).expect(429);
      await from(4, other).expect(201);
    } finally {
      await flooded.close();
    }
  });
});

describe("the admin's queue of notices", () => {
  it("groups open notices by book and author, the minors category first, and settles them with each sender told", async () => {
    const queued = await createTestApp({ TRUST_PROXY: "loopback", PUBLIC_URL: "https://plume.example", CONTACT_EMAIL: "legal@plume.example" });
    try {
      const admin = await signedInAgent(queued.app, { email: TEST_ADMIN_EMAIL });
      await queued.proveEmail(TEST_ADMIN_EMAIL);
      const owner = await signedInAgent(queued.app, { firstName: "Irene", lastName: "Copista" });
      const first = (await sendBookForm(owner.agent.post("/api/books"), { title: "Primero", coverImage: null }).expect(201)).body.id as number;
      const second = (await sendBookForm(owner.agent.post("/api/books"), { title: "Segundo", coverImage: null }).expect(201)).body.id as number;
      const report = async (body: object, index: number) =>
        (await request(queued.app).post("/api/notices").set("X-Forwarded-For", `192.0.2.${index}`).send(body).expect(201)).body.id as number;
      const spamOnFirst = await report(spam({ bookId: first, email: "one@example.test", name: "Uno" }), 1);
      const copyOnFirst = await report(spam({ bookId: first, category: "copyright", originalWork: "El original", rightsHolder: "Marea", sworn: true, email: "two@example.test" }), 2);
      const onAuthor = await report(spam({ bookId: undefined, authorId: owner.user.id, category: "hate-violence", email: "three@example.test" }), 3);
      const minorsOnSecond = await report(spam({ bookId: second, category: "minors", name: undefined, email: undefined }), 4);

      await request(queued.app).get("/api/admin/notices").expect(401);
      await owner.agent.get("/api/admin/notices").expect(403);
      const queue = (await admin.agent.get("/api/admin/notices").expect(200)).body as NoticeGroup[];
      // The minors group leads though it is the newest; then the oldest.
      expect(queue.map((group) => [group.subject.kind, group.urgent, group.notices.map((notice) => notice.id)])).toEqual([
        ["book", true, [minorsOnSecond]],
        ["book", false, [spamOnFirst, copyOnFirst]],
        ["account", false, [onAuthor]],
      ]);
      expect(queue[1]!.subject).toMatchObject({ kind: "book", bookId: first, title: "Primero", moderationState: null, accountName: "Irene Copista" });
      expect(queue[1]!.notices[1]).toMatchObject({ category: "copyright", originalWork: "El original", rightsHolder: "Marea", sworn: true, reporterEmail: "two@example.test" });

      // Dismissed on its own: its sender is told why, and it leaves the queue.
      await admin.agent.post(`/api/admin/notices/${onAuthor}/dismiss`).send({ facts: "x" }).expect(400);
      await admin.agent.post(`/api/admin/notices/${onAuthor}/dismiss`).send({ facts: "The passages quoted are a character's, condemned by the book." }).expect(200);
      await admin.agent.post(`/api/admin/notices/${onAuthor}/dismiss`).send({ facts: "The passages quoted are a character's, condemned by the book." }).expect(404);
      const [dismissal] = await mailsTo(queued.mailDir, "three@example.test");
      expect(dismissal!.subject).toBe(`Our decision on your notice #${onAuthor} about “Irene Copista”`);
      expect(dismissal!.text).toContain("stays available");
      expect(dismissal!.text).toContain("legal@plume.example");

      // A removal settles the book's open notices, and each sender with an address hears of it.
      await admin.agent
        .post(`/api/admin/books/${first}/moderation`)
        .send({ action: "remove", ground: "law-copyright", basis: "notice", facts: "The rights holder showed the first edition." })
        .expect(201);
      for (const address of ["one@example.test", "two@example.test"]) {
        const [outcome] = await mailsTo(queued.mailDir, address);
        expect(outcome!.subject).toContain("“Primero”");
        expect(outcome!.text).toContain("We removed it");
        expect(outcome!.text).toContain("The rights holder showed the first edition.");
      }
      const left = (await admin.agent.get("/api/admin/notices").expect(200)).body as NoticeGroup[];
      expect(left.map((group) => group.notices.map((notice) => notice.id))).toEqual([[minorsOnSecond]]);
      const settled = await queued.database.db.select().from(notices).where(sql`${notices.id} in (${spamOnFirst}, ${copyOnFirst}, ${onAuthor})`);
      expect(settled.map((notice) => [notice.id, notice.status, notice.decisionId !== null]).sort()).toEqual(
        [
          [spamOnFirst, "actioned", true],
          [copyOnFirst, "actioned", true],
          [onAuthor, "dismissed", false],
        ].sort(),
      );
    } finally {
      await queued.close();
    }
  });
});
