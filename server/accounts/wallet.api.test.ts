import { Wallet } from "ethers";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildWalletProofMessage } from "../../shared/wallet-proof.ts";
import { TEST_CHAIN, type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { connectProvenWallet, signedWalletProof } from "../../test/helpers/wallet-proof.ts";
import { PmeChain } from "../chain/pme-chain.ts";

let testApp: TestApp;
beforeAll(async () => {
  testApp = await createTestApp();
});
afterAll(() => testApp.close());

const CHECKSUMMED = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

type Agent = Awaited<ReturnType<typeof signedInAgent>>["agent"];
const post = (agent: Agent) => (path: string) => agent.post(path);
const connect = (agent: Agent, proof: { message: string; signature: string }) => agent.post("/api/wallet/connect").send(proof);
const savedWallet = async (agent: Agent) => (await agent.get("/api/auth/user").expect(200)).body.walletAddress as string | null;

describe("POST /api/wallet/nonce", () => {
  it("refuses an anonymous visitor", async () => {
    await request(testApp.app).post("/api/wallet/nonce").send({ walletAddress: CHECKSUMMED }).expect(401);
  });

  it("answers a fresh nonce, the address checksummed (also from all-lowercase), the chain and the expiry", async () => {
    const { agent } = await signedInAgent(testApp.app);
    const first = (await agent.post("/api/wallet/nonce").send({ walletAddress: CHECKSUMMED.toLowerCase() }).expect(200)).body;
    const second = (await agent.post("/api/wallet/nonce").send({ walletAddress: CHECKSUMMED }).expect(200)).body;
    expect(first).toMatchObject({ walletAddress: CHECKSUMMED, chainId: TEST_CHAIN.chainId, nonce: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(second.nonce).not.toBe(first.nonce);
    expect(Date.parse(first.expiresAt) - Date.now()).toBeGreaterThan(9 * 60 * 1000);
  });

  it("refuses a mixed-case address with a wrong checksum", async () => {
    const { agent } = await signedInAgent(testApp.app);
    const wrong = CHECKSUMMED.replace("aA", "Aa");
    const response = await agent.post("/api/wallet/nonce").send({ walletAddress: wrong }).expect(400);
    expect(response.body.fields).toEqual({ walletAddress: "validation.walletChecksum" });
  });

  it.each([undefined, "", "0x123", `0x${"0".repeat(40)}`, "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", `0x${"z".repeat(40)}`, 12, ["0x"]])(
    "refuses %j with 400",
    async (walletAddress) => {
      const { agent } = await signedInAgent(testApp.app);
      const response = await agent.post("/api/wallet/nonce").send({ walletAddress }).expect(400);
      expect(response.body.fields.walletAddress).toBe("validation.walletInvalid");
    },
  );

  it("refuses the platform's hot wallet and the token contract", async () => {
    const { agent } = await signedInAgent(testApp.app);
    const chain = new PmeChain(TEST_CHAIN);
    try {
      for (const address of [chain.hotWallet.address, TEST_CHAIN.tokenAddress.toLowerCase()]) {
        const response = await agent.post("/api/wallet/nonce").send({ walletAddress: address }).expect(400);
        expect(response.body.fields).toEqual({ walletAddress: "walletProof.errors.platformAddress" });
      }
    } finally {
      chain.destroy();
    }
  });
});

describe("POST /api/wallet/connect", () => {
  it("refuses an anonymous visitor", async () => {
    await request(testApp.app).post("/api/wallet/connect").send({ message: "x", signature: `0x${"1".repeat(130)}` }).expect(401);
  });

  it("saves the address, checksummed, once the wallet has signed the nonce", async () => {
    const { agent } = await signedInAgent(testApp.app);
    const wallet = Wallet.createRandom();
    const response = await connect(agent, await signedWalletProof(post(agent), wallet)).expect(200);
    expect(response.body.walletAddress).toBe(wallet.address);
    expect(await savedWallet(agent)).toBe(wallet.address);
  });

  it("replaces the author's wallet with another proven one", async () => {
    const { agent } = await signedInAgent(testApp.app);
    await connectProvenWallet(agent);
    const next = await connectProvenWallet(agent);
    expect(await savedWallet(agent)).toBe(next);
  });

  it("refuses a replayed message: the nonce is spent by its first use", async () => {
    const { agent } = await signedInAgent(testApp.app);
    const proof = await signedWalletProof(post(agent), Wallet.createRandom());
    await connect(agent, proof).expect(200);
    const response = await connect(agent, proof).expect(400);
    expect(response.body.fields).toEqual({ signature: "walletProof.errors.expired" });
  });

  it("spends the nonce on a failed attempt too", async () => {
    const { agent } = await signedInAgent(testApp.app);
    const wallet = Wallet.createRandom();
    const proof = await signedWalletProof(post(agent), wallet);
    await connect(agent, { ...proof, signature: await Wallet.createRandom().signMessage(proof.message) }).expect(400);
    await connect(agent, proof).expect(400);
    expect(await savedWallet(agent)).toBeNull();
  });

  it("refuses a nonce older than 10 minutes", async () => {
    const { agent } = await signedInAgent(testApp.app);
    const proof = await signedWalletProof(post(agent), Wallet.createRandom());
    vi.useFakeTimers({ now: Date.now() + 10 * 60 * 1000 + 1000, toFake: ["Date"] });
    try {
      const response = await connect(agent, proof).expect(400);
      expect(response.body.fields).toEqual({ signature: "walletProof.errors.expired" });
    } finally {
      vi.useRealTimers();
    }
    expect(await savedWallet(agent)).toBeNull();
  });

  it("refuses a nonce issued to another session", async () => {
    const { agent } = await signedInAgent(testApp.app);
    const { agent: other } = await signedInAgent(testApp.app);
    const proof = await signedWalletProof(post(agent), Wallet.createRandom());
    await connect(other, proof).expect(400);
    expect(await savedWallet(other)).toBeNull();
  });

  it.each([
    ["signed by another key", { signer: Wallet.createRandom() }, "walletProof.errors.otherSigner"],
    ["made for another site", { host: "evil.example" }, "walletProof.errors.otherSite"],
    ["made for another chain", { chainId: 1 }, "walletProof.errors.otherChain"],
    ["issued in the future", { issuedAt: new Date(Date.now() + 10 * 60 * 1000) }, "walletProof.errors.invalid"],
  ])("refuses a message %s, and saves nothing", async (_label, options, field) => {
    const { agent } = await signedInAgent(testApp.app);
    const response = await connect(agent, await signedWalletProof(post(agent), Wallet.createRandom(), options)).expect(400);
    expect(response.body.fields).toEqual({ signature: field });
    expect(await savedWallet(agent)).toBeNull();
  });

  it("refuses a message that is not exactly a Plume sign-in message, or an unreadable signature", async () => {
    const { agent } = await signedInAgent(testApp.app);
    const wallet = Wallet.createRandom();
    const { message } = await signedWalletProof(post(agent), wallet);
    const tampered = `${message}\nResources:\n- https://evil.example`;
    expect((await connect(agent, { message: tampered, signature: await wallet.signMessage(tampered) }).expect(400)).body.fields).toEqual({ signature: "walletProof.errors.invalid" });
    const fresh = await signedWalletProof(post(agent), wallet);
    expect((await connect(agent, { ...fresh, signature: `0x${"0".repeat(130)}` }).expect(400)).body.fields).toEqual({ signature: "walletProof.errors.invalid" });
    expect(await savedWallet(agent)).toBeNull();
  });

  it("refuses a message naming another account than the nonce was asked for", async () => {
    const { agent } = await signedInAgent(testApp.app);
    const asked = Wallet.createRandom();
    const other = Wallet.createRandom();
    const { message } = await signedWalletProof(post(agent), asked);
    const swapped = message.replace(asked.address, other.address);
    const response = await connect(agent, { message: swapped, signature: await other.signMessage(swapped) }).expect(400);
    expect(response.body.fields).toEqual({ signature: "walletProof.errors.otherAccount" });
  });

  it.each([
    ["", {}],
    ["a message too long", { message: "x".repeat(2001), signature: `0x${"1".repeat(130)}` }],
    ["a short signature", { message: "x", signature: "0x1234" }],
    ["the old address-only body", { walletAddress: CHECKSUMMED }],
  ])("refuses %s with 400", async (_label, body) => {
    const { agent } = await signedInAgent(testApp.app);
    const response = await agent.post("/api/wallet/connect").send(body).expect(400);
    expect(response.body.code).toBe("validation_failed");
  });

  it("refuses an address another account holds, whatever its case, at the nonce and at the save", async () => {
    const { agent: holder } = await signedInAgent(testApp.app);
    const { agent } = await signedInAgent(testApp.app);
    const wallet = Wallet.createRandom();
    // The second account obtains its nonce before the first saves: only the save can refuse it.
    const late = await signedWalletProof(post(agent), wallet);
    await connect(holder, await signedWalletProof(post(holder), wallet)).expect(200);
    const refused = await connect(agent, late).expect(409);
    expect(refused.body).toMatchObject({ code: "wallet_taken", fields: { walletAddress: "walletProof.errors.taken" } });
    const early = await agent.post("/api/wallet/nonce").send({ walletAddress: wallet.address.toLowerCase() }).expect(409);
    expect(early.body.fields).toEqual({ walletAddress: "walletProof.errors.taken" });
    expect(await savedWallet(agent)).toBeNull();
  });

  it("lets only one of two accounts proving the same wallet at once save it", async () => {
    const pair = await Promise.all([signedInAgent(testApp.app), signedInAgent(testApp.app)]);
    const wallet = Wallet.createRandom();
    const proofs = await Promise.all(pair.map(({ agent }) => signedWalletProof(post(agent), wallet)));
    const answers = await Promise.all(pair.map(({ agent }, index) => connect(agent, proofs[index]!)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const saved = await Promise.all(pair.map(({ agent }) => savedWallet(agent)));
    expect(saved.filter((address) => address === wallet.address)).toHaveLength(1);
  });

  it("refuses a message made for another site even when the request names that site as its Host (docs/decisions/0053)", async () => {
    const forged = await createTestApp({ TRUST_PROXY: "loopback" });
    try {
      const { agent } = await signedInAgent(forged.app);
      for (const headers of [{ Host: "evil.example" }, { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "http" }]) {
        const proof = await signedWalletProof((path) => agent.post(path).set(headers), Wallet.createRandom(), { host: "evil.example" });
        const response = await agent.post("/api/wallet/connect").set(headers).send(proof).expect(400);
        expect(response.body.fields).toEqual({ signature: "walletProof.errors.otherSite" });
      }
      expect(await savedWallet(agent)).toBeNull();
    } finally {
      await forged.close();
    }
  });

  it("takes the site from the address the server listens on when PUBLIC_URL is unset (development), never from the Host", async () => {
    const development = await createTestApp({ PUBLIC_URL: "", PORT: "5123" });
    try {
      const { agent } = await signedInAgent(development.app);
      const refused = await agent.post("/api/wallet/connect").send(await signedWalletProof(post(agent), Wallet.createRandom(), { host: "127.0.0.1:5123" })).expect(400);
      expect(refused.body.fields).toEqual({ signature: "walletProof.errors.otherSite" });
      const wallet = Wallet.createRandom();
      await agent.post("/api/wallet/connect").set("Host", "evil.example").send(await signedWalletProof(post(agent), wallet, { host: "localhost:5123" })).expect(200);
      expect(await savedWallet(agent)).toBe(wallet.address);
    } finally {
      await development.close();
    }
  });

  it("takes the site from PUBLIC_URL when it is set", async () => {
    const behindProxy = await createTestApp({ PUBLIC_URL: "https://books.example/" });
    try {
      const { agent } = await signedInAgent(behindProxy.app);
      const wallet = Wallet.createRandom();
      const challenge = (await agent.post("/api/wallet/nonce").send({ walletAddress: wallet.address }).expect(200)).body;
      const fields = { address: wallet.address, statement: "Connect.", chainId: TEST_CHAIN.chainId, nonce: challenge.nonce, issuedAt: new Date().toISOString() };
      const message = buildWalletProofMessage({ ...fields, domain: "books.example", uri: "https://books.example/dashboard" });
      await agent.post("/api/wallet/connect").send({ message, signature: await wallet.signMessage(message) }).expect(200);
      expect(await savedWallet(agent)).toBe(wallet.address);
    } finally {
      await behindProxy.close();
    }
  });
});
