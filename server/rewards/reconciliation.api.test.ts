import { once } from "node:events";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Contract, JsonRpcProvider, Wallet, toQuantity } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pmeArtifact } from "../chain/pme-artifact.ts";
import { localChainSettings } from "../chain/chain-connection.ts";
import { type LocalChain, startLocalChain } from "../chain/local-chain.ts";
import { freePort } from "../../test/helpers/free-port.ts";
import { type TestApp, createTestApp } from "../../test/helpers/test-app.ts";
import { PmeChain } from "../chain/pme-chain.ts";
import { reconcile } from "./reconciliation-service.ts";

/*
 * The reconciliation on a long chain behind an endpoint that refuses wide log ranges, as public
 * Polygon endpoints do (docs/decisions/0024).
 */

interface RpcCall {
  id: unknown;
  method: string;
  params?: unknown[];
}

const MOST_BLOCKS_PER_CALL = 1000;

/**
 * A JSON-RPC endpoint in front of the chain that refuses eth_getLogs over more than 1000 blocks, and
 * notes each one asked; its finalized block lags `finalizedLag` blocks behind, as Polygon's does, and
 * it answers for the state of the last `keepsStateOfLast` blocks only, as a node that is not an archive.
 */
async function rangeLimitedEndpoint(upstream: string) {
  const logRanges: Array<[number, number]> = [];
  const state = { finalizedLag: 0, keepsStateOfLast: Infinity };
  const latestBlock = async () => Number(((await forward({ jsonrpc: "2.0", id: 0, method: "eth_blockNumber" })) as { result: string }).result);
  const answer = async (call: RpcCall) => {
    if (call.method === "eth_getLogs") {
      const { fromBlock = "0x0", toBlock = "latest" } = (call.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string };
      const latest = await latestBlock();
      const [from, to] = [Number(fromBlock), toBlock === "latest" ? latest : Number(toBlock)];
      logRanges.push([from, to]);
      if (to - from + 1 > MOST_BLOCKS_PER_CALL) return { jsonrpc: "2.0", id: call.id, error: { code: -32005, message: "block range is too wide" } };
    }
    if (call.method === "eth_getCode" && Number(call.params?.[1]) < (await latestBlock()) - state.keepsStateOfLast) {
      return { jsonrpc: "2.0", id: call.id, error: { code: -32000, message: "missing trie node" } };
    }
    if (call.method === "eth_getBlockByNumber" && call.params?.[0] === "finalized") {
      return forward({ ...call, params: [toQuantity((await latestBlock()) - state.finalizedLag), ...call.params.slice(1)] });
    }
    return forward(call);
  };
  const forward = async (body: unknown) => (await fetch(upstream, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })).json();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const reply = async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as RpcCall | RpcCall[];
        return Array.isArray(body) ? Promise.all(body.map(answer)) : answer(body);
      };
      // An event handler's promise is awaited by no one: a call that cannot be forwarded gets a 502, not an unhandled rejection.
      reply().then(
        (result) => {
          res.setHeader("Content-Type", "application/json");
          res.end(JSON.stringify(result));
        },
        (error: unknown) => res.writeHead(502).end((error as Error).message),
      );
    });
  }).listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, logRanges, state, close: () => new Promise((resolve) => server.close(resolve)) };
}

let chain: LocalChain;
let testApp: TestApp;
let endpoint: Awaited<ReturnType<typeof rangeLimitedEndpoint>>;
let rpc: JsonRpcProvider;
beforeAll(async () => {
  [chain, testApp] = await Promise.all([freePort().then(startLocalChain), createTestApp()]);
  endpoint = await rangeLimitedEndpoint(chain.rpcUrl);
  rpc = new JsonRpcProvider(chain.rpcUrl, undefined, { cacheTimeout: -1 });
}, 120_000);
afterAll(async () => {
  rpc?.destroy();
  await endpoint?.close();
  await testApp?.close();
  await chain?.stop();
});

const settingsFor = (rpcUrl: string) => localChainSettings(chain, { rpcUrl });

async function sendByHand(amount: bigint) {
  const hot = new Wallet(chain.payoutPrivateKey, rpc);
  const token = new Contract(chain.tokenAddress, pmeArtifact.abi, hot);
  const sent = await token.getFunction("transfer")(Wallet.createRandom().address, amount);
  await sent.wait();
  return sent.hash as string;
}

