import { type AddressInfo, createServer } from "node:net";
import { and, eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountTokens, users } from "../db/schema.ts";
import { type SmtpInbox, linkIn, startSmtpInbox } from "../../test/helpers/smtp-inbox.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";

let inbox: SmtpInbox;
let testApp: TestApp;
beforeAll(async () => {
  inbox = await startSmtpInbox();
  testApp = await createTestApp({ SMTP_URL: inbox.url });
});
afterAll(async () => {
  await testApp.close();
  await inbox.close();
});

/** A registered account whose e-mail is proven (as the verification link does), in the given language. */
async function verifiedAccount(language = "en") {
  const registered = await signedInAgent(testApp.app);
  await testApp.database.db.update(users).set({ emailVerifiedAt: new Date(), language }).where(eq(users.id, registered.user.id));
  return registered;
}
const resetTokensOf = (userId: string) =>
  testApp.database.db.select().from(accountTokens).where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, "reset-password")));
/** The next reset mail to this address; registration's verification mail is passed over. */
async function nextResetMail(to: string) {
  for (;;) {
    const mail = await inbox.next(to);
    if (linkIn(mail).pathname === "/reset-password") return mail;
  }
}
const forgot = (app = testApp.app, email: string, from = "203.0.113.9") =>
  request(app).post("/api/auth/forgot-password").set("X-Forwarded-For", from).send({ email });

describe("POST /api/auth/forgot-password", () => {
  it("answers an address with an account exactly as one without, and mails a working one-hour link in the account's language", async () => {
    const { account, user } = await verifiedAccount("es");
    const known = await forgot(testApp.app, account.email.toUpperCase()).expect(202);
    const unknown = await forgot(testApp.app, "nobody-here@example.test").expect(202);
    expect(known.body).toEqual(unknown.body);
    expect(Object.keys(known.headers).sort()).toEqual(Object.keys(unknown.headers).sort());

    const mail = await nextResetMail(account.email);
    expect(mail.subject).toBe("Elige una contraseña nueva en Plume");
    expect(mail.text).not.toContain(account.password);
    const link = linkIn(mail);
    expect(link.pathname).toBe("/reset-password");
    await request(testApp.app)
      .post("/api/auth/reset-password")
      .send({ token: link.searchParams.get("token"), password: "mailed-new-pass", confirmPassword: "mailed-new-pass" })
      .expect(204);
    await request(testApp.app).post("/api/auth/login").send({ username: account.username, password: "mailed-new-pass" }).expect(200);
    const [token] = await resetTokensOf(user.id);
    // The expiry is set by the server's clock, the creation date by the database's: a second apart at most.
    expect(Math.abs(token!.expiresAt.getTime() - token!.createdAt.getTime() - 60 * 60 * 1000)).toBeLessThan(1000);
    expect(token!.usedAt).not.toBeNull();
  });

  it("mails a link on the configured site whatever Host or X-Forwarded-Host the request names (docs/decisions/0053)", async () => {
    const { account } = await verifiedAccount();
    const forgeries = [{ Host: "evil.example" }, { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" }];
    const sites: Array<{ settings: Record<string, string>; origin: string }> = [
      { settings: {}, origin: "http://plume.test" },
      // Development, without PUBLIC_URL: the address the server listens on.
      { settings: { PUBLIC_URL: "", PORT: "5123" }, origin: "http://localhost:5123" },
    ];
    for (const { settings, origin } of sites) {
      const behindProxy = testApp.anotherProcess({ SMTP_URL: inbox.url, TRUST_PROXY: "loopback", ...settings });
      try {
        for (const headers of forgeries) {
          await forgot(behindProxy.app, account.email).set(headers).expect(202);
          expect(linkIn(await nextResetMail(account.email)).origin, JSON.stringify(headers)).toBe(origin);
        }
      } finally {
        behindProxy.close();
      }
    }
  });

  it("sends nothing to an unverified address, nor for an unknown one, and makes no link", async () => {
    const unverified = await signedInAgent(testApp.app);
    await forgot(testApp.app, unverified.account.email).expect(202);
    await forgot(testApp.app, "nobody-at-all@example.test").expect(202);
    // A verified account's mail asked for afterwards arrives alone: nothing went out before it.
    const { account } = await verifiedAccount();
    await forgot(testApp.app, account.email).expect(202);
    await nextResetMail(account.email);
    const resetMailsTo = (email: string) => inbox.messages.filter((mail) => mail.to.includes(email.toLowerCase()) && mail.text.includes("/reset-password"));
    expect(resetMailsTo(unverified.account.email)).toEqual([]);
    expect(await resetTokensOf(unverified.user.id)).toEqual([]);
  });

  it("refuses an address that is not one, naming the field", async () => {
    const response = await forgot(testApp.app, "not-an-address").expect(400);
    expect(response.body.fields).toEqual({ email: "validation.emailInvalid" });
  });

  it("answers before looking the address up: a mail server that never replies delays no answer", async () => {
    // A server that accepts the connection and never greets: a send awaited before answering would wait
    // for the mailer's 10-second greeting timeout.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const hanging = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}` });
    try {
      // Written directly: registering through the API would itself wait on this mail server for its verification mail.
      const email = "waiting@example.test";
      await hanging.database.db.insert(users).values({ username: "waiting", email, password: "x", firstName: "Ana", lastName: "García", emailVerifiedAt: new Date() });
      const started = Date.now();
      const known = await forgot(hanging.app, email).expect(202);
      const unknown = await forgot(hanging.app, "nobody-there@example.test").expect(202);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(known.body).toEqual(unknown.body);
    } finally {
      await hanging.close();
      silent.close();
    }
  });
});

describe("the limits of forgot-password", () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ SMTP_URL: inbox.url, TRUST_PROXY: "loopback", RATE_LIMIT_PASSWORD_RESET_PER_IP: "5", RATE_LIMIT_PASSWORD_RESET_PER_ACCOUNT: "3" });
  });
  afterAll(() => limited.close());

  it("allows 3 requests an hour for one address, from anywhere, whether it has an account or not", async () => {
    for (const from of ["198.51.100.1", "198.51.100.2", "198.51.100.3"]) await forgot(limited.app, "someone@example.test", from).expect(202);
    const refused = await forgot(limited.app, "SOMEONE@example.test", "198.51.100.4").expect(429);
    expect(refused.body).toMatchObject({ code: "rate_limited", message: expect.stringContaining("this address") });
    await forgot(limited.app, "someone-else@example.test", "198.51.100.4").expect(202);
  });

  it("allows 5 requests an hour from one network", async () => {
    for (let index = 0; index < 5; index += 1) await forgot(limited.app, `asker-${index}@example.test`, "192.0.2.77").expect(202);
    const refused = await forgot(limited.app, "asker-6@example.test", "192.0.2.77").expect(429);
    expect(refused.body.message).toContain("your network");
    await forgot(limited.app, "asker-6@example.test", "192.0.2.78").expect(202);
  });
});
