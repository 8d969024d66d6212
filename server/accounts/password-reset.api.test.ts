import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountTokens, users } from "../db/schema.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, signedInAgent, sessionAccount } from "../../test/helpers/test-app.ts";

let testApp: TestApp;
let admin: Awaited<ReturnType<typeof signedInAgent>>;
beforeAll(async () => {
  testApp = await createTestApp();
  admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL });
  // The admin is the account whose proven e-mail is ADMIN_EMAIL: proven here directly, as test tooling may.
  await testApp.database.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, admin.user.id));
});
afterAll(() => testApp.close());

const resetTokensOf = (userId: string) =>
  testApp.database.db.select().from(accountTokens).where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, "reset-password")));
const tokenOf = (url: string) => new URL(url).searchParams.get("token")!;
const adminLink = async (userId: string) => {
  // A forged Host never reaches the link (docs/decisions/0053).
  const response = await admin.agent.post(`/api/admin/users/${userId}/reset-link`).set("Host", "evil.example").expect(201);
  return response.body as { url: string; expiresAt: string };
};
const passwordHashOf = async (id: string) =>
  (await testApp.database.db.select({ password: users.password }).from(users).where(eq(users.id, id)))[0]!.password;
const signIn = (username: string, password: string) => request(testApp.app).post("/api/auth/login").send({ username, password });

describe("POST /api/admin/users/:id/reset-link", () => {
  it("gives the admin a one-hour link to the reset screen, for an account without e-mail too", async () => {
    const { user } = await signedInAgent(testApp.app, { email: "" });
    const before = Date.now();
    const link = await adminLink(user.id);
    expect(link.url).toMatch(/^http:\/\/plume\.test\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    const validFor = new Date(link.expiresAt).getTime() - before;
    expect(validFor).toBeGreaterThan(59 * 60 * 1000);
    expect(validFor).toBeLessThanOrEqual(60 * 60 * 1000 + 5_000);
    // Only the token's SHA-256 is kept.
    const stored = await resetTokensOf(user.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ purpose: "reset-password", usedAt: null });
    expect(stored[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0]!.tokenHash).not.toContain(tokenOf(link.url));
  });

  it("is refused to anyone but the admin, and names an unknown account", async () => {
    const reader = await signedInAgent(testApp.app);
    const other = await signedInAgent(testApp.app);
    await request(testApp.app).post(`/api/admin/users/${other.user.id}/reset-link`).expect(401);
    await reader.agent.post(`/api/admin/users/${other.user.id}/reset-link`).expect(403);
    await reader.agent.post(`/api/admin/users/${reader.user.id}/reset-link`).expect(403);
    const unknown = await admin.agent.post("/api/admin/users/00000000-0000-4000-8000-000000000000/reset-link").expect(404);
    expect(unknown.body.code).toBe("not_found");
    await admin.agent.post("/api/admin/users/not-an-id/reset-link").expect(400);
    expect(await resetTokensOf(other.user.id)).toHaveLength(0);
  });
});