describe("the reconciliation on a long chain", () => {
  it("knows the local chain's deployment block, finds another's by halving the chain, or takes PME_DEPLOY_BLOCK", async () => {
    for (let block = 0; block < 40; block += 1) await rpc.send("evm_mine", []);
    const found = new PmeChain({ ...settingsFor(chain.rpcUrl), deployBlock: undefined });
    const set = new PmeChain({ ...settingsFor(chain.rpcUrl), deployBlock: 7 });
    try {
      const deployment = await rpc.getTransactionReceipt((await rpc.getBlock(1, true))!.transactions[0]!);
      expect(deployment?.contractAddress).toBe(chain.tokenAddress);
      expect(settingsFor(chain.rpcUrl).deployBlock).toBe(1);
      expect(await found.deploymentBlock()).toBe(1);
      expect(await set.deploymentBlock()).toBe(7);
    } finally {
      found.destroy();
      set.destroy();
    }
  });

  it("reads the logs in bounded ranges from the token's deployment, then only the blocks after its cursor", async () => {
    const early = await sendByHand(2n * 10n ** 18n);
    // Hardhat's instant mining of 12,000 blocks leaves them without state to halve on: the deployment
    // block is given, as an operator gives PME_DEPLOY_BLOCK.
    await rpc.send("hardhat_mine", [toQuantity(12_000)]);
    const late = await sendByHand(3n * 10n ** 18n);
    const pmeChain = new PmeChain({ ...settingsFor(endpoint.url), deployBlock: 1 });
    try {
      const first = await reconcile(testApp.database.db, pmeChain, { blockRange: MOST_BLOCKS_PER_CALL });
      expect(first).toMatchObject({ available: true, sentOnChain: "5.0" });
      if (!first.available) throw new Error("unreachable");
      expect(first.transfersWithoutPayment.map((transfer) => transfer.transactionHash).sort()).toEqual([early, late].sort());
      expect(endpoint.logRanges.every(([from, to]) => to - from + 1 <= MOST_BLOCKS_PER_CALL)).toBe(true);
      expect(Math.min(...endpoint.logRanges.map(([from]) => from))).toBe(1);
      endpoint.logRanges.length = 0;
      const again = await reconcile(testApp.database.db, pmeChain, { blockRange: MOST_BLOCKS_PER_CALL });
      expect(again).toMatchObject({ available: true, sentOnChain: "5.0" });
      // The second run starts where the first stopped: Hardhat names its newest block finalized, so every
      // block is behind the cursor and none is read again (the next test has a node whose finality lags).
      expect(endpoint.logRanges).toEqual([]);
    } finally {
      pmeChain.destroy();
    }
  }, 120_000);

  it("keeps no block the node has not finalized behind the cursor, and still counts its transfers", async () => {
    await rpc.send("hardhat_mine", [toQuantity(20)]);
    const recent = await sendByHand(1n * 10n ** 18n);
    const pmeChain = new PmeChain({ ...settingsFor(endpoint.url), deployBlock: 1 });
    endpoint.state.finalizedLag = 10;
    try {
      const first = await reconcile(testApp.database.db, pmeChain, { blockRange: MOST_BLOCKS_PER_CALL });
      expect(first).toMatchObject({ available: true, sentOnChain: "6.0" });
      if (!first.available) throw new Error("unreachable");
      expect(first.transfersWithoutPayment.map((transfer) => transfer.transactionHash)).toContain(recent);

      endpoint.logRanges.length = 0;
      const latest = await rpc.getBlockNumber();
      expect(await reconcile(testApp.database.db, pmeChain, { blockRange: MOST_BLOCKS_PER_CALL })).toMatchObject({ available: true, sentOnChain: "6.0" });
      // Ten blocks behind the newest are not final yet: with one confirmation asked, they are read afresh all the same.
      expect(endpoint.logRanges).toEqual([[latest - 9, latest]]);
    } finally {
      endpoint.state.finalizedLag = 0;
      pmeChain.destroy();
    }
  }, 120_000);

  it("says to set PME_DEPLOY_BLOCK when the node cannot answer for the blocks the halving asks about", async () => {
    // Another hot wallet: no cursor yet, so its deployment block is looked for.
    const pmeChain = new PmeChain({ ...settingsFor(endpoint.url), deployBlock: undefined, payoutPrivateKey: Wallet.createRandom().privateKey });
    endpoint.state.keepsStateOfLast = 128;
    try {
      expect(await reconcile(testApp.database.db, pmeChain, { blockRange: MOST_BLOCKS_PER_CALL })).toEqual({
        available: false,
        reason: expect.stringMatching(/deployment block could not be found.*set PME_DEPLOY_BLOCK.*missing trie node/),
      });
    } finally {
      endpoint.state.keepsStateOfLast = Infinity;
      pmeChain.destroy();
    }
  });
});
