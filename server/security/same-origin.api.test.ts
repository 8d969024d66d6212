import { count } from "drizzle-orm";
import { Wallet } from "ethers";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { books, users } from "../db/schema.ts";
import { filesUnder, sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, newAccount, signedInAgent, sessionAccount } from "../../test/helpers/test-app.ts";
import { signedWalletProof } from "../../test/helpers/wallet-proof.ts";

const HOST = "plume.test";
const WALLET = Wallet.createRandom();

let testApp: TestApp;
let agent: Awaited<ReturnType<typeof signedInAgent>>["agent"];

beforeAll(async () => {
  testApp = await createTestApp({ TRUST_PROXY: "loopback" });
  ({ agent } = await signedInAgent(testApp.app));
});
afterAll(() => testApp.close());

const countOf = async (table: typeof books | typeof users) => (await testApp.database.db.select({ value: count() }).from(table))[0]!.value;

/** A change that passes every other check: a fresh nonce, signed by the wallet it names for the configured site (docs/decisions/0053). */
async function connectWallet(headers: Record<string, string>) {
  const proof = await signedWalletProof((path) => agent.post(path), WALLET);
  return agent.post("/api/wallet/connect").set({ Host: HOST, ...headers }).send(proof);
}

function expectRefused(response: request.Response) {
  expect(response.status).toBe(403);
  expect(response.body).toEqual({ code: "cross_site_request", message: "This request came from another site and was refused." });
}

describe("cross-site request forgery", () => {
  it.each([
    ["another site's Origin", { Origin: "https://evil.example" }],
    ["a sandboxed or privacy-stripped Origin", { Origin: "null" }],
    ["our host under another scheme", { Origin: `https://${HOST}` }],
    ["our host on another port", { Origin: `http://${HOST}:8080` }],
    ["Sec-Fetch-Site cross-site", { "Sec-Fetch-Site": "cross-site", Origin: `http://${HOST}` }],
    ["Sec-Fetch-Site same-site (a sibling subdomain)", { "Sec-Fetch-Site": "same-site" }],
  ])("refuses a JSON change with %s, and changes nothing", async (_label, headers) => {
    expectRefused(await connectWallet(headers));
    expect((await agent.get("/api/auth/user")).body.walletAddress ?? null).toBeNull();
  });

  it("refuses a multipart upload from another site without storing a byte", async () => {
    expectRefused(await sendBookForm(agent.post("/api/books").set({ Host: HOST, Origin: "https://evil.example" })));
    expect(await countOf(books)).toBe(0);
    expect(filesUnder(testApp.uploadsDir)).toEqual([]);
  });

  it("refuses sign-in, sign-up and sign-out posted by another site (login CSRF)", async () => {
    const evil = { Host: HOST, Origin: "https://evil.example" };
    const accountsBefore = await countOf(users);
    expectRefused(await request(testApp.app).post("/api/auth/register").set(evil).send(newAccount()));
    expectRefused(await request(testApp.app).post("/api/auth/login").set(evil).send({ username: "someone", password: "secret-pass" }));
    expectRefused(await agent.post("/api/auth/logout").set(evil));
    expectRefused(await agent.delete("/api/books/1").set(evil));
    expect(await countOf(users)).toBe(accountsBefore);
    expect(await sessionAccount(agent.get("/api/auth/user"))).not.toBeNull();
  });

  it.each([
    ["our own Origin", { Origin: `http://${HOST}` }],
    ["Sec-Fetch-Site same-origin", { "Sec-Fetch-Site": "same-origin", Origin: `http://${HOST}` }],
    ["a request typed by the user (Sec-Fetch-Site none)", { "Sec-Fetch-Site": "none" }],
    ["no Origin at all (not sent by a web page)", {}],
    ["our Origin over HTTPS behind a trusted proxy", { Origin: `https://${HOST}`, "X-Forwarded-Proto": "https" }],
  ])("accepts a change with %s", async (_label, headers) => {
    const response = await connectWallet(headers);
    expect(response.status).toBe(200);
    expect(response.body.walletAddress).toBe(WALLET.address);
  });

  it("lets another site read public data, which changes nothing", async () => {
    await request(testApp.app).get("/api/books").set({ Host: HOST, Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }).expect(200);
  });
});

describe("security headers", () => {
  it("sends a Content-Security-Policy the built app works under, refuses framing and hides the framework", async () => {
    const response = await request(testApp.app).get("/api/config").expect(200);
    const policy = Object.fromEntries(
      String(response.headers["content-security-policy"])
        .split(";")
        .map((directive) => directive.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values.join(" ")]),
    );
    expect(policy).toMatchObject({
      "default-src": "'self'",
      "script-src": "'self'",
      "style-src": "'self'",
      "img-src": "'self' data: blob:",
      "connect-src": "'self'",
      "object-src": "'none'",
      "frame-ancestors": "'none'",
      "base-uri": "'self'",
      "form-action": "'self'",
    });
    expect(response.headers["x-frame-options"]).toBe("DENY");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["referrer-policy"]).toBe("no-referrer");
    expect(response.headers["x-powered-by"]).toBeUndefined();
  });

  it("keeps the policy under NODE_ENV=development, as npm start runs: only Vite's hot reload goes without it", async () => {
    const development = await createTestApp({ NODE_ENV: "development" });
    try {
      const response = await request(development.app).get("/api/config").expect(200);
      expect(String(response.headers["content-security-policy"])).toContain("script-src 'self'");
    } finally {
      await development.close();
    }
  });
});
