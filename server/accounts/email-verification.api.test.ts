import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { accountTokens, users } from "../db/schema.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { freePort } from "../../test/helpers/free-port.ts";
import { type SmtpInbox, linkIn, startSmtpInbox } from "../../test/helpers/smtp-inbox.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, newAccount, signedInAgent, sessionAccount } from "../../test/helpers/test-app.ts";
import { changeEmail } from "./email-verification-service.ts";
import { createMailer } from "../mail/mailer.ts";
import { logger } from "../system/logger.ts";

let inbox: SmtpInbox;
let testApp: TestApp;
beforeAll(async () => {
  inbox = await startSmtpInbox();
  // The app sends through a real SMTP server, as in production; "send the link again" has its default limit.
  testApp = await createTestApp({ SMTP_URL: inbox.url, MAIL_FROM: "Plume <no-reply@plume.test>", RATE_LIMIT_VERIFY_EMAIL_PER_ACCOUNT: "3" });
});
afterAll(async () => {
  await testApp.close();
  await inbox.close();
});

const tokenOf = (link: URL) => link.searchParams.get("token")!;
/** Opens a link's token, signed out unless an agent (a browser with its session) is given. */
const verify = (token: string, agent: { post(url: string): request.Test } = request(testApp.app)) => agent.post("/api/auth/verify-email").send({ token });
const userRow = async (id: string) => (await testApp.database.db.select().from(users).where(eq(users.id, id)))[0]!;

