import { count, eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions, users } from "../db/schema.ts";
import {
  TEST_ADMIN_EMAIL,
  TEST_CHAIN,
  TEST_SESSION_SECRET,
  type TestApp,
  createTestApp,
  newAccount,
  signedInAgent,
  sessionAccount,
} from "../../test/helpers/test-app.ts";
import { linkMailedTo } from "../../test/helpers/mail-files.ts";

let testApp: TestApp;
beforeAll(async () => {
  testApp = await createTestApp();
});
afterAll(() => testApp.close());

const sessionCookie = (response: request.Response) =>
  ([] as string[]).concat(response.headers["set-cookie"] ?? []).find((cookie) => cookie.startsWith("plume.sid="));
const cookiePair = (cookie: string | undefined) => cookie?.split(";")[0] ?? "";
const userCount = async () => (await testApp.database.db.select({ n: count() }).from(users))[0]!.n;

describe("POST /api/auth/register", () => {
  it("creates the account, signs it in and never returns the password", async () => {
    const agent = request.agent(testApp.app);
    const account = newAccount();
    const response = await agent.post("/api/auth/register").send(account).expect(201);
    expect(response.body).toMatchObject({
      username: account.username,
      email: account.email,
      firstName: "Ana",
      lastName: "García",
      displayName: account.username,
      totalDownloads: 0,
      totalEarnings: "0.00",
      isAdmin: false,
    });
    expect(response.body).not.toHaveProperty("password");
    expect(response.text).not.toContain("scrypt");
    const cookie = sessionCookie(response)!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    const me = await agent.get("/api/auth/user").expect(200);
    expect(me.body.id).toBe(response.body.id);
  });

  it("accepts a missing or empty e-mail, which is optional", async () => {
    const { email: _email, ...withoutEmail } = newAccount();
    const first = await request(testApp.app).post("/api/auth/register").send(withoutEmail).expect(201);
    expect(first.body.email).toBeNull();
    const second = await request(testApp.app).post("/api/auth/register").send(newAccount({ email: "" })).expect(201);
    expect(second.body.email).toBeNull();
  });

  it("trims names and username", async () => {
    const account = newAccount();
    const response = await request(testApp.app)
      .post("/api/auth/register")
      .send({ ...account, username: `  ${account.username} `, firstName: " Ana " })
      .expect(201);
    expect(response.body.username).toBe(account.username);
    expect(response.body.firstName).toBe("Ana");
  });

  it.each([
    ["a missing first name", { firstName: undefined }, "firstName", "validation.firstNameRequired"],
    ["a blank last name", { lastName: "   " }, "lastName", "validation.lastNameRequired"],
    ["a short username", { username: "ab" }, "username", "validation.usernameMin"],
    ["a long username", { username: "u".repeat(51) }, "username", "validation.usernameMax"],
    ["an @ in the username", { username: "ana@home" }, "username", "validation.usernameChars"],
    ["a bad e-mail", { email: "ana-at-home" }, "email", "validation.emailInvalid"],
    ["a short password", { password: "12345", confirmPassword: "12345" }, "password", "validation.passwordMin"],
    ["a huge password", { password: "p".repeat(129), confirmPassword: "p".repeat(129) }, "password", "validation.passwordMax"],
    ["mismatched passwords", { confirmPassword: "other-pass" }, "confirmPassword", "validation.passwordsMismatch"],
    ["a number as username", { username: 12345 }, "username", "validation.required"],
    ["a huge first name", { firstName: "x".repeat(5000) }, "firstName", "validation.nameMax"],
  ])("refuses %s with 400 naming the field", async (_label, change, field, key) => {
    const before = await userCount();
    const response = await request(testApp.app)
      .post("/api/auth/register")
      .send({ ...newAccount(), ...change })
      .expect(400);
    expect(response.body.code).toBe("validation_failed");
    expect(response.body.fields[field]).toBe(key);
    expect(response.body.message).toContain(field);
    expect(await userCount()).toBe(before);
  });

  it("refuses malformed JSON, a non-object body and an empty body with 400", async () => {
    const malformed = await request(testApp.app)
      .post("/api/auth/register")
      .set("Content-Type", "application/json")
      .send('{"username": "ana",')
      .expect(400);
    expect(malformed.body).toEqual({ code: "invalid_json", message: expect.any(String) });
    const array = await request(testApp.app).post("/api/auth/register").send([1, 2]).expect(400);
    expect(array.body.code).toBe("validation_failed");
    const empty = await request(testApp.app).post("/api/auth/register").expect(400);
    expect(empty.body.fields).toMatchObject({ username: "validation.required", password: "validation.required" });
  });

  it("refuses a body over the size limit with 413", async () => {
    const response = await request(testApp.app)
      .post("/api/auth/register")
      .send({ ...newAccount(), firstName: "x".repeat(100_000) })
      .expect(413);
    expect(response.body.code).toBe("payload_too_large");
  });

  it("ignores prototype-pollution keys", async () => {
    const body = `{"__proto__": {"isAdmin": true}, ${JSON.stringify(newAccount()).slice(1)}`;
    const response = await request(testApp.app)
      .post("/api/auth/register")
      .set("Content-Type", "application/json")
      .send(body)
      .expect(201);
    expect(response.body.isAdmin).toBe(false);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it("answers 409 for a username taken in any letter case, leaving no row", async () => {
    const account = newAccount();
    await request(testApp.app).post("/api/auth/register").send(account).expect(201);
    const before = await userCount();
    const response = await request(testApp.app)
      .post("/api/auth/register")
      .send(newAccount({ username: account.username.toUpperCase() }))
      .expect(409);
    expect(response.body).toMatchObject({ code: "username_taken", fields: { username: "errors.username_taken" } });
    expect(await userCount()).toBe(before);
  });

  // docs/decisions/0054: an unproven address is a claim, which several accounts may hold; the answer never tells.
  it("registers an address another account claimed, in any letter case, with the same answer as a fresh one", async () => {
    const account = newAccount();
    const first = await request(testApp.app).post("/api/auth/register").send(account).expect(201);
    const second = await request(testApp.app).post("/api/auth/register").send(newAccount({ email: account.email.toUpperCase() })).expect(201);
    expect(Object.keys(second.body as object).sort()).toEqual(Object.keys(first.body as object).sort());
    expect(second.body).toMatchObject({ email: account.email.toUpperCase(), emailVerified: false, isAdmin: false });
  });

  it("lets exactly one of several simultaneous sign-ups with one username win", async () => {
    const account = newAccount();
    const statuses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        request(testApp.app)
          .post("/api/auth/register")
          .send({ ...account, email: `racer${i}@example.test` })
          .then((response) => response.status),
      ),
    );
    expect(statuses.sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });

  // The rule since docs/decisions/0033 and 0054: typing ADMIN_EMAIL is not enough, its owner opens the link mailed to it.
  it("marks the account of ADMIN_EMAIL as admin once it verified the address while signed in, whatever the letter case", async () => {
    const agent = request.agent(testApp.app);
    const response = await agent.post("/api/auth/register").send(newAccount({ email: TEST_ADMIN_EMAIL.toUpperCase() })).expect(201);
    expect(response.body.isAdmin).toBe(false);
    const token = (await linkMailedTo(testApp.mailDir, TEST_ADMIN_EMAIL)).searchParams.get("token");
    // The link alone, without the account's session, proves nothing (docs/decisions/0054).
    expect((await request(testApp.app).post("/api/auth/verify-email").send({ token }).expect(401)).body.code).toBe("verify_sign_in_required");
    expect((await agent.get("/api/auth/user").expect(200)).body.isAdmin).toBe(false);
    await agent.post("/api/auth/verify-email").send({ token }).expect(200);
    expect((await agent.get("/api/auth/user").expect(200)).body.isAdmin).toBe(true);
  });
});

describe("POST /api/auth/login", () => {
  it("signs in with the username or the proven e-mail, in any letter case; an unproven address names no account", async () => {
    const account = newAccount();
    await request(testApp.app).post("/api/auth/register").send(account).expect(201);
    // Until proven, the address is a claim that someone else may hold too (docs/decisions/0054).
    expect((await request(testApp.app).post("/api/auth/login").send({ username: account.email, password: account.password }).expect(401)).body.code).toBe("invalid_credentials");
    await testApp.proveEmail(account.email);
    for (const identifier of [account.username, account.email.toUpperCase(), ` ${account.username.toUpperCase()} `]) {
      const agent = request.agent(testApp.app);
      const response = await agent.post("/api/auth/login").send({ username: identifier, password: account.password }).expect(200);
      expect(response.body.username).toBe(account.username);
      expect(response.body).not.toHaveProperty("password");
      expect(await sessionAccount(agent.get("/api/auth/user"))).not.toBeNull();
    }
  });

  it("answers 401 invalid_credentials for a wrong password or an unknown account, without a session", async () => {
    const account = newAccount();
    await request(testApp.app).post("/api/auth/register").send(account).expect(201);
    for (const attempt of [
      { username: account.username, password: "wrong-pass" },
      { username: "nobody_here", password: "whatever" },
    ]) {
      const response = await request(testApp.app).post("/api/auth/login").send(attempt).expect(401);
      expect(response.body).toEqual({ code: "invalid_credentials", message: expect.any(String) });
      expect(response.body.message).not.toMatch(/Unauthorized/);
      expect(sessionCookie(response)).toBeUndefined();
    }
  });

  it.each([
    [{ username: "ab", password: "secret-pass" }, "username", "validation.usernameMin"],
    [{ username: "someone", password: "123" }, "password", "validation.passwordMin"],
    [{ username: "someone" }, "password", "validation.required"],
    [{ username: ["a", "b", "c"], password: "secret-pass" }, "username", "validation.required"],
  ])("refuses bad input %j with 400", async (body, field, key) => {
    const response = await request(testApp.app).post("/api/auth/login").send(body).expect(400);
    expect(response.body.fields[field]).toBe(key);
  });

  it("gives a new session id at every sign-in and forgets the old one", async () => {
    const { agent, account, user } = await signedInAgent(testApp.app);
    const first = await agent.post("/api/auth/login").send({ username: account.username, password: account.password }).expect(200);
    const second = await agent.post("/api/auth/login").send({ username: account.username, password: account.password }).expect(200);
    const [firstCookie, secondCookie] = [cookiePair(sessionCookie(first)), cookiePair(sessionCookie(second))];
    expect(firstCookie).not.toBe("");
    expect(secondCookie).not.toBe(firstCookie);
    expect(await sessionAccount(request(testApp.app).get("/api/auth/user").set("Cookie", firstCookie))).toBeNull();
    const current = await request(testApp.app).get("/api/auth/user").set("Cookie", secondCookie).expect(200);
    expect(current.body.id).toBe(user.id);
  });
});

describe("a new account", () => {
  it("is new from its registration until it signs in again, in every answer that carries the account", async () => {
    const agent = request.agent(testApp.app);
    const account = newAccount();
    expect((await agent.post("/api/auth/register").send(account).expect(201)).body.isNewAccount).toBe(true);
    expect((await agent.get("/api/auth/user").expect(200)).body.isNewAccount).toBe(true);
    // Signing out and in again, here or on another device, makes it a returning account everywhere.
    const elsewhere = request.agent(testApp.app);
    const login = await elsewhere.post("/api/auth/login").send({ username: account.username, password: account.password }).expect(200);
    expect(login.body.isNewAccount).toBe(false);
    expect((await elsewhere.get("/api/auth/user").expect(200)).body.isNewAccount).toBe(false);
    expect((await agent.get("/api/auth/user").expect(200)).body.isNewAccount).toBe(false);
  });

  it("stays new after a failed sign-in: only a sign-in that succeeds counts", async () => {
    const agent = request.agent(testApp.app);
    const account = newAccount();
    await agent.post("/api/auth/register").send(account).expect(201);
    await request(testApp.app).post("/api/auth/login").send({ username: account.username, password: "wrong-pass" }).expect(401);
    expect((await agent.get("/api/auth/user").expect(200)).body.isNewAccount).toBe(true);
  });
});

describe("POST /api/auth/logout", () => {
  it("ends the session on the server, so a copied cookie is worthless afterwards", async () => {
    const { agent } = await signedInAgent(testApp.app);
    const me = await agent.get("/api/auth/user").expect(200);
    const sessionRows = async () => (await testApp.database.db.select({ n: count() }).from(sessions))[0]!.n;
    const cookie = cookiePair(sessionCookie(await agent.post("/api/auth/login").send({ username: me.body.username, password: "secret-pass" })));
    const rowsBefore = await sessionRows();
    await agent.post("/api/auth/logout").expect(204);
    expect(await sessionAccount(agent.get("/api/auth/user"))).toBeNull();
    expect(await sessionAccount(request(testApp.app).get("/api/auth/user").set("Cookie", cookie))).toBeNull();
    expect(await sessionRows()).toBe(rowsBefore - 1);
  });

  it("is harmless for an anonymous visitor", async () => {
    await request(testApp.app).post("/api/auth/logout").expect(204);
  });
});

describe("GET /api/auth/user", () => {
  // Not an error: a visitor's browser would log a 401 on every page (docs/decisions/0067).
  it("answers 200 null for an anonymous visitor and for an unknown session cookie", async () => {
    const response = await request(testApp.app).get("/api/auth/user").expect(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.text).toBe("null");
    expect(await sessionAccount(request(testApp.app).get("/api/auth/user").set("Cookie", "plume.sid=s%3Aforged.signature"))).toBeNull();
  });

  it("still refuses a signed-in route to an anonymous visitor with 401", async () => {
    expect((await request(testApp.app).get("/api/account/sessions").expect(401)).body).toEqual({ code: "unauthorized", message: "Unauthorized" });
  });

  it("keeps a session valid after a server restart", async () => {
    const { agent } = await signedInAgent(testApp.app);
    const login = await agent.get("/api/auth/user").expect(200);
    const cookie = cookiePair(
      sessionCookie(await agent.post("/api/auth/login").send({ username: login.body.username, password: "secret-pass" })),
    );
    const restarted = testApp.anotherProcess();
    try {
      const response = await request(restarted.app).get("/api/auth/user").set("Cookie", cookie).expect(200);
      expect(response.body.id).toBe(login.body.id);
    } finally {
      restarted.close();
    }
  });

  it("names the production cookie __Host- and sends it only over HTTPS", async () => {
    const production = testApp.anotherProcess({
      NODE_ENV: "production",
      TRUST_PROXY: "loopback",
      SESSION_SECRET: TEST_SESSION_SECRET,
      DATABASE_URL: "postgres://unused.test/plume",
      RPC_URL: TEST_CHAIN.rpcUrl,
      PME_TOKEN_ADDRESS: TEST_CHAIN.tokenAddress,
      BATCH_PAYER_ADDRESS: TEST_CHAIN.batchPayerAddress,
      PAYOUT_PRIVATE_KEY: TEST_CHAIN.payoutPrivateKey,
    });
    try {
      const response = await request(production.app).post("/api/auth/register").set("X-Forwarded-Proto", "https").send(newAccount()).expect(201);
      const [cookie] = [response.headers["set-cookie"] ?? []].flat();
      expect(cookie).toMatch(/^__Host-plume\.sid=/);
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; Path=\//);
      expect(cookie).not.toMatch(/Domain=/i);
    } finally {
      production.close();
    }
  });

  it("signs out a session whose account no longer exists", async () => {
    const { agent, user } = await signedInAgent(testApp.app);
    await testApp.database.db.delete(users).where(eq(users.id, user.id));
    expect(await sessionAccount(agent.get("/api/auth/user"))).toBeNull();
  });
});

describe("GET /api/login", () => {
  it.each([
    ["/api/login?next=%2Fdashboard", "/login?next=%2Fdashboard"],
    ["/api/login?next=%2Fedit-book%2F4%3Ftab%3D1", "/login?next=%2Fedit-book%2F4%3Ftab%3D1"],
    ["/api/login", "/login"],
    ["/api/login?next=%2F%2Fevil.test", "/login"],
    ["/api/login?next=https%3A%2F%2Fevil.test", "/login"],
  ])("%s redirects to %s", async (path, location) => {
    const response = await request(testApp.app).get(path).expect(302);
    expect(response.headers.location).toBe(location);
  });
});

describe("unknown API paths", () => {
  it("answer 404 JSON, never the app page", async () => {
    const response = await request(testApp.app).get("/api/nothing-here").expect(404);
    expect(response.body).toMatchObject({ code: "not_found" });
  });
});
