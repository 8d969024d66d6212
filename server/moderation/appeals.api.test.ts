import { eq, sql } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DecisionForAuthor } from "../../shared/appeals.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { mailsTo } from "../../test/helpers/mail-files.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, sessionAccount, signedInAgent } from "../../test/helpers/test-app.ts";
import { appeals, moderationDecisions } from "../db/schema.ts";

type Agent = Awaited<ReturnType<typeof signedInAgent>>;
let testApp: TestApp;
let admin: Agent;
let author: Agent;
let stranger: Agent;
let nextAddress = 1;

const FACTS = "The rights holder showed this book is a copy of their novel.";
const REASONS = "The author showed a signed publishing contract for this book.";
const COUNTER_NOTICE = {
  kind: "counter-notice",
  statement: "I wrote this novel in 2019; the reporter confused it with a book of the same title.",
  legalName: "Irene Copista Ruiz",
  postalAddress: "Calle Mayor 1, 28013 Madrid, Spain",
  phone: "+34 600 000 000",
  swornMistake: true,
  consentJurisdiction: true,
};
const APPEAL = { kind: "appeal", statement: "This is a cookbook of my own recipes, not spam: every page is different." };

beforeAll(async () => {
  testApp = await createTestApp({ TRUST_PROXY: "loopback", CONTACT_EMAIL: "legal@plume.example" });
  admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL });
  await testApp.proveEmail(TEST_ADMIN_EMAIL);
  author = await signedInAgent(testApp.app, { firstName: "Irene", lastName: "Copista" });
  stranger = await signedInAgent(testApp.app);
});
afterAll(() => testApp.close());

async function publish(by: Agent, title: string): Promise<number> {
  return (await sendBookForm(by.agent.post("/api/books"), { title, coverImage: null }).expect(201)).body.id as number;
}
const decideBook = (id: number, body: object) => admin.agent.post(`/api/admin/books/${id}/moderation`).send(body).expect(201);
const appeal = (by: Agent, decisionId: number, body: object) => by.agent.post(`/api/moderation/decisions/${decisionId}/appeal`).send(body);
const decideAppeal = (id: number, body: object) => admin.agent.post(`/api/admin/appeals/${id}/decision`).send(body);
const statementsOf = async (by: Agent) => (await by.agent.get("/api/moderation/decisions").expect(200)).body as DecisionForAuthor[];

async function reportCopyright(bookId: number, email: string): Promise<void> {
  await request(testApp.app)
    .post("/api/notices")
    .set("X-Forwarded-For", `203.0.113.${nextAddress++}`)
    .send({
      category: "copyright",
      bookId,
      url: `http://localhost/books/${bookId}`,
      explanation: "This is my novel, published in 2015 by my publisher, copied page for page.",
      name: "Rita Derechos",
      email,
      goodFaith: true,
      originalWork: "La casa del faro, ISBN 978-84-0000-000-0",
      rightsHolder: "Rita Derechos",
      sworn: true,
    })
    .expect(201);
}

describe("appeal calls refuse the wrong caller", () => {
  it("401 for a visitor, 403 for an author on the admin's calls", async () => {
    await request(testApp.app).post("/api/moderation/decisions/1/appeal").send(APPEAL).expect(401);
    await request(testApp.app).get("/api/admin/appeals").expect(401);
    expect((await author.agent.get("/api/admin/appeals").expect(403)).body.code).toBe("forbidden");
    expect((await author.agent.post("/api/admin/appeals/1/decision").send({ outcome: "granted", facts: REASONS }).expect(403)).body.code).toBe("forbidden");
  });

  it("another account's decision is answered as unknown, and nothing is kept", async () => {
    const bookId = await publish(author, "Un libro ajeno");
    const hide = await decideBook(bookId, { action: "hide", ground: "terms-spam", basis: "own-initiative", facts: FACTS });
    expect((await appeal(stranger, hide.body.id, APPEAL).expect(404)).body.code).toBe("not_found");
    expect(await testApp.database.db.select().from(appeals).where(eq(appeals.decisionId, hide.body.id))).toEqual([]);
  });
});