describe("the verification link", () => {
  it("is mailed at registration in the chosen language, proves the address once, and never carries the password", async () => {
    const agent = request.agent(testApp.app);
    const account = newAccount({ firstName: "Zoé" });
    const registered = await agent.post("/api/auth/register").set("Cookie", "plume-lang=fr").send(account).expect(201);
    expect(registered.body).toMatchObject({ emailVerified: false, isAdmin: false });

    const mail = await inbox.next(account.email);
    expect(mail.from).toBe('"Plume" <no-reply@plume.test>');
    expect(mail.subject).toBe("Confirmez votre adresse e-mail sur Plume");
    expect(mail.text).toContain(`Bonjour Zoé García, ouvrez ce lien en étant connecté à votre compte Plume pour confirmer que ${account.email} est votre adresse`);
    expect(mail.html).toContain("Confirmer mon adresse");
    expect(mail.raw).not.toContain(account.password);
    const link = linkIn(mail);
    expect(link.pathname).toBe("/verify-email");
    // 256 random bits in base64url; only their SHA-256 is stored.
    expect(tokenOf(link)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [stored] = await testApp.database.db.select().from(accountTokens).where(eq(accountTokens.userId, registered.body.id as string));
    expect(stored).toMatchObject({ purpose: "verify-email", email: account.email, usedAt: null });
    expect(stored!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored!.tokenHash).not.toContain(tokenOf(link));
    // Valid 24 hours from its making (the row's own time comes from the database's clock).
    expect(Math.abs(stored!.expiresAt.getTime() - stored!.createdAt.getTime() - 24 * 60 * 60 * 1000)).toBeLessThan(5000);
    expect((await userRow(registered.body.id as string)).language).toBe("fr");

    // Opened where nobody is signed in, it proves nothing and asks to sign in; the link stays good (docs/decisions/0054).
    expect((await verify(tokenOf(link)).expect(401)).body).toMatchObject({ code: "verify_sign_in_required" });
    expect((await userRow(registered.body.id as string)).emailVerifiedAt).toBeNull();
    const verified = await verify(tokenOf(link), agent).expect(200);
    expect(verified.body).toEqual({ email: account.email, verifiedAt: expect.any(String) as string });
    expect((await agent.get("/api/auth/user").expect(200)).body.emailVerified).toBe(true);
    expect((await verify(tokenOf(link), agent).expect(410)).body).toMatchObject({ code: "verify_link_used" });
  });

  it("is not sent to an account without an e-mail, and English is the default language", async () => {
    const before = inbox.messages.length;
    await request(testApp.app).post("/api/auth/register").send(newAccount({ email: "" })).expect(201);
    expect(inbox.messages).toHaveLength(before);
    const { account } = await signedInAgent(testApp.app);
    expect((await inbox.next(account.email)).subject).toBe("Confirm your e-mail address on Plume");
  });

  it("refuses an expired link, an unknown one and a malformed one, and changes nothing", async () => {
    const { agent, account, user } = await signedInAgent(testApp.app);
    const token = tokenOf(linkIn(await inbox.next(account.email)));
    await testApp.database.db.update(accountTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(accountTokens.userId, user.id));
    expect((await verify(token, agent).expect(410)).body).toMatchObject({ code: "verify_link_expired" });
    expect((await verify("A".repeat(43)).expect(400)).body).toMatchObject({ code: "verify_link_invalid" });
    expect((await verify("not a token!").expect(400)).body).toMatchObject({ code: "validation_failed", fields: { token: "verifyEmail.invalid" } });
    expect((await userRow(user.id)).emailVerifiedAt).toBeNull();

    // The dashboard's "send the link again" gives a link that works.
    expect((await agent.post("/api/auth/verify-email/resend").expect(202)).body).toEqual({ sentTo: account.email });
    await verify(tokenOf(linkIn(await inbox.next(account.email))), agent).expect(200);
    expect((await agent.post("/api/auth/verify-email/resend").expect(409)).body).toMatchObject({ code: "email_already_verified" });
  });

  it("is sent again at most 3 times an hour per account, and only to a signed-in account with an address", async () => {
    const { agent, account } = await signedInAgent(testApp.app);
    await inbox.next(account.email);
    for (let round = 0; round < 3; round += 1) {
      await agent.post("/api/auth/verify-email/resend").expect(202);
      await inbox.next(account.email);
    }
    expect((await agent.post("/api/auth/verify-email/resend").expect(429)).body).toMatchObject({ code: "rate_limited" });
    // Another account has its own allowance.
    const other = await signedInAgent(testApp.app);
    await other.agent.post("/api/auth/verify-email/resend").expect(202);
    await request(testApp.app).post("/api/auth/verify-email/resend").expect(401);
    const withoutEmail = await signedInAgent(testApp.app, { email: "" });
    expect((await withoutEmail.agent.post("/api/auth/verify-email/resend").expect(409)).body).toMatchObject({ code: "no_email" });
  });

  it("of an earlier address is worthless once the account changed it, and a new address is unproven until its own link", async () => {
    const { agent, account, user } = await signedInAgent(testApp.app);
    const oldToken = tokenOf(linkIn(await inbox.next(account.email)));
    const mailer = createMailer({ settings: { smtpUrl: inbox.url, from: "Plume <no-reply@plume.test>" }, outboxDir: "/nonexistent" });
    const mailing = { mailer, origin: "http://plume.test", productName: "Plume" };
    try {
      await verify(oldToken, agent).expect(200);
      expect((await userRow(user.id)).emailVerifiedAt).not.toBeNull();
      const earlier = await changeEmail(testApp.database.db, user.id, `new.${account.email}`, mailing, new Date());
      expect(earlier.emailVerifiedAt).toBeNull();
      const newLink = linkIn(await inbox.next(`new.${account.email}`));
      expect(newLink.origin).toBe("http://plume.test");
      // A link of the old address, unused, issued before the change: it proves nothing about the new one.
      await changeEmail(testApp.database.db, user.id, `newer.${account.email}`, mailing, new Date());
      expect((await verify(tokenOf(newLink), agent).expect(400)).body).toMatchObject({ code: "verify_link_invalid" });
      expect((await userRow(user.id)).emailVerifiedAt).toBeNull();
      await verify(tokenOf(linkIn(await inbox.next(`newer.${account.email}`))), agent).expect(200);
      expect((await userRow(user.id)).email).toBe(`newer.${account.email}`);
      expect((await userRow(user.id)).emailVerifiedAt).not.toBeNull();
    } finally {
      mailer.close();
    }
  });
});

describe("the language of an account's mail", () => {
  it("follows the interface language the signed-in account chooses", async () => {
    const { agent, account, user } = await signedInAgent(testApp.app);
    expect((await inbox.next(account.email)).subject).toBe("Confirm your e-mail address on Plume");
    await agent.put("/api/auth/language").send({ language: "es" }).expect(204);
    expect((await userRow(user.id)).language).toBe("es");
    await agent.post("/api/auth/verify-email/resend").expect(202);
    expect((await inbox.next(account.email)).subject).toBe("Confirma tu dirección de correo en Plume");
    expect((await agent.put("/api/auth/language").send({ language: "de" }).expect(400)).body).toMatchObject({ code: "validation_failed", fields: { language: "validation.invalid" } });
    expect((await userRow(user.id)).language).toBe("es");
    await request(testApp.app).put("/api/auth/language").send({ language: "fr" }).expect(401);
  });
});

describe("an address claimed by someone else (docs/decisions/0054)", () => {
  const register = async (agent: request.Agent, email: string) => {
    const account = newAccount({ email });
    const registered = await agent.post("/api/auth/register").send(account).expect(201);
    return { account, id: registered.body.id as string, body: registered.body as Record<string, unknown> };
  };
  const currentUser = async (agent: request.Agent) => (await agent.get("/api/auth/user").expect(200)).body as Record<string, unknown>;

  it("cannot make an attacker the admin: the owner registers too, proves it signed in, and the attacker's claim is dropped", async () => {
    const author = await signedInAgent(testApp.app);
    await inbox.next(author.account.email);
    await sendBookForm(author.agent.post("/api/books"), { coverImage: null }).expect(201);

    // The attacker registers the admin's address first; the link to it lands in the owner's mailbox.
    const attacker = request.agent(testApp.app);
    const attackerAccount = await register(attacker, "ADMIN@Plume.TEST");
    expect(TEST_ADMIN_EMAIL).toBe("admin@plume.test");
    expect(attackerAccount.body).toMatchObject({ isAdmin: false, emailVerified: false });
    const attackerLink = tokenOf(linkIn(await inbox.next(TEST_ADMIN_EMAIL)));
    for (const path of ["/api/admin/payment-diagnostics", "/api/admin/overview-debug"]) {
      expect(JSON.stringify((await attacker.get(path).expect(403)).body)).not.toContain(author.account.email);
    }
    await attacker.get(`/api/authors/${author.user.id}/payments`).expect(403);
    // Nor does "forgot password" mail an address only claimed (checked at the end, once later mail arrived).
    await request(testApp.app).post("/api/auth/forgot-password").send({ email: TEST_ADMIN_EMAIL }).expect(202);

    // The owner registers the same address: no email_taken, the same answer as for any address.
    const owner = request.agent(testApp.app);
    const ownerAccount = await register(owner, TEST_ADMIN_EMAIL);
    expect(Object.keys(ownerAccount.body).sort()).toEqual(Object.keys(attackerAccount.body).sort());
    const ownerLink = tokenOf(linkIn(await inbox.next(TEST_ADMIN_EMAIL)));

    // The owner opens the attacker's link, the one mail the attacker could send them: signed out, or
    // signed in to their own account, it proves nothing; neither does their own link signed out or in
    // the attacker's session.
    expect((await verify(attackerLink).expect(401)).body).toMatchObject({ code: "verify_sign_in_required" });
    expect((await verify(attackerLink, owner).expect(403)).body).toMatchObject({ code: "verify_other_account" });
    expect((await verify(ownerLink).expect(401)).body).toMatchObject({ code: "verify_sign_in_required" });
    expect((await verify(ownerLink, attacker).expect(403)).body).toMatchObject({ code: "verify_other_account" });
    expect(await currentUser(attacker)).toMatchObject({ isAdmin: false, emailVerified: false });
    expect(await currentUser(owner)).toMatchObject({ isAdmin: false, emailVerified: false });

    // Opened signed in as the owner, it proves the address: the owner is the admin.
    await verify(ownerLink, owner).expect(200);
    expect(await currentUser(owner)).toMatchObject({ isAdmin: true, emailVerified: true, email: TEST_ADMIN_EMAIL });
    expect(JSON.stringify((await owner.get("/api/admin/books?show=all").expect(200)).body)).toContain(author.account.email);
    // The attacker's claim is gone, and with it every link made for it, even in the attacker's own session.
    expect(await currentUser(attacker)).toMatchObject({ isAdmin: false, emailVerified: false, email: null });
    expect((await verify(attackerLink, attacker).expect(410)).body).toMatchObject({ code: "verify_link_used" });
    await attacker.get("/api/admin/payment-diagnostics").expect(403);
    // The attacker may add another address of theirs.
    await attacker.put("/api/account/email").send({ email: `own.${attackerAccount.account.email}`, currentPassword: attackerAccount.account.password }).expect(200);
    expect(await currentUser(attacker)).toMatchObject({ email: `own.${attackerAccount.account.email}`, isAdmin: false });
    expect(inbox.messages.filter((mail) => mail.to.includes(TEST_ADMIN_EMAIL) && mail.text.includes("/reset-password"))).toEqual([]);
  });

  it("is registered or changed to with the same answer and work once proven by another, and the owner is told instead of a link", async () => {
    const owner = await signedInAgent(testApp.app, { firstName: "Olga", lastName: "Owner" });
    await verify(tokenOf(linkIn(await inbox.next(owner.account.email))), owner.agent).expect(200);
    const tokensOf = async (id: string) => (await testApp.database.db.select().from(accountTokens).where(eq(accountTokens.userId, id))).length;

    // A fresh address and the proven one: the same status and fields, one token stored and one mail each.
    const fresh = request.agent(testApp.app);
    const freshAccount = await register(fresh, `fresh.${owner.account.email}`);
    const freshMail = await inbox.next(`fresh.${owner.account.email}`);
    const claimant = request.agent(testApp.app);
    const claimantAccount = await register(claimant, owner.account.email.toUpperCase());
    expect(Object.keys(claimantAccount.body).sort()).toEqual(Object.keys(freshAccount.body).sort());
    expect(claimantAccount.body).toMatchObject({ email: owner.account.email.toUpperCase(), emailVerified: false, isAdmin: false });
    expect([await tokensOf(freshAccount.id), await tokensOf(claimantAccount.id)]).toEqual([1, 1]);
    expect(linkIn(freshMail).pathname).toBe("/verify-email");

    const note = await inbox.next(owner.account.email);
    expect(note.subject).toBe("Someone tried to use your address on Plume");
    expect(note.text).toContain(`Hello Olga Owner, someone just tried to register ${owner.account.email.toUpperCase()} on Plume`);
    expect(note.text).toContain("sign in, or reset your password");
    expect(linkIn(note).pathname).toBe("/login");
    expect(note.text).not.toContain("/verify-email");

    // "Send the link again" answers as for any address, and tells the owner again.
    expect((await claimant.post("/api/auth/verify-email/resend").expect(202)).body).toEqual({ sentTo: owner.account.email.toUpperCase() });
    expect((await inbox.next(owner.account.email)).subject).toBe("Someone tried to use your address on Plume");

    // An e-mail change: the same for an address proven by another as for a free one.
    const changing = await signedInAgent(testApp.app);
    await inbox.next(changing.account.email);
    const toFree = await changing.agent.put("/api/account/email").send({ email: `free.${changing.account.email}`, currentPassword: changing.account.password }).expect(200);
    expect(linkIn(await inbox.next(`free.${changing.account.email}`)).pathname).toBe("/verify-email");
    const toTaken = await changing.agent.put("/api/account/email").send({ email: owner.account.email, currentPassword: changing.account.password }).expect(200);
    expect(Object.keys(toTaken.body as object).sort()).toEqual(Object.keys(toFree.body as object).sort());
    expect(toTaken.body).toMatchObject({ email: owner.account.email, emailVerified: false, isAdmin: false });
    expect((await inbox.next(owner.account.email)).subject).toBe("Someone tried to use your address on Plume");

    // The owner keeps the address, and the address signs in the owner, never a claimant.
    expect(await currentUser(owner.agent)).toMatchObject({ email: owner.account.email, emailVerified: true });
    const signIn = await request(testApp.app).post("/api/auth/login").send({ username: owner.account.email, password: owner.account.password }).expect(200);
    expect(signIn.body.id).toBe(owner.user.id);
  });

  it("is proven by one of two claimants proving it at once; the other's link is then spent", async () => {
    const email = `contested.${Date.now()}@claims.test`;
    const agents = new Map<string, request.Agent>();
    for (let claimant = 0; claimant < 2; claimant += 1) {
      const agent = request.agent(testApp.app);
      agents.set((await register(agent, email)).id, agent);
    }
    // Each opens their own link in their own session, at the same moment.
    const tokens = [tokenOf(linkIn(await inbox.next(email))), tokenOf(linkIn(await inbox.next(email)))];
    const sessionOf = async (token: string) => {
      const [row] = await testApp.database.db.select().from(accountTokens).where(eq(accountTokens.tokenHash, createHash("sha256").update(token).digest("hex")));
      return agents.get(row!.userId)!;
    };
    const sessions = await Promise.all(tokens.map(sessionOf));
    const answers = await Promise.all(tokens.map((token, index) => verify(token, sessions[index])));
    expect(answers.map(({ status }) => status).sort()).toEqual([200, 410]);
    const rows = await Promise.all([...agents.keys()].map(userRow));
    expect(rows.map((row) => [row.email, row.emailVerifiedAt !== null]).sort()).toEqual([[email, true], [null, false]].sort());
  });

  it("is never made the admin's by an earlier proof or a reset: only ADMIN_EMAIL proven signed in makes the admin", async () => {
    const other = await createTestApp({ SMTP_URL: inbox.url, ADMIN_EMAIL: "boss@claims.test" });
    const verifyOn = (token: string, agent: request.Agent) => agent.post("/api/auth/verify-email").send({ token });
    try {
      const agent = request.agent(other.app);
      const account = newAccount({ email: "someone@claims.test" });
      await agent.post("/api/auth/register").send(account).expect(201);
      await verifyOn(tokenOf(linkIn(await inbox.next("someone@claims.test"))), agent).expect(200);
      // A proven account that changes to the admin's address is unproven again: its earlier proof counts for nothing.
      await agent.put("/api/account/email").send({ email: "BOSS@claims.test", currentPassword: account.password }).expect(200);
      expect(await currentUser(agent)).toMatchObject({ isAdmin: false, emailVerified: false });
      const link = linkIn(await inbox.next("boss@claims.test"));
      // A reset asked for the admin's address, only claimed, sends nothing and changes nothing.
      await request(other.app).post("/api/auth/forgot-password").send({ email: "boss@claims.test" }).expect(202);
      await verifyOn(tokenOf(link), agent).expect(200);
      expect(await currentUser(agent)).toMatchObject({ isAdmin: true, emailVerified: true });
      await request(other.app).post("/api/auth/forgot-password").send({ email: "boss@claims.test" }).expect(202);
      // The reset mail asked for once proven arrives alone: the one asked for before went nowhere.
      expect(linkIn(await inbox.next("boss@claims.test")).pathname).toBe("/reset-password");
      expect(inbox.messages.filter((mail) => mail.to.includes("boss@claims.test") && mail.text.includes("/reset-password"))).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});

describe("a mail that cannot be sent", () => {
  it("is logged and does not undo the registration; asking again says it was not sent", async () => {
    const broken = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}` });
    const logged = vi.spyOn(logger, "error").mockImplementation(() => {});
    try {
      const agent = request.agent(broken.app);
      const account = newAccount();
      const registered = await agent.post("/api/auth/register").send(account).expect(201);
      expect(registered.body.emailVerified).toBe(false);
      expect(logged).toHaveBeenCalledWith({ component: "mail" }, expect.stringMatching(/^Mail \("Confirm your e-mail address on Plume"\) was not sent: .*ECONNREFUSED/));
      expect((await agent.post("/api/auth/verify-email/resend").expect(503)).body).toMatchObject({ code: "mail_not_sent" });
      expect(await sessionAccount(agent.get("/api/auth/user"))).not.toBeNull();
    } finally {
      logged.mockRestore();
      await broken.close();
    }
  });
});
