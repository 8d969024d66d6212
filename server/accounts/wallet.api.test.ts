import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";

let testApp: TestApp;
beforeAll(async () => {
  testApp = await createTestApp();
});
afterAll(() => testApp.close());

const CHECKSUMMED = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

describe("POST /api/wallet/connect", () => {
  it("refuses an anonymous visitor", async () => {
    await request(testApp.app).post("/api/wallet/connect").send({ walletAddress: CHECKSUMMED }).expect(401);
  });

  it("stores a checksummed address as it is, and an all-lowercase one checksummed", async () => {
    const { agent } = await signedInAgent(testApp.app);
    const first = await agent.post("/api/wallet/connect").send({ walletAddress: CHECKSUMMED }).expect(200);
    expect(first.body.walletAddress).toBe(CHECKSUMMED);
    const second = await agent.post("/api/wallet/connect").send({ walletAddress: CHECKSUMMED.toLowerCase() }).expect(200);
    expect(second.body.walletAddress).toBe(CHECKSUMMED);
    expect((await agent.get("/api/auth/user").expect(200)).body.walletAddress).toBe(CHECKSUMMED);
  });

  it("refuses a mixed-case address with a wrong checksum", async () => {
    const { agent } = await signedInAgent(testApp.app);
    const wrong = CHECKSUMMED.replace("aA", "Aa");
    const response = await agent.post("/api/wallet/connect").send({ walletAddress: wrong }).expect(400);
    expect(response.body.fields).toEqual({ walletAddress: "validation.walletChecksum" });
    expect((await agent.get("/api/auth/user")).body.walletAddress).toBeNull();
  });

  it.each([undefined, "", "0x123", `0x${"0".repeat(40)}`, "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", `0x${"z".repeat(40)}`, 12, ["0x"]])(
    "refuses %j with 400",
    async (walletAddress) => {
      const { agent } = await signedInAgent(testApp.app);
      const response = await agent.post("/api/wallet/connect").send({ walletAddress }).expect(400);
      expect(response.body.fields.walletAddress).toBe("validation.walletInvalid");
    },
  );
});