describe("a counter-notice against a copyright removal", () => {
  it("is forwarded to the notice's sender, and granted restores the book and tells both sides", async () => {
    const bookId = await publish(author, "La casa del faro");
    await reportCopyright(bookId, "rita@example.test");
    const removal = await decideBook(bookId, { action: "remove", ground: "law-copyright", basis: "notice", facts: FACTS });
    await request(testApp.app).get(`/api/books/${bookId}`).expect(451);

    const [statement] = await statementsOf(author);
    expect(statement).toMatchObject({ id: removal.body.id, appeal: null, contest: { kind: "counter-notice" } });
    expect(Date.parse(statement!.contest!.until) - Date.parse(statement!.createdAt)).toBe(183 * 86_400_000);

    // A copyright removal is answered by a counter-notice, with every statement the DMCA asks for.
    const plainAppeal = await appeal(author, removal.body.id, APPEAL).expect(400);
    expect(plainAppeal.body.fields).toEqual({ kind: "validation.appealKindInvalid" });
    const unsworn = await appeal(author, removal.body.id, { ...COUNTER_NOTICE, swornMistake: false, phone: "call me" }).expect(400);
    expect(unsworn.body.fields).toMatchObject({ swornMistake: "validation.appealSwornRequired", phone: "validation.appealPhoneInvalid" });

    const filed = await appeal(author, removal.body.id, COUNTER_NOTICE).expect(201);
    expect(filed.body).toMatchObject({ kind: "counter-notice", status: "open", decidedAt: null });
    expect((await appeal(author, removal.body.id, COUNTER_NOTICE).expect(409)).body.code).toBe("appeal_closed");

    const [forwarded] = await mailsTo(testApp.mailDir, "rita@example.test");
    expect(forwarded!.subject).toContain("counter-notice");
    expect(forwarded!.text).toContain("Irene Copista Ruiz");
    expect(forwarded!.text).toContain("Calle Mayor 1, 28013 Madrid, Spain");
    expect(forwarded!.text).toContain("legal@plume.example");
    const [received] = await mailsTo(testApp.mailDir, author.account.email);
    expect(received!.subject).toBe("We received your counter-notice about “La casa del faro”");

    const queue = (await admin.agent.get("/api/admin/appeals").expect(200)).body;
    expect(queue).toEqual([
      expect.objectContaining({
        id: filed.body.id,
        legalName: "Irene Copista Ruiz",
        decision: expect.objectContaining({ id: removal.body.id, ground: "law-copyright" }),
        book: { id: bookId, title: "La casa del faro" },
        account: { id: author.user.id, name: "Irene Copista" },
      }),
    ]);

    const granted = await decideAppeal(filed.body.id, { outcome: "granted", facts: REASONS }).expect(200);
    expect(granted.body).toMatchObject({ status: "granted", outcomeFacts: REASONS });
    await request(testApp.app).get(`/api/books/${bookId}`).expect(200);
    expect((await admin.agent.get("/api/admin/appeals").expect(200)).body).toEqual([]);
    await decideAppeal(filed.body.id, { outcome: "rejected", facts: REASONS }).expect(404);

    const [restore, removed] = await statementsOf(author);
    expect(restore).toMatchObject({ action: "restore", basis: "appeal", facts: REASONS, contest: null });
    expect(removed).toMatchObject({ id: removal.body.id, appeal: { status: "granted" }, contest: null });
    const [outcome] = await mailsTo(testApp.mailDir, author.account.email);
    expect(outcome!.subject).toBe("Your appeal about “La casa del faro” was granted");
    const [back] = await mailsTo(testApp.mailDir, "rita@example.test");
    expect(back!.subject).toContain("is available again");
  });
});

