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
const verify = (token: string, agent = request(testApp.app)) => agent.post("/api/auth/verify-email").send({ token });
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
    expect(mail.text).toContain(`Bonjour Zoé García, ouvrez ce lien pour confirmer que ${account.email} est votre adresse`);
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

    // Opened on another device, where nobody is signed in.
    const verified = await verify(tokenOf(link)).expect(200);
    expect(verified.body).toEqual({ email: account.email, verifiedAt: expect.any(String) as string });
    expect((await agent.get("/api/auth/user").expect(200)).body.emailVerified).toBe(true);
    expect((await verify(tokenOf(link)).expect(410)).body).toMatchObject({ code: "verify_link_used" });
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
    expect((await verify(token).expect(410)).body).toMatchObject({ code: "verify_link_expired" });
    expect((await verify("A".repeat(43)).expect(400)).body).toMatchObject({ code: "verify_link_invalid" });
    expect((await verify("not a token!").expect(400)).body).toMatchObject({ code: "validation_failed", fields: { token: "verifyEmail.invalid" } });
    expect((await userRow(user.id)).emailVerifiedAt).toBeNull();

    // The dashboard's "send the link again" gives a link that works.
    expect((await agent.post("/api/auth/verify-email/resend").expect(202)).body).toEqual({ sentTo: account.email });
    await verify(tokenOf(linkIn(await inbox.next(account.email)))).expect(200);
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
    const { account, user } = await signedInAgent(testApp.app);
    const oldToken = tokenOf(linkIn(await inbox.next(account.email)));
    const mailer = createMailer({ settings: { smtpUrl: inbox.url, from: "Plume <no-reply@plume.test>" }, outboxDir: "/nonexistent" });
    const mailing = { mailer, origin: "http://plume.test", productName: "Plume" };
    try {
      await verify(oldToken).expect(200);
      expect((await userRow(user.id)).emailVerifiedAt).not.toBeNull();
      const earlier = await changeEmail(testApp.database.db, user.id, `new.${account.email}`, mailing, new Date());
      expect(earlier.emailVerifiedAt).toBeNull();
      const newLink = linkIn(await inbox.next(`new.${account.email}`));
      expect(newLink.origin).toBe("http://plume.test");
      // A link of the old address, unused, issued before the change: it proves nothing about the new one.
      await changeEmail(testApp.database.db, user.id, `newer.${account.email}`, mailing, new Date());
      expect((await verify(tokenOf(newLink)).expect(400)).body).toMatchObject({ code: "verify_link_invalid" });
      expect((await userRow(user.id)).emailVerifiedAt).toBeNull();
      await verify(tokenOf(linkIn(await inbox.next(`newer.${account.email}`)))).expect(200);
      expect((await userRow(user.id)).email).toBe(`newer.${account.email}`);
      expect((await userRow(user.id)).emailVerifiedAt).not.toBeNull();
      // Taking an address another account holds is refused.
      const other = await signedInAgent(testApp.app);
      await expect(changeEmail(testApp.database.db, user.id, other.account.email.toUpperCase(), mailing, new Date())).rejects.toMatchObject({ status: 409, code: "email_taken" });
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

describe("the admin", () => {
  it("is the account that verified ADMIN_EMAIL through its link: typing the address grants nothing", async () => {
    const author = await signedInAgent(testApp.app);
    await sendBookForm(author.agent.post("/api/books"), { coverImage: null }).expect(201);
    const stranger = request.agent(testApp.app);
    const registered = await stranger.post("/api/auth/register").send(newAccount({ email: "ADMIN@Plume.TEST" })).expect(201);
    expect(TEST_ADMIN_EMAIL).toBe("admin@plume.test");
    expect(registered.body.isAdmin).toBe(false);
    for (const path of ["/api/admin/payment-diagnostics", "/api/admin/overview-debug"]) {
      const refused = await stranger.get(path).expect(403);
      expect(JSON.stringify(refused.body)).not.toContain(author.account.email);
    }
    await stranger.get(`/api/authors/${author.user.id}/payments`).expect(403);

    const link = linkIn(await inbox.next(TEST_ADMIN_EMAIL));
    await stranger.post("/api/auth/verify-email").send({ token: tokenOf(link) }).expect(200);
    expect((await stranger.get("/api/auth/user").expect(200)).body).toMatchObject({ isAdmin: true, emailVerified: true });
    expect(JSON.stringify((await stranger.get("/api/admin/payment-diagnostics").expect(200)).body)).toContain(author.account.email);
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
