import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Transaction, Wallet, toQuantity } from "ethers";
import type { SeededRandom } from "./seeded-random.ts";

export const FAULT_KINDS = ["timeout", "dropped-response", "nonce-too-low", "replaced", "dropped-tx", "reorg", "underpriced", "tip-below-minimum"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** What each fault applies to: a hung node can hang any call, the others are about one transaction. */
const TARGETS: Record<FaultKind, (method: string) => boolean> = {
  timeout: () => true,
  "dropped-response": (method) => method === "eth_sendRawTransaction" || method === "eth_getTransactionReceipt",
  "nonce-too-low": (method) => method === "eth_sendRawTransaction",
  replaced: (method) => method === "eth_sendRawTransaction",
  "dropped-tx": (method) => method === "eth_sendRawTransaction",
  reorg: (method) => method === "eth_getTransactionReceipt",
  underpriced: (method) => method === "eth_sendRawTransaction",
  "tip-below-minimum": (method) => method === "eth_sendRawTransaction",
};

/** Polygon's validators refuse a tip below 25 gwei (PIP-35); Bor says so in geth's words. */
export const POLYGON_MINIMUM_TIP = 25_000_000_000n;

/**
 * What the proxy answers for the `finalized` block tag: the node's own answer (Hardhat's newest
 * block), a node without the tag (an invalid-argument error, as geth before the merge), or a
 * finalized block that many blocks behind the newest, as a chain whose finality lags.
 */
export type FinalityAnswer = "node" | "absent" | { behindBlocks: number };

export interface FaultPlan {
  kind: FaultKind;
  /** Chance that a targeted call is hit, once the first one has been (it always is, so no run goes without its fault). */
  probability: number;
  /** At most this many faults, so the worker can finish once the chain behaves again. */
  budget: number;
  /** The hot wallet's key: "replaced" takes a payout's nonce with another transaction of that wallet, as an operator could. */
  hotWalletKey?: string;
  /** Which calls are hit, and how: the run's own generator, so that a run replays alone. */
  random: SeededRandom;
}

/** Where a call is when a crash test may cut it: just received, or already carried out by the node. */
export type CallStage = "received" | "forwarded";
export type CallInterceptor = (method: string, stage: CallStage) => Promise<"continue" | "cut">;

interface JsonRpcCall {
  jsonrpc: "2.0";
  id: number | string | null;
  method: string;
  params?: unknown[];
}

interface JsonRpcAnswer {
  jsonrpc: "2.0";
  id: number | string | null;
  result?: unknown;
  error?: { code: number; message: string };
}

/** A node's refusal of a transaction for its fees: it never enters the pool. */
const refusal = (call: JsonRpcCall, message: string): Outcome => ({ answer: { jsonrpc: "2.0", id: call.id, error: { code: -32000, message } } });

/** The connection is closed without an answer. */
const CUT = "cut" as const;
type Outcome = typeof CUT | { answer: JsonRpcAnswer; afterAnswer?: () => Promise<void> };

/** How long a "timeout" holds a call before closing its connection. */
const HANG_MS = 2_000;
/**
 * A block a payout just made stays the last one this long: its sender reads the receipt within
 * that time, and a reorganisation can still take it away then.
 */
const FRESH_BLOCK_MS = 1_000;

/**
 * A JSON-RPC proxy in front of the Hardhat node that the server's RPC_URL points to. It passes
 * calls through, or (seeded) breaks them as real nodes and networks do: a hung call, an answer lost
 * after the node acted, "nonce too low", a transaction swallowed or replaced by another with its
 * nonce, a reorganisation that takes the last block (and the payout mined in it) away, and a
 * transaction refused for its fees (plainly, or with Polygon's minimum tip named). It also answers
 * the `finalized` tag as a node without it would, or as a chain whose finality lags.
 */
export class RpcFaultProxy {
  readonly injected = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;
  /** Lets a crash test kill the server at one exact call. */
  interceptor: CallInterceptor | null = null;
  private plan: (FaultPlan & { injected: number }) | null = null;
  /** For each block mined by a payout, the snapshot taken just before it: a reorg reverts to it. */
  private readonly snapshotBefore = new Map<number, string>();
  private readonly rawByHash = new Map<string, string>();
  /** Calls that change the chain (sends, snapshots, reverts, mining) run one at a time. */
  private chainQueue: Promise<unknown> = Promise.resolve();
  private payoutBlockAt = 0;
  private nextId = 1;
  private finality: FinalityAnswer = "node";

  private constructor(
    private readonly server: Server,
    private readonly upstreamUrl: string,
    readonly url: string,
  ) {}

  static async start(upstreamUrl: string): Promise<RpcFaultProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const proxy = new RpcFaultProxy(server, upstreamUrl, `http://127.0.0.1:${port}`);
    server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      proxy.serve(req).then(
        (reply) => {
          if (reply === CUT) return req.socket.destroy();
          res.setHeader("content-type", "application/json");
          // The fault that follows a reply runs after it is sent; nothing waits for it, its failure is only logged.
          res.end(reply.body, () => void reply.after().catch((error) => console.error(`[rpc proxy] ${(error as Error).message}`)));
        },
        (error) => {
          res.statusCode = 502;
          res.end(JSON.stringify({ message: (error as Error).message }));
        },
      );
    });
    return proxy;
  }

  /** Faults to inject from now on (null: a faithful proxy). */
  setFaults(plan: FaultPlan | null): void {
    this.plan = plan ? { ...plan, injected: 0 } : null;
    this.snapshotBefore.clear();
    this.rawByHash.clear();
  }

  setFinality(answer: FinalityAnswer): void {
    this.finality = answer;
  }

  /** Mines an empty block, as a live chain keeps doing, never in the middle of a reorganisation nor over a fresh payout block. */
  mineBlock(): Promise<void> {
    return this.onChain(async () => {
      if (Date.now() - this.payoutBlockAt < FRESH_BLOCK_MS) return;
      await this.upstream("evm_mine", []);
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async serve(req: IncomingMessage): Promise<typeof CUT | { body: string; after: () => Promise<void> }> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8")) as JsonRpcCall | JsonRpcCall[];
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    const answers: JsonRpcAnswer[] = [];
    const afterAnswer: Array<() => Promise<void>> = [];
    for (const call of calls) {
      const outcome = await this.handle(call);
      if (outcome === CUT) return CUT;
      answers.push(outcome.answer);
      if (outcome.afterAnswer) afterAnswer.push(outcome.afterAnswer);
    }
    return {
      body: JSON.stringify(Array.isArray(parsed) ? answers : answers[0]),
      after: async () => {
        for (const step of afterAnswer) await step();
      },
    };
  }

  private async handle(call: JsonRpcCall): Promise<Outcome> {
    if ((await this.interceptor?.(call.method, "received")) === CUT) return CUT;
    const faulted = await this.inject(call);
    if (faulted) return faulted;
    const answer = await this.forwardFinality(call);
    if ((await this.interceptor?.(call.method, "forwarded")) === CUT) return CUT;
    return { answer };
  }

  /** The fault for this call, if one is drawn and applies; it is counted only when it happened. */
  private async inject(call: JsonRpcCall): Promise<Outcome | null> {
    const plan = this.plan;
    if (!plan || plan.injected >= plan.budget || !TARGETS[plan.kind](call.method)) return null;
    if (plan.injected > 0 && !plan.random.chance(plan.probability)) return null;
    const outcome = await this.faultOf(plan, call);
    if (outcome) {
      plan.injected += 1;
      this.injected[plan.kind] += 1;
    }
    return outcome;
  }

  private async faultOf(plan: FaultPlan, call: JsonRpcCall): Promise<Outcome | null> {
    const raw = String(call.params?.[0] ?? "");
    switch (plan.kind) {
      case "timeout":
        await new Promise((resolve) => setTimeout(resolve, HANG_MS));
        return CUT;
      case "dropped-response":
        await this.forward(call);
        return CUT;
      case "nonce-too-low":
        return { answer: { jsonrpc: "2.0", id: call.id, error: { code: -32000, message: "nonce too low" } } };
      case "dropped-tx":
        return { answer: { jsonrpc: "2.0", id: call.id, result: Transaction.from(raw).hash } };
      case "replaced":
        return this.replace(call, raw, plan.hotWalletKey);
      case "reorg":
        return this.reorg(call, plan.random);
      case "underpriced":
        return refusal(call, "transaction underpriced");
      case "tip-below-minimum": {
        // Only a transaction that really offers less: once the sender has learnt the minimum, it passes.
        const tip = Transaction.from(raw).maxPriorityFeePerGas ?? 0n;
        if (tip >= POLYGON_MINIMUM_TIP) return null;
        return refusal(call, `transaction underpriced: gas tip cap ${tip}, minimum needed ${POLYGON_MINIMUM_TIP}`);
      }
    }
  }

  /** The `finalized` tag answered as planned; every other call goes to the node. */
  private async forwardFinality(call: JsonRpcCall): Promise<JsonRpcAnswer> {
    if (call.method !== "eth_getBlockByNumber" || call.params?.[0] !== "finalized" || this.finality === "node") return this.forward(call);
    if (this.finality === "absent") return { jsonrpc: "2.0", id: call.id, error: { code: -32602, message: "invalid argument 0: hex string without 0x prefix" } };
    const latest = Number(await this.upstream("eth_blockNumber", []));
    const finalized = Math.max(0, latest - this.finality.behindBlocks);
    return this.upstreamAnswer({ ...call, params: [toQuantity(finalized), ...(call.params?.slice(1) ?? [])] });
  }

  /**
   * The payout never reaches the node: another transaction of the hot wallet (a 0-value transfer
   * to itself, at a higher fee) takes its nonce, and the sender is told its own was accepted.
   */
  private async replace(call: JsonRpcCall, raw: string, hotWalletKey: string | undefined): Promise<Outcome | null> {
    if (!hotWalletKey) throw new Error("The replaced-transaction fault needs the hot wallet's key");
    const payout = Transaction.from(raw);
    const operator = new Wallet(hotWalletKey);
    if (payout.from !== operator.address) return null;
    return this.onChain(async () => {
      const used = Number(await this.upstream("eth_getTransactionCount", [operator.address, "latest"]));
      if (payout.nonce < used) return null;
      const replacement = await operator.signTransaction({
        type: 2,
        chainId: payout.chainId,
        nonce: payout.nonce,
        to: operator.address,
        value: 0n,
        gasLimit: 21_000n,
        maxFeePerGas: (payout.maxFeePerGas ?? 0n) * 2n,
        maxPriorityFeePerGas: (payout.maxPriorityFeePerGas ?? 0n) * 2n,
      });
      await this.upstream("eth_sendRawTransaction", [replacement]);
      return { answer: { jsonrpc: "2.0", id: call.id, result: payout.hash } };
    });
  }

  /**
   * The block that mined this payout is the chain's last, and it is taken away (evm_revert to the
   * snapshot before it). The sender gets either the receipt it was about to see (the transfer
   * then vanishes) or none (the reorg came first); the transaction either returns to the pool and
   * is mined again, as other nodes would re-send it, or is lost and must be sent again.
   */
  private reorg(call: JsonRpcCall, random: SeededRandom): Promise<Outcome | null> {
    return this.onChain(async () => {
      const receipt = (await this.upstream(call.method, call.params ?? [])) as { blockNumber: string; transactionHash: string } | null;
      if (!receipt) return null;
      const block = Number(receipt.blockNumber);
      const snapshot = this.snapshotBefore.get(block);
      const raw = this.rawByHash.get(receipt.transactionHash);
      if (!snapshot || !raw || block !== Number(await this.upstream("eth_blockNumber", []))) return null;
      if (!(await this.upstream("evm_revert", [snapshot]))) return null;
      // A revert also drops every later snapshot.
      for (const taken of this.snapshotBefore.keys()) if (taken >= block) this.snapshotBefore.delete(taken);
      const receiptSeen = random.chance(0.5);
      const returnsToPool = random.chance(0.5);
      return {
        answer: { jsonrpc: "2.0", id: call.id, result: receiptSeen ? receipt : null },
        afterAnswer: returnsToPool
          ? async () => {
              await this.onChain(() => this.sendRecorded(raw));
            }
          : undefined,
      };
    });
  }

  private async forward(call: JsonRpcCall): Promise<JsonRpcAnswer> {
    if (call.method !== "eth_sendRawTransaction") return this.upstreamAnswer(call);
    // While reorgs are planned, every block a payout makes can be taken back.
    return this.onChain(async () => {
      if (this.plan?.kind !== "reorg") return this.upstreamAnswer(call);
      return this.sendRecorded(String(call.params?.[0]), call);
    });
  }

  /** Sends a transaction with a snapshot of the chain just before the block it makes. */
  private async sendRecorded(raw: string, call?: JsonRpcCall): Promise<JsonRpcAnswer> {
    const before = Number(await this.upstream("eth_blockNumber", []));
    const snapshot = String(await this.upstream("evm_snapshot", []));
    const answer = await this.upstreamAnswer(call ?? { jsonrpc: "2.0", id: 0, method: "eth_sendRawTransaction", params: [raw] });
    const after = Number(await this.upstream("eth_blockNumber", []));
    if (!answer.error && after === before + 1) {
      this.snapshotBefore.set(after, snapshot);
      this.rawByHash.set(Transaction.from(raw).hash!, raw);
      this.payoutBlockAt = Date.now();
    }
    return answer;
  }

  private onChain<T>(work: () => Promise<T>): Promise<T> {
    const result = this.chainQueue.then(work);
    this.chainQueue = result.catch(() => {});
    return result;
  }

  private async upstreamAnswer(call: JsonRpcCall): Promise<JsonRpcAnswer> {
    const response = await fetch(this.upstreamUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: call.id, method: call.method, params: call.params ?? [] }),
    });
    return (await response.json()) as JsonRpcAnswer;
  }

  private async upstream(method: string, params: unknown[]): Promise<unknown> {
    const answer = await this.upstreamAnswer({ jsonrpc: "2.0", id: this.nextId++, method, params });
    if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result;
  }
}
