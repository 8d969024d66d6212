import { type HDNodeWallet, JsonRpcProvider, Transaction, Wallet, toQuantity } from "ethers";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type LocalChain, startLocalChain } from "../../server/chain/local-chain.ts";
import { freePort } from "../helpers/free-port.ts";
import { type FaultKind, RpcFaultProxy } from "./rpc-fault-proxy.ts";
import { SeededRandom } from "./seeded-random.ts";

let chain: LocalChain;
let proxy: RpcFaultProxy;
/** Straight to the node: what really happened. */
let node: JsonRpcProvider;
/** Through the proxy: what the sender is told. */
let client: JsonRpcProvider;
let sender: HDNodeWallet;

beforeAll(async () => {
  chain = await startLocalChain(await freePort());
  proxy = await RpcFaultProxy.start(chain.rpcUrl);
  node = new JsonRpcProvider(chain.rpcUrl, chain.chainId, { staticNetwork: true, cacheTimeout: -1 });
  client = new JsonRpcProvider(proxy.url, chain.chainId, { staticNetwork: true, cacheTimeout: -1, batchMaxCount: 1 });
  sender = Wallet.createRandom();
  await node.send("hardhat_setBalance", [sender.address, toQuantity(10n ** 20n)]);
}, 60_000);
afterEach(() => {
  proxy.setFaults(null);
  proxy.setFinality("node");
});
afterAll(async () => {
  client?.destroy();
  node?.destroy();
  await proxy?.close();
  await chain?.stop();
});

/** A signed transfer of nothing to oneself, with the sender's next nonce. */
async function signedTransfer(maxPriorityFeePerGas = 10n ** 9n): Promise<{ raw: string; hash: string; nonce: number }> {
  const nonce = await node.getTransactionCount(sender.address, "latest");
  const raw = await sender.signTransaction({
    type: 2,
    chainId: chain.chainId,
    nonce,
    to: sender.address,
    value: 0n,
    gasLimit: 21_000n,
    maxFeePerGas: 10n ** 11n,
    maxPriorityFeePerGas,
  });
  return { raw, hash: Transaction.from(raw).hash!, nonce };
}

const withFault = (kind: FaultKind) => proxy.setFaults({ kind, probability: 0, budget: 1, hotWalletKey: sender.privateKey, random: new SeededRandom(1) });
const send = (raw: string) => client.send("eth_sendRawTransaction", [raw]);

describe("the fault proxy", () => {
  it("passes calls through when no fault is planned", async () => {
    const transfer = await signedTransfer();
    expect(await send(transfer.raw)).toBe(transfer.hash);
    expect(await node.getTransactionReceipt(transfer.hash)).not.toBeNull();
  });

  it("dropped-tx: the sender is told its transaction was accepted, and the node never got it", async () => {
    withFault("dropped-tx");
    const transfer = await signedTransfer();
    expect(await send(transfer.raw)).toBe(transfer.hash);
    expect(await node.getTransaction(transfer.hash)).toBeNull();
    expect(proxy.injected["dropped-tx"]).toBe(1);
  });

  it("dropped-response: the transaction lands while the sender sees a failure", async () => {
    withFault("dropped-response");
    const transfer = await signedTransfer();
    await expect(send(transfer.raw)).rejects.toThrow();
    expect(await node.getTransactionReceipt(transfer.hash)).not.toBeNull();
  });

  it("nonce-too-low: the node's refusal, the transaction never sent", async () => {
    withFault("nonce-too-low");
    const transfer = await signedTransfer();
    await expect(send(transfer.raw)).rejects.toThrow(/nonce too low/);
    expect(await node.getTransaction(transfer.hash)).toBeNull();
  });

  it("replaced: another transaction of the wallet takes the nonce, the sender is told its own was accepted", async () => {
    withFault("replaced");
    const transfer = await signedTransfer();
    expect(await send(transfer.raw)).toBe(transfer.hash);
    expect(await node.getTransaction(transfer.hash)).toBeNull();
    expect(await node.getTransactionCount(sender.address, "latest")).toBe(transfer.nonce + 1);
  });

  it("timeout: the call hangs, then its connection is closed without an answer", async () => {
    withFault("timeout");
    const started = Date.now();
    await expect(client.getBlockNumber()).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
  });

  it("reorg: the last block, with the transaction in it, is taken away just before its receipt is read; the transaction comes back", async () => {
    // Seed 1 draws "the receipt is not seen" and "the transaction returns to the pool".
    withFault("reorg");
    const transfer = await signedTransfer();
    await send(transfer.raw);
    const original = (await node.getTransactionReceipt(transfer.hash))!;
    expect(original.blockNumber).toBe(await node.getBlockNumber());

    // The node had the receipt a moment ago; the sender is answered from the chain after the reorganisation.
    expect(await client.send("eth_getTransactionReceipt", [transfer.hash])).toBeNull();
    expect(proxy.injected.reorg).toBe(1);
    let again = await node.getTransactionReceipt(transfer.hash);
    for (let wait = 0; !again && wait < 40; wait += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = await node.getTransactionReceipt(transfer.hash);
    }
    // Mined again at the same height, on the parent the reorganisation went back to.
    expect(again).toMatchObject({ blockNumber: original.blockNumber });
  });

  it("underpriced: the node's refusal, the transaction never sent", async () => {
    withFault("underpriced");
    const transfer = await signedTransfer();
    await expect(send(transfer.raw)).rejects.toThrow(/transaction underpriced/);
    expect(await node.getTransaction(transfer.hash)).toBeNull();
  });

  it("tip-below-minimum: Bor's refusal naming 25 gwei, for a tip below it only", async () => {
    withFault("tip-below-minimum");
    const low = await signedTransfer();
    await expect(send(low.raw)).rejects.toThrow(/gas tip cap 1000000000, minimum needed 25000000000/);
    expect(await node.getTransaction(low.hash)).toBeNull();
    proxy.setFaults({ kind: "tip-below-minimum", probability: 1, budget: 5, random: new SeededRandom(1) });
    const enough = await signedTransfer(25n * 10n ** 9n);
    expect(await send(enough.raw)).toBe(enough.hash);
    expect(proxy.injected["tip-below-minimum"]).toBe(1);
  });

  it("answers the finalized tag as the node does, as a node without it, or some blocks behind the newest", async () => {
    await node.send("evm_mine", []);
    await node.send("evm_mine", []);
    const latest = await node.getBlockNumber();
    const finalized = () => client.send("eth_getBlockByNumber", ["finalized", false]) as Promise<{ number: string }>;
    expect(Number((await finalized()).number)).toBe(latest);
    proxy.setFinality({ behindBlocks: 2 });
    expect(Number((await finalized()).number)).toBe(latest - 2);
    proxy.setFinality("absent");
    await expect(finalized()).rejects.toThrow(/invalid argument/);
    expect(Number(await client.send("eth_blockNumber", []))).toBe(latest);
  });
});
