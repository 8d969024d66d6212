import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_CHAIN, type TestApp, createTestApp } from "../../test/helpers/test-app.ts";

let testApp: TestApp;
beforeAll(async () => {
  testApp = await createTestApp();
});
afterAll(() => testApp.close());

describe("GET /api/config", () => {
  it("tells anyone what a wallet needs, and nothing secret", async () => {
    const response = await request(testApp.app).get("/api/config").expect(200);
    expect(response.body).toEqual({
      productName: "Plume",
      contactEmail: null,
      legalContact: null,
      mailSender: "no-reply@localhost",
      rewards: { promoCutoff: "2026-04-01T00:00:00.000Z", countedPerAddressPerDay: 3 },
      token: {
        address: TEST_CHAIN.tokenAddress,
        symbol: "PME",
        decimals: 18,
        chainId: 31337,
        chainName: null,
        rpcUrl: TEST_CHAIN.publicRpcUrl,
        explorerUrl: null,
      },
      walletConnect: null,
    });
    expect(response.text).not.toContain(TEST_CHAIN.payoutPrivateKey.slice(2));
  });

  it("offers WalletConnect only with a project id, and lets the page connect to its relay then alone", async () => {
    const withoutIt = await request(testApp.app).get("/api/config").expect(200);
    expect(withoutIt.headers["content-security-policy"]).toContain("connect-src 'self';");
    const projectId = "0123456789abcdef0123456789abcdef";
    const turnedOn = await createTestApp({ WALLETCONNECT_PROJECT_ID: projectId, WALLETCONNECT_RELAY_URL: "wss://relay.plume.example/v2" });
    try {
      const response = await request(turnedOn.app).get("/api/config").expect(200);
      expect(response.body.walletConnect).toEqual({ projectId, relayUrl: "wss://relay.plume.example/v2" });
      expect(response.headers["content-security-policy"]).toContain("connect-src 'self' wss://relay.plume.example;");
    } finally {
      await turnedOn.close();
    }
  });

  it("serves the configured end of the first-book offer, the per-address rule, the contact address, the designated contact and the mail's sender, which the screens follow", async () => {
    const moved = await createTestApp({
      PROMO_CUTOFF: "2027-01-15T12:00:00+01:00",
      COUNTED_PER_IP_PER_BOOK_PER_DAY: "5",
      CONTACT_EMAIL: "hello@plume.example",
      LEGAL_CONTACT: "Plume Legal, 1 Rue de la Paix, 75002 Paris",
      MAIL_FROM: "Plume Books <books@plume.example>",
    });
    try {
      const response = await request(moved.app).get("/api/config").expect(200);
      expect(response.body.rewards).toEqual({ promoCutoff: "2027-01-15T11:00:00.000Z", countedPerAddressPerDay: 5 });
      expect(response.body.contactEmail).toBe("hello@plume.example");
      expect(response.body.legalContact).toBe("Plume Legal, 1 Rue de la Paix, 75002 Paris");
      // The sender a Kindle's owner approves: the address alone, as Amazon's list takes it.
      expect(response.body.mailSender).toBe("books@plume.example");
    } finally {
      await moved.close();
    }
  });
});