describe("POST /api/auth/reset-password", () => {
  it("sets the new password, signs out the account's other sessions but not the caller's, and spends every reset link", async () => {
    const { account, user, agent: otherDevice } = await signedInAgent(testApp.app);
    const stranger = await signedInAgent(testApp.app);
    const thisBrowser = request.agent(testApp.app);
    await thisBrowser.post("/api/auth/login").send({ username: account.username, password: account.password }).expect(200);
    const earlier = await adminLink(user.id);
    const link = await adminLink(user.id);

    await thisBrowser.post("/api/auth/reset-password").send({ token: tokenOf(link.url), password: "brand-new-pass", confirmPassword: "brand-new-pass" }).expect(204);

    expect(await sessionAccount(thisBrowser.get("/api/auth/user"))).not.toBeNull();
    expect(await sessionAccount(otherDevice.get("/api/auth/user"))).toBeNull();
    expect(await sessionAccount(stranger.agent.get("/api/auth/user"))).not.toBeNull();
    await signIn(account.username, account.password).expect(401);
    await signIn(account.username, "brand-new-pass").expect(200);
    const again = await request(testApp.app).post("/api/auth/reset-password").send({ token: tokenOf(link.url), password: "third-pass", confirmPassword: "third-pass" }).expect(410);
    expect(again.body.code).toBe("reset_link_used");
    const older = await request(testApp.app).post("/api/auth/reset-password").send({ token: tokenOf(earlier.url), password: "third-pass", confirmPassword: "third-pass" }).expect(410);
    expect(older.body.code).toBe("reset_link_used");
    await signIn(account.username, "brand-new-pass").expect(200);
  });

  it("refuses an expired link and changes nothing", async () => {
    const { account, user, agent } = await signedInAgent(testApp.app);
    const link = await adminLink(user.id);
    await testApp.database.db
      .update(accountTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(and(eq(accountTokens.userId, user.id), eq(accountTokens.purpose, "reset-password")));
    const hash = await passwordHashOf(user.id);
    const response = await request(testApp.app).post("/api/auth/reset-password").send({ token: tokenOf(link.url), password: "brand-new-pass", confirmPassword: "brand-new-pass" }).expect(410);
    expect(response.body).toMatchObject({ code: "reset_link_expired", message: expect.stringContaining("expired") });
    expect(await passwordHashOf(user.id)).toBe(hash);
    expect(await sessionAccount(agent.get("/api/auth/user"))).not.toBeNull();
    await signIn(account.username, account.password).expect(200);
  });

  it("refuses a forged or malformed link, and a password the rules refuse, changing nothing", async () => {
    const { user, agent } = await signedInAgent(testApp.app);
    const link = await adminLink(user.id);
    const hash = await passwordHashOf(user.id);
    const forged = await request(testApp.app).post("/api/auth/reset-password").send({ token: randomBytes(32).toString("base64url"), password: "brand-new-pass", confirmPassword: "brand-new-pass" }).expect(400);
    expect(forged.body.code).toBe("reset_link_invalid");
    const malformed = await request(testApp.app).post("/api/auth/reset-password").send({ token: "abc", password: "brand-new-pass", confirmPassword: "brand-new-pass" }).expect(400);
    expect(malformed.body.fields).toEqual({ token: "passwordReset.errors.invalid" });
    const short = await request(testApp.app).post("/api/auth/reset-password").send({ token: tokenOf(link.url), password: "abc", confirmPassword: "abc" }).expect(400);
    expect(short.body.fields).toEqual({ password: "validation.passwordMin" });
    const mismatch = await request(testApp.app).post("/api/auth/reset-password").send({ token: tokenOf(link.url), password: "brand-new-pass", confirmPassword: "other-pass" }).expect(400);
    expect(mismatch.body.fields).toEqual({ confirmPassword: "validation.passwordsMismatch" });
    expect(await passwordHashOf(user.id)).toBe(hash);
    expect(await sessionAccount(agent.get("/api/auth/user"))).not.toBeNull();
    // The link still works after those refusals.
    await request(testApp.app).post("/api/auth/reset-password").send({ token: tokenOf(link.url), password: "brand-new-pass", confirmPassword: "brand-new-pass" }).expect(204);
  });
});

describe("GET /api/auth/reset-password/check", () => {
  const check = (token: string) => request(testApp.app).get("/api/auth/reset-password/check").query({ token });

  it("says whether a link can be used without using it: usable, then used; forged; malformed", async () => {
    const { user } = await signedInAgent(testApp.app);
    const link = await adminLink(user.id);
    await check(tokenOf(link.url)).expect(204);
    await check(tokenOf(link.url)).expect(204);
    expect(await resetTokensOf(user.id)).toEqual([expect.objectContaining({ usedAt: null })]);

    await request(testApp.app).post("/api/auth/reset-password").send({ token: tokenOf(link.url), password: "brand-new-pass", confirmPassword: "brand-new-pass" }).expect(204);
    expect((await check(tokenOf(link.url)).expect(410)).body.code).toBe("reset_link_used");
    expect((await check(randomBytes(32).toString("base64url")).expect(400)).body.code).toBe("reset_link_invalid");
    expect((await check("abc").expect(400)).body.fields).toEqual({ token: "passwordReset.errors.invalid" });
  });

  it("says an expired link has expired", async () => {
    const { user } = await signedInAgent(testApp.app);
    const link = await adminLink(user.id);
    await testApp.database.db
      .update(accountTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(and(eq(accountTokens.userId, user.id), eq(accountTokens.purpose, "reset-password")));
    expect((await check(tokenOf(link.url)).expect(410)).body.code).toBe("reset_link_expired");
  });
});