describe("an appeal against a hidden book", () => {
  it("rejected, leaves the book hidden and tells the author the way further", async () => {
    const bookId = await publish(author, "Recetas de la abuela");
    const hide = await decideBook(bookId, { action: "hide", ground: "terms-spam", basis: "own-initiative", facts: FACTS });
    const filed = await appeal(author, hide.body.id, APPEAL).expect(201);
    await decideAppeal(filed.body.id, { outcome: "maybe", facts: REASONS }).expect(400);
    await decideAppeal(filed.body.id, { outcome: "rejected", facts: "short" }).expect(400);
    await decideAppeal(filed.body.id, { outcome: "rejected", facts: "The pages repeat one advertisement." }).expect(200);
    await request(testApp.app).get(`/api/books/${bookId}`).expect(404);
    const [rejected] = await mailsTo(testApp.mailDir, author.account.email);
    expect(rejected!.subject).toBe("Your appeal about “Recetas de la abuela” was rejected");
    expect(rejected!.text).toContain("out-of-court dispute settlement");
  });

  it("cannot be granted over a later decision about the book", async () => {
    const bookId = await publish(author, "Un libro revisado dos veces");
    const hide = await decideBook(bookId, { action: "hide", ground: "terms-spam", basis: "own-initiative", facts: FACTS });
    const filed = await appeal(author, hide.body.id, APPEAL).expect(201);
    await decideBook(bookId, { action: "remove", ground: "terms-spam", basis: "own-initiative", facts: FACTS });
    expect((await decideAppeal(filed.body.id, { outcome: "granted", facts: REASONS }).expect(409)).body.code).toBe("appeal_closed");
    await request(testApp.app).get(`/api/books/${bookId}`).expect(410);
  });

  it.each([
    ["a restore", async (bookId: number) => (await decideBook(bookId, { action: "restore", basis: "own-initiative", facts: REASONS })).body.id as number],
    [
      "a decision lifted since",
      async (bookId: number) => {
        const { body } = await decideBook(bookId, { action: "hide", ground: "terms-spam", basis: "own-initiative", facts: FACTS });
        await decideBook(bookId, { action: "restore", basis: "own-initiative", facts: REASONS });
        return body.id as number;
      },
    ],
    [
      "a decision older than six months",
      async (bookId: number) => {
        const { body } = await decideBook(bookId, { action: "hide", ground: "terms-spam", basis: "own-initiative", facts: FACTS });
        await testApp.database.db
          .update(moderationDecisions)
          .set({ createdAt: sql`now() - interval '184 days'` })
          .where(eq(moderationDecisions.id, body.id));
        return body.id as number;
      },
    ],
  ])("is refused against %s with 409 appeal_closed", async (_case, decide) => {
    const bookId = await publish(author, `Un libro ${nextAddress++}`);
    if (_case === "a restore") await decideBook(bookId, { action: "hide", ground: "terms-spam", basis: "own-initiative", facts: FACTS });
    const decisionId = await decide(bookId);
    expect((await appeal(author, decisionId, APPEAL).expect(409)).body.code).toBe("appeal_closed");
    expect((await statementsOf(author)).find((statement) => statement.id === decisionId)!.contest).toBeNull();
  });

  it.each([
    ["no statement", { kind: "appeal" }, "statement"],
    ["a short statement", { kind: "appeal", statement: "wrong" }, "statement"],
    ["an unknown kind", { kind: "complaint", statement: APPEAL.statement }, "kind"],
  ])("is refused with 400 for %s", async (_case, body, field) => {
    const response = await appeal(author, 1, body).expect(400);
    expect(Object.keys(response.body.fields)).toContain(field);
  });

  it("answers 400 for a decision number that is not one", async () => {
    await author.agent.post("/api/moderation/decisions/abc/appeal").send(APPEAL).expect(400);
    await admin.agent.post("/api/admin/appeals/0/decision").send({ outcome: "granted", facts: REASONS }).expect(400);
  });
});

describe("the repeat-infringer policy", () => {
  it("suspends an account at its third copyright removal in effect, and says why", async () => {
    const infringer = await signedInAgent(testApp.app, { firstName: "Pablo", lastName: "Copias" });
    const ids = [await publish(infringer, "Copia uno"), await publish(infringer, "Copia dos"), await publish(infringer, "Copia tres")];
    const remove = (id: number) => decideBook(id, { action: "remove", ground: "law-copyright", basis: "notice", facts: FACTS });
    await remove(ids[0]!);
    // A removal restored since is no strike.
    await decideBook(ids[0]!, { action: "restore", basis: "own-initiative", facts: REASONS });
    await remove(ids[1]!);
    await remove(ids[2]!);
    expect(await sessionAccount(infringer.agent.get("/api/auth/user"))).not.toBeNull();

    const fourth = await publish(infringer, "Copia cuatro");
    await remove(ids[0]!);
    const [suspension] = await testApp.database.db
      .select()
      .from(moderationDecisions)
      .where(sql`${moderationDecisions.accountId} = ${infringer.user.id} and ${moderationDecisions.action} = 'suspend'`);
    expect(suspension).toMatchObject({ basis: "automated", ground: "law-copyright", decidedBy: null });
    expect(suspension!.facts).toContain("“Copia dos”, “Copia tres”, “Copia uno”");
    await request(testApp.app).get(`/api/books/${fourth}`).expect(404);
    expect(await sessionAccount(infringer.agent.get("/api/auth/user"))).toBeNull();
    const [mail] = await mailsTo(testApp.mailDir, infringer.account.email);
    expect(mail!.subject).toContain("account is suspended");
    expect(mail!.text).toContain("legal@plume.example");
  });

  it("keeps a strike when its author deletes the removed book: deleting never clears a record (docs/decisions/0112)", async () => {
    const infringer = await signedInAgent(testApp.app);
    const ids = [await publish(infringer, "Borrón uno"), await publish(infringer, "Borrón dos"), await publish(infringer, "Borrón tres")];
    const remove = (id: number) => decideBook(id, { action: "remove", ground: "law-copyright", basis: "notice", facts: FACTS });
    await remove(ids[0]!);
    await remove(ids[1]!);
    for (const id of ids.slice(0, 2)) await infringer.agent.delete(`/api/books/${id}`).expect(204);
    await remove(ids[2]!);
    expect(await sessionAccount(infringer.agent.get("/api/auth/user"))).toBeNull();
  });
});
