import { eq } from "drizzle-orm";
import { type Block, Contract, JsonRpcProvider, MaxUint256, Transaction, Wallet, formatUnits, toQuantity } from "ethers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ChainSettings, DEFAULT_PAYOUT_POLICY, DEFAULT_RECONCILIATION_BLOCK_RANGE, type PayoutPolicy } from "../config.ts";
import { pmeArtifact } from "../chain/pme-artifact.ts";
import { localChainSettings } from "../chain/chain-connection.ts";
import { type LocalChain, startLocalChain } from "../chain/local-chain.ts";
import { payments, payoutLeases, payoutTransactions, users } from "../db/schema.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { freePort } from "../../test/helpers/free-port.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { connectProvenWallet } from "../../test/helpers/wallet-proof.ts";
import { PayoutWorker } from "./payout-worker.ts";
import { mailPaymentNotices } from "./payment-notices-service.ts";
import { type Mailer, createMailer } from "../mail/mailer.ts";
import { type SmtpInbox, startSmtpInbox } from "../../test/helpers/smtp-inbox.ts";
import { hasPayoutWork, storeSignedBatch } from "./payments-repository.ts";
import { PmeChain } from "../chain/pme-chain.ts";
import { reconcile } from "./reconciliation-service.ts";
import { readPayoutHealth } from "./payout-health-repository.ts";

let chain: LocalChain;
let settings: ChainSettings;
let testApp: TestApp;
let rpc: JsonRpcProvider;
let token: Contract;
let readers: Array<Awaited<ReturnType<typeof signedInAgent>>>;

beforeAll(async () => {
  chain = await startLocalChain(await freePort());
  settings = localChainSettings(chain);
  rpc = new JsonRpcProvider(chain.rpcUrl, undefined, { cacheTimeout: -1 });
  token = new Contract(chain.tokenAddress, pmeArtifact.abi, rpc);
  testApp = await createTestApp({ TRUST_PROXY: "loopback" });
  readers = await Promise.all(Array.from({ length: 20 }, () => signedInAgent(testApp.app)));
}, 120_000);
afterAll(async () => {
  rpc?.destroy();
  await testApp?.close();
  await chain?.stop();
});

const balanceOf = async (address: string) => formatUnits((await token.getFunction("balanceOf")(address)) as bigint, 18);
const paymentRows = (authorId: string) => testApp.database.db.select().from(payments).where(eq(payments.authorId, authorId));
/** The payout transaction that pays a payment (its batch's), as stored. */
async function transactionOf(payment: { payoutTransactionId: number | null }) {
  const [row] = await testApp.database.db.select().from(payoutTransactions).where(eq(payoutTransactions.id, payment.payoutTransactionId!));
  return row!;
}

/** An author (with a fresh wallet unless told otherwise) whose book (or each of whose books) has just reached milestone 1. */
async function authorOwedOneMilestone({ withWallet = true, books = 1, title = "Mañana en París", language = "en" } = {}) {
  const author = await signedInAgent(testApp.app);
  await author.agent.put("/api/auth/language").send({ language }).expect(204);
  const wallet = withWallet ? await connectProvenWallet(author.agent) : Wallet.createRandom().address;
  for (let book = 0; book < books; book += 1) {
    const bookId = (await sendBookForm(author.agent.post("/api/books"), { title, coverImage: null }).expect(201)).body.id;
    await Promise.all(
      readers.map((reader, index) =>
        reader.agent.post(`/api/books/${bookId}/download`).set("X-Forwarded-For", `203.0.113.${index + 1}`).expect(200),
      ),
    );
  }
  return { author, wallet };
}

/** A chain whose given calls fail once, as a dropped connection or a crash at that point would. */
class FaultyChain extends PmeChain {
  constructor(private readonly failing: Set<"broadcast" | "receipt">) {
    super(settings);
  }
  override async broadcast(raw: string) {
    if (this.failing.has("broadcast")) throw new Error("connection lost before broadcast");
    return super.broadcast(raw);
  }
  override async receipt(hash: string) {
    if (this.failing.has("receipt")) throw new Error("connection lost after broadcast");
    return super.receipt(hash);
  }
}

/** Well above what a fresh Hardhat node asks (a base fee under 1 gwei). */
const LOCAL_FEES = { maxFeePerGas: 10n * 10n ** 9n, maxPriorityFeePerGas: 2n * 10n ** 9n };

/** A node that does not answer the `finalized` tag (Hardhat does, with its newest block): payouts settle by depth. */
class DepthOnlyChain extends PmeChain {
  protected override finalizedBlock() {
    return Promise.resolve(null);
  }
}

/**
 * A chain whose last block is reorganised away just before the worker's first receipt lookup, after
 * it read the nonces; the transfer that block held comes back into the pool and is mined again.
 */
class ReorganisingChain extends DepthOnlyChain {
  private reorganised = false;
  constructor(
    chainSettings: ChainSettings,
    private readonly snapshotBeforeBlock: string,
    private readonly returningTransaction: string,
  ) {
    super(chainSettings);
  }
  override async receipt(hash: string) {
    if (this.reorganised) return super.receipt(hash);
    this.reorganised = true;
    await rpc.send("evm_revert", [this.snapshotBeforeBlock]);
    const receipt = await super.receipt(hash);
    await rpc.send("eth_sendRawTransaction", [this.returningTransaction]);
    return receipt;
  }
}

/** A chain that counts the JSON-RPC calls made to its node, each call of a batch once. */
class CountingChain extends PmeChain {
  calls = 0;
  constructor() {
    super(settings);
    const send = this.provider._send.bind(this.provider);
    this.provider._send = (payload) => {
      this.calls += Array.isArray(payload) ? payload.length : 1;
      return send(payload);
    };
  }
}

/** A chain whose first identity lookup (the start of a worker's first round) waits until released. */
class HeldChain extends PmeChain {
  private arrive = () => {};
  private unhold = () => {};
  readonly reached = new Promise<void>((resolve) => (this.arrive = resolve));
  private readonly held = new Promise<void>((resolve) => (this.unhold = resolve));
  constructor() {
    super(settings);
  }
  release(): void {
    this.unhold();
  }
  override async identity() {
    this.arrive();
    await this.held;
    return super.identity();
  }
}

/** A node whose finalized block trails its newest by `behind` blocks, 2 s each. */
class LaggingChain extends PmeChain {
  constructor(
    chainSettings: ChainSettings,
    private readonly behind: number,
  ) {
    super(chainSettings);
  }
  protected override async finalizedBlock() {
    const latest = await rpc.getBlock("latest");
    const block = await rpc.getBlock(Math.max(0, latest!.number - this.behind));
    // Hardhat mines a block per transaction, a second or less apart: the lag in time is stated as Polygon's 2 s blocks.
    return Object.assign(Object.create(Object.getPrototypeOf(block) as object) as Block, block, { timestamp: latest!.timestamp - 2 * this.behind });
  }
}

/** A chain whose hot wallet is said to hold far more PME than it does: the worker's own check passes, the chain's does not. */
class OverstatedBalanceChain extends PmeChain {
  override tokenBalance() {
    return Promise.resolve(MaxUint256);
  }
}

/** A node that refuses tips below a floor as Polygon's Bor does (PIP-35), naming the minimum. */
class TipFloorChain extends PmeChain {
  refused = 0;
  constructor(
    chainSettings: ChainSettings,
    private readonly minimumTip: bigint,
  ) {
    super(chainSettings);
  }
  override async broadcast(raw: string) {
    const tip = Transaction.from(raw).maxPriorityFeePerGas ?? 0n;
    if (tip >= this.minimumTip) return super.broadcast(raw);
    this.refused += 1;
    return { accepted: false as const, underpriced: `transaction underpriced: gas tip cap ${tip}, minimum needed ${this.minimumTip}` };
  }
}

const worker = (pmeChain = new PmeChain(settings), options = {}) => new PayoutWorker(testApp.database.db, pmeChain, options);

/** One round of a worker process that then stops (releasing its sender lease), as a restarted server would. */
async function runProcessOnce(pmeChain?: PmeChain) {
  const process = worker(pmeChain);
  try {
    await process.tick();
  } finally {
    await process.stop();
  }
}

describe("payout worker on a real local chain", () => {
  it("pays a reached milestone: 1 PME on chain, completed with its hash, earnings updated", async () => {
    const { author, wallet } = await authorOwedOneMilestone();
    await runProcessOnce();
    const [payment] = await paymentRows(author.user.id);
    expect(payment).toMatchObject({ status: "completed", walletAddress: wallet, transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(await balanceOf(wallet)).toBe("1.0");
    const receipt = await rpc.getTransactionReceipt(payment!.transactionHash!);
    expect(receipt?.status).toBe(1);
    const [user] = await testApp.database.db.select().from(users).where(eq(users.id, author.user.id));
    expect(user!.totalEarnings).toBe("1.00");
    const listed = await author.agent.get(`/api/authors/${author.user.id}/payments`).expect(200);
    expect(listed.body[0]).toMatchObject({ status: "completed", transactionHash: payment!.transactionHash });
  });

  it("completes an author's payments of one round together, each counted once in the earnings", async () => {
    const { author, wallet } = await authorOwedOneMilestone({ books: 2 });
    await runProcessOnce();
    expect((await paymentRows(author.user.id)).map((payment) => payment.status)).toEqual(["completed", "completed"]);
    expect(await balanceOf(wallet)).toBe("2.0");
    const [user] = await testApp.database.db.select().from(users).where(eq(users.id, author.user.id));
    expect(user!.totalEarnings).toBe("2.00");
  });

  it("sends a backlog batch after batch, each round right after a full one rather than an interval later", async () => {
    const owed = [await authorOwedOneMilestone(), await authorOwedOneMilestone(), await authorOwedOneMilestone()];
    const busy = worker(new PmeChain(settings), { batchSize: 2, intervalMs: 60_000 });
    busy.start();
    try {
      await vi.waitFor(
        async () => {
          for (const { author } of owed) expect((await paymentRows(author.user.id))[0]!.status).toBe("completed");
        },
        { timeout: 20_000, interval: 100 },
      );
    } finally {
      await busy.stop();
    }
  });

  it("stores a signed batch with all its payments or not at all", async () => {
    const [first, second] = [await authorOwedOneMilestone(), await authorOwedOneMilestone()];
    const [[firstPayment], [secondPayment]] = [await paymentRows(first.author.user.id), await paymentRows(second.author.user.id)];
    const pmeChain = new PmeChain(settings);
    try {
      const identity = await pmeChain.identity();
      const nonce = await pmeChain.pendingNonce();
      const signed = await pmeChain.batches.signBatch([first, second].map(({ wallet }) => ({ to: wallet, amount: 10n ** 18n })), nonce, LOCAL_FEES);
      const batch = { nonce, raw: signed.raw, hash: signed.hash, payments: [first, second].map(({ wallet }, index) => ({ paymentId: [firstPayment, secondPayment][index]!.id, wallet })) };
      const transactionsBefore = (await testApp.database.db.select().from(payoutTransactions)).length;
      // The second payment is no longer queued (another sender took it): the first must not be stored alone.
      await testApp.database.db.update(payments).set({ payoutStage: "broadcast" }).where(eq(payments.id, secondPayment!.id));
      expect(await storeSignedBatch(testApp.database.db, batch, identity)).toBeNull();
      expect((await paymentRows(first.author.user.id))[0]).toMatchObject({ payoutStage: "queued", nonce: null, payoutTransactionId: null });
      expect(await testApp.database.db.select().from(payoutTransactions)).toHaveLength(transactionsBefore);

      await testApp.database.db.update(payments).set({ payoutStage: "queued" }).where(eq(payments.id, secondPayment!.id));
      const transactionId = await storeSignedBatch(testApp.database.db, batch, identity);
      expect(transactionId).toEqual(expect.any(Number));
      const stored = await Promise.all([first, second].map(async ({ author }) => (await paymentRows(author.user.id))[0]!));
      expect(stored.map((payment) => [payment.payoutStage, payment.nonce, payment.payoutTransactionId])).toEqual([
        ["signed", nonce, transactionId],
        ["signed", nonce, transactionId],
      ]);
      expect(await transactionOf(stored[0]!)).toMatchObject({ nonce, signedTransaction: signed.raw, transactionHashes: [signed.hash], broadcastAt: null });
    } finally {
      pmeChain.destroy();
    }
    await runProcessOnce();
    for (const { author, wallet } of [first, second]) {
      expect((await paymentRows(author.user.id))[0]!.status).toBe("completed");
      expect(await balanceOf(wallet)).toBe("1.0");
    }
  });

  it("pays a payment already signed to the wallet it was signed for, and a queued one to the wallet connected since", async () => {
    const { author, wallet: before } = await authorOwedOneMilestone({ books: 2 });
    const [signedPayment, queuedPayment] = (await paymentRows(author.user.id)).sort((a, b) => a.id - b.id);
    const pmeChain = new PmeChain(settings);
    try {
      const [identity, nonce] = await Promise.all([pmeChain.identity(), pmeChain.pendingNonce()]);
      const signed = await pmeChain.batches.signBatch([{ to: before, amount: 10n ** 18n }], nonce, LOCAL_FEES);
      const batch = { nonce, raw: signed.raw, hash: signed.hash, payments: [{ paymentId: signedPayment!.id, wallet: before }] };
      expect(await storeSignedBatch(testApp.database.db, batch, identity)).toEqual(expect.any(Number));
    } finally {
      pmeChain.destroy();
    }
    const after = await connectProvenWallet(author.agent);
    await runProcessOnce();
    const paid = new Map((await paymentRows(author.user.id)).map((payment) => [payment.id, payment]));
    expect(paid.get(signedPayment!.id)).toMatchObject({ status: "completed", walletAddress: before });
    expect(paid.get(queuedPayment!.id)).toMatchObject({ status: "completed", walletAddress: after });
    expect([await balanceOf(before), await balanceOf(after)]).toEqual(["1.0", "1.0"]);
  });

  it("starts no round once stopped, even when a round was running as it stopped", async () => {
    const heldChain = new HeldChain();
    const stopped = worker(heldChain, { intervalMs: 20 });
    stopped.start();
    await heldChain.reached;
    const stopping = stopped.stop();
    heldChain.release();
    await stopping;
    const { author } = await authorOwedOneMilestone();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await paymentRows(author.user.id))[0]).toMatchObject({ status: "pending", payoutStage: "queued" });
    await runProcessOnce();
    expect((await paymentRows(author.user.id))[0]!.status).toBe("completed");
  });

  it("keeps a payment waiting while its author has no wallet, and pays it once one is connected", async () => {
    const { author } = await authorOwedOneMilestone({ withWallet: false });
    await runProcessOnce();
    expect((await paymentRows(author.user.id))[0]).toMatchObject({ status: "pending", payoutStage: "queued", nonce: null });
    const wallet = await connectProvenWallet(author.agent);
    await runProcessOnce();
    expect((await paymentRows(author.user.id))[0]!.status).toBe("completed");
    expect(await balanceOf(wallet)).toBe("1.0");
  });

  it("killed between signing and broadcasting: the restarted worker sends the stored transaction, paying once", async () => {
    const { author, wallet } = await authorOwedOneMilestone();
    await expect(runProcessOnce(new FaultyChain(new Set(["broadcast"])))).rejects.toThrow(/before broadcast/);
    const [signed] = await paymentRows(author.user.id);
    expect(signed).toMatchObject({ status: "pending", payoutStage: "signed" });
    const stored = await transactionOf(signed!);
    expect(stored.transactionHashes).toEqual([expect.any(String)]);
    await runProcessOnce();
    const [paid] = await paymentRows(author.user.id);
    expect(paid).toMatchObject({ status: "completed", transactionHash: stored.transactionHashes[0], payoutTransactionId: stored.id });
    expect((await transactionOf(paid!)).transactionHashes).toEqual(stored.transactionHashes);
    expect(await balanceOf(wallet)).toBe("1.0");
  });

  it("killed between broadcasting and confirming: the restarted worker finds the receipt, paying once", async () => {
    const { author, wallet } = await authorOwedOneMilestone();
    await expect(runProcessOnce(new FaultyChain(new Set(["receipt"])))).rejects.toThrow(/after broadcast/);
    expect((await paymentRows(author.user.id))[0]).toMatchObject({ status: "pending", payoutStage: "broadcast" });
    await runProcessOnce();
    await runProcessOnce();
    const [paid] = await paymentRows(author.user.id);
    expect(paid!.status).toBe("completed");
    expect((await transactionOf(paid!)).transactionHashes).toHaveLength(1);
    expect(await balanceOf(wallet)).toBe("1.0");
  });

  it("lets only one of two server processes send for the hot wallet", async () => {
    // Leases that outlast the test's own setup on a busy machine: what runs out is sender-lease.api.test.ts's subject.
    const first = worker(undefined, { leaseTtlMs: 120_000 });
    const second = worker(undefined, { leaseTtlMs: 120_000 });
    try {
      await first.tick();
      const { author } = await authorOwedOneMilestone();
      await second.tick();
      expect((await paymentRows(author.user.id))[0]!.payoutStage).toBe("queued");
      await first.tick();
      expect((await paymentRows(author.user.id))[0]!.status).toBe("completed");
    } finally {
      // Stopping releases the lease, which the next tests' workers need.
      await first.stop();
      await second.stop();
    }
  });

  it("calls the chain in no round with nothing due or in flight, keeps its lease, and still sends a payment owed since at the next round", async () => {
    const counting = new CountingChain();
    let clock = new Date();
    const idle = worker(counting, { now: () => clock });
    const standby = worker(new CountingChain(), { now: () => clock });
    const lease = async () => (await testApp.database.db.select().from(payoutLeases).where(eq(payoutLeases.wallet, counting.hotWallet.address)))[0]!;
    try {
      await idle.tick();
      await standby.tick();
      expect(await hasPayoutWork(testApp.database.db, clock)).toBe(false);
      const calledBefore = counting.calls;
      const leasedBefore = await lease();
      for (let round = 0; round < 5; round += 1) {
        clock = new Date(clock.getTime() + 2_000);
        expect(await idle.tick()).toBe(0);
        expect(await standby.tick()).toBe(0);
      }
      expect(counting.calls).toBe(calledBefore);
      const leasedAfter = await lease();
      expect(leasedAfter.holder).toBe(leasedBefore.holder);
      expect(leasedAfter.expiresAt.getTime()).toBeGreaterThan(leasedBefore.expiresAt.getTime());

      const { author, wallet } = await authorOwedOneMilestone();
      clock = new Date(Math.max(clock.getTime(), Date.now()) + 2_000);
      expect(await idle.tick()).toBe(1);
      expect((await paymentRows(author.user.id))[0]!.status).toBe("completed");
      expect(await balanceOf(wallet)).toBe("1.0");
    } finally {
      await idle.stop();
      await standby.stop();
    }
  });

  it("still looks at the chain once the health record's cadence is over, nothing being owed, so the admin's figures stay that fresh", async () => {
    const counting = new CountingChain();
    let clock = new Date();
    const idle = worker(counting, { now: () => clock, balanceCheckMs: 60_000 });
    try {
      await idle.tick();
      clock = new Date(clock.getTime() + 58_000);
      const calledBefore = counting.calls;
      await idle.tick();
      expect(counting.calls).toBe(calledBefore);

      clock = new Date(clock.getTime() + 2_000);
      await idle.tick();
      expect(counting.calls).toBeGreaterThan(calledBefore);
      const health = await readPayoutHealth(testApp.database.db, counting.hotWallet.address);
      expect(health).toMatchObject({ state: "sending", checkedAt: clock, balancesCheckedAt: clock });
    } finally {
      await idle.stop();
    }
  });

  it("replaces a transaction stuck unmined with the same nonce and at least 10 % higher fees", async () => {
    const { author, wallet } = await authorOwedOneMilestone();
    await rpc.send("evm_setAutomine", [false]);
    try {
      let clock = new Date();
      const stuckWorker = worker(new PmeChain(settings), { stuckAfterMs: 60_000, now: () => clock });
      await stuckWorker.tick();
      const [sent] = await paymentRows(author.user.id);
      expect(sent).toMatchObject({ payoutStage: "broadcast" });
      const first = await transactionOf(sent!);
      expect(first.transactionHashes).toHaveLength(1);
      clock = new Date(clock.getTime() + 61_000);
      await stuckWorker.tick();
      const [replacedPayment] = await paymentRows(author.user.id);
      const replaced = await transactionOf(replacedPayment!);
      expect(replaced.id).toBe(first.id);
      expect(replaced.transactionHashes).toHaveLength(2);
      expect(replaced.nonce).toBe(first.nonce);
      const before = PmeChain.feesOf(first.signedTransaction);
      const after = PmeChain.feesOf(replaced.signedTransaction);
      expect(after.maxFeePerGas * 100n).toBeGreaterThanOrEqual(before.maxFeePerGas * 110n);
      expect(after.maxPriorityFeePerGas * 100n).toBeGreaterThanOrEqual(before.maxPriorityFeePerGas * 110n);
      await rpc.send("evm_mine", []);
      await stuckWorker.tick();
      await stuckWorker.stop();
      const [paid] = await paymentRows(author.user.id);
      expect(paid).toMatchObject({ status: "completed", transactionHash: replaced.transactionHashes[1] });
      expect(await balanceOf(wallet)).toBe("1.0");
    } finally {
      await rpc.send("evm_setAutomine", [true]);
    }
  });

  it("signs anew only when the stored transaction's nonce was used by another transaction", async () => {
    const { author, wallet } = await authorOwedOneMilestone();
    await expect(runProcessOnce(new FaultyChain(new Set(["broadcast"])))).rejects.toThrow();
    const [signed] = await paymentRows(author.user.id);
    // Another transaction of the hot wallet takes that nonce (as a manual transfer could).
    const hot = new Wallet(settings.payoutPrivateKey, rpc);
    await (await hot.sendTransaction({ to: hot.address, value: 0n, nonce: signed!.nonce! })).wait();
    await runProcessOnce();
    await runProcessOnce();
    const [paid] = await paymentRows(author.user.id);
    expect(paid!.status).toBe("completed");
    expect(paid!.nonce).not.toBe(signed!.nonce);
    expect(await balanceOf(wallet)).toBe("1.0");
  });

  it("never pays twice when a reorg takes a payout's block away: the same stored transaction completes", async () => {
    const { author, wallet } = await authorOwedOneMilestone();
    const twoConfirmations = { ...settings, confirmations: 2 };
    const beforePayout = (await rpc.send("evm_snapshot", [])) as string;
    await runProcessOnce(new DepthOnlyChain(twoConfirmations));
    const [sent] = await paymentRows(author.user.id);
    expect(sent).toMatchObject({ status: "pending", payoutStage: "confirming" });

    const stored = await transactionOf(sent!);
    await runProcessOnce(new ReorganisingChain(twoConfirmations, beforePayout, stored.signedTransaction));
    await rpc.send("evm_mine", []);
    await runProcessOnce(new DepthOnlyChain(twoConfirmations));

    const [paid] = await paymentRows(author.user.id);
    expect(paid).toMatchObject({ status: "completed", nonce: stored.nonce, transactionHash: stored.transactionHashes[0], payoutTransactionId: stored.id });
    expect((await transactionOf(paid!)).transactionHashes).toEqual(stored.transactionHashes);
    expect(await balanceOf(wallet)).toBe("1.0");
  });

  it("fails a payment whose wallet cannot receive PME before signing, and pays the rest of its round", async () => {
    const { author } = await authorOwedOneMilestone({ withWallet: false });
    const other = await authorOwedOneMilestone();
    // The zero address is refused by the token (ERC20InvalidReceiver): in a batch it would revert every payment.
    await testApp.database.db.update(users).set({ walletAddress: `0x${"0".repeat(40)}` }).where(eq(users.id, author.user.id));
    await runProcessOnce();
    expect((await paymentRows(author.user.id))[0]).toMatchObject({ status: "failed", payoutTransactionId: null, lastError: "The wallet address cannot receive PME (the zero address)." });
    expect((await paymentRows(other.author.user.id))[0]!.status).toBe("completed");
    expect(await balanceOf(other.wallet)).toBe("1.0");
  });

  it("queues again a transaction signed for a chain that is gone, never the completed payments", async () => {
    const { author, wallet } = await authorOwedOneMilestone();
    await expect(runProcessOnce(new FaultyChain(new Set(["broadcast"])))).rejects.toThrow();
    const [signed] = await paymentRows(author.user.id);
    await testApp.database.db.update(payoutTransactions).set({ genesisHash: `0x${"f".repeat(64)}` }).where(eq(payoutTransactions.id, signed!.payoutTransactionId!));
    await runProcessOnce();
    const [paid] = await paymentRows(author.user.id);
    expect(paid!.status).toBe("completed");
    expect(await balanceOf(wallet)).toBe("1.0");
    const completedElsewhere = await testApp.database.db.select().from(payments).where(eq(payments.status, "completed"));
    expect(completedElsewhere.every((row) => row.transactionHash)).toBe(true);
  });

  it("reconciles the hot wallet's transfers with the ledger, listing every difference", async () => {
    const pmeChain = new PmeChain(settings);
    try {
      const clean = await reconcile(testApp.database.db, pmeChain, { blockRange: DEFAULT_RECONCILIATION_BLOCK_RANGE });
      expect(clean).toMatchObject({ available: true, transfersWithoutPayment: [], paymentsWithoutTransfer: [], completedOnEarlierChain: [] });
      if (!clean.available) throw new Error("unreachable");
      expect(clean.sentOnChain).toBe(clean.completedInLedger);

      // A transfer sent by hand, and a payment recorded as completed on an earlier chain.
      const hot = new Wallet(settings.payoutPrivateKey, rpc);
      const manual = await (token.connect(hot) as Contract).getFunction("transfer")(Wallet.createRandom().address, 5n * 10n ** 18n);
      await manual.wait();
      const [completed] = await testApp.database.db.select().from(payments).where(eq(payments.status, "completed")).limit(1);
      await testApp.database.db.update(payments).set({ genesisHash: `0x${"e".repeat(64)}` }).where(eq(payments.id, completed!.id));

      const differences = await reconcile(testApp.database.db, pmeChain, { blockRange: DEFAULT_RECONCILIATION_BLOCK_RANGE });
      expect(differences).toMatchObject({
        available: true,
        completedOnEarlierChain: [completed!.id],
        paymentsWithoutTransfer: [],
        transfersWithoutPayment: expect.arrayContaining([
          expect.objectContaining({ transactionHash: manual.hash, amount: "5.0" }),
          expect.objectContaining({ transactionHash: completed!.transactionHash }),
        ]),
      });
    } finally {
      pmeChain.destroy();
    }
  });

  it("pays the first-book bonus on chain after 2 counted downloads while the promotion is open", async () => {
    const promo = await createTestApp({ TRUST_PROXY: "loopback", PROMO_CUTOFF: "2100-01-01T00:00:00Z" });
    const pmeChain = new PmeChain(settings);
    try {
      const author = await signedInAgent(promo.app);
      const wallet = await connectProvenWallet(author.agent);
      const bookId = (await sendBookForm(author.agent.post("/api/books"), { coverImage: null }).expect(201)).body.id;
      for (const index of [1, 2]) {
        const reader = await signedInAgent(promo.app);
        await reader.agent.post(`/api/books/${bookId}/download`).set("X-Forwarded-For", `192.0.2.${index}`).expect(200);
      }
      const promoWorker = new PayoutWorker(promo.database.db, pmeChain);
      await promoWorker.tick();
      await promoWorker.stop();
      const [bonus] = await promo.database.db.select().from(payments).where(eq(payments.bookId, bookId));
      expect(bonus).toMatchObject({ kind: "first-book-bonus", status: "completed" });
      expect(await balanceOf(wallet)).toBe("1.0");
    } finally {
      pmeChain.destroy();
      await promo.close();
    }
  });
});

describe("finality, fees and the hot wallet's health (docs/decisions/0037, 0038)", () => {
  const GWEI = 10n ** 9n;
  const policyWith = (overrides: Partial<PayoutPolicy>): PayoutPolicy => ({ ...DEFAULT_PAYOUT_POLICY, ...overrides });
  const healthOf = async () => (await readPayoutHealth(testApp.database.db, new PmeChain(settings).hotWallet.address))!;

  /** One round of a worker with this policy, rereading balances every round, then stopped. */
  async function roundWith(policy: PayoutPolicy, pmeChain = new PmeChain(settings)) {
    const process = worker(pmeChain, { policy, balanceCheckMs: 0, pausedBalanceCheckMs: 0 });
    try {
      return await process.tick();
    } finally {
      await process.stop();
    }
  }

  it("pauses while the hot wallet has too little POL for gas, names the state, and resumes by itself once funded", async () => {
    const { author, wallet } = await authorOwedOneMilestone();
    const hot = new PmeChain(settings).hotWallet.address;
    const gas = await rpc.getBalance(hot);
    const policy = policyWith({ minPolWei: gas + 10n ** 18n });
    expect(await roundWith(policy)).toBe(0);
    expect((await paymentRows(author.user.id))[0]).toMatchObject({ status: "pending", payoutStage: "queued", nonce: null });
    const paused = await healthOf();
    expect(paused).toMatchObject({ state: "low-gas", gasBalance: gas.toString() });

    await rpc.send("hardhat_setBalance", [hot, toQuantity(gas + 2n * 10n ** 18n)]);
    expect(await roundWith(policy)).toBe(1);
    expect((await paymentRows(author.user.id))[0]!.status).toBe("completed");
    expect(await balanceOf(wallet)).toBe("1.0");
    const resumed = await healthOf();
    expect(resumed.state).toBe("sending");
    expect(resumed.since.getTime()).toBeGreaterThanOrEqual(paused.checkedAt.getTime());
  });

  it("pauses while the hot wallet holds too little PME, and resumes once PME comes back", async () => {
    const { author, wallet } = await authorOwedOneMilestone();
    const hotKey = new Wallet(settings.payoutPrivateKey, rpc);
    const stash = Wallet.createRandom().connect(rpc);
    await rpc.send("hardhat_setBalance", [stash.address, toQuantity(10n ** 18n)]);
    const held = (await token.getFunction("balanceOf")(hotKey.address)) as bigint;
    // Everything but half a PME leaves the hot wallet: less than the one payment owed.
    await (await (token.connect(hotKey) as Contract).getFunction("transfer")(stash.address, held - 5n * 10n ** 17n)).wait();
    const policy = policyWith({ minPmeWei: 10n ** 18n });
    expect(await roundWith(policy)).toBe(0);
    expect(await healthOf()).toMatchObject({ state: "low-pme", tokenBalance: (5n * 10n ** 17n).toString() });
    expect((await paymentRows(author.user.id))[0]!.lastError).toBeNull();

    await (await (token.connect(stash) as Contract).getFunction("transfer")(hotKey.address, held - 5n * 10n ** 17n)).wait();
    expect(await roundWith(policy)).toBe(1);
    expect(await balanceOf(wallet)).toBe("1.0");
    expect((await healthOf()).state).toBe("sending");
  });

  it("sends nothing new while finality lags beyond the limit, and sends once it catches up", async () => {
    const { author, wallet } = await authorOwedOneMilestone();
    // Mined one by one: blocks made at once by hardhat_mine keep no state to call the contracts at.
    for (let block = 0; block < 50; block += 1) await rpc.send("evm_mine", []);
    const lagging = new LaggingChain(settings, 40);
    expect(await roundWith(policyWith({ finalityLagMaxSeconds: 30 }), lagging)).toBe(0);
    expect(await healthOf()).toMatchObject({ state: "finality-lag", finalityMode: "finalized-tag", finalityLagBlocks: 40 });
    expect((await paymentRows(author.user.id))[0]!.payoutStage).toBe("queued");

    expect(await roundWith(policyWith({ finalityLagMaxSeconds: 30 }))).toBe(1);
    expect(await balanceOf(wallet)).toBe("1.0");
  });

  it("completes a payout only once its block is finalized, not when it is mined", async () => {
    const { author } = await authorOwedOneMilestone();
    // The finalized block trails the newest by 3: the payout's block is not finalized at once.
    await roundWith(DEFAULT_PAYOUT_POLICY, new LaggingChain(settings, 3));
    const [mined] = await paymentRows(author.user.id);
    expect(mined).toMatchObject({ status: "pending", payoutStage: "confirming" });
    const receipt = await rpc.getTransactionReceipt(mined!.transactionHash!);
    expect(receipt?.status).toBe(1);

    for (let block = 0; block < 3; block += 1) await rpc.send("evm_mine", []);
    await roundWith(DEFAULT_PAYOUT_POLICY, new LaggingChain(settings, 3));
    expect((await paymentRows(author.user.id))[0]).toMatchObject({ status: "completed", transactionHash: mined!.transactionHash });
  });

  it("waits, sending nothing, while the fees the chain needs are above the ceiling, and tells what was needed", async () => {
    const { author, wallet } = await authorOwedOneMilestone();
    const ceiling = policyWith({ priorityFeeFloorWei: 30n * GWEI, maxFeeWei: 30n * GWEI });
    expect(await roundWith(ceiling)).toBe(0);
    const waiting = await healthOf();
    expect(waiting.state).toBe("fee-ceiling");
    expect(BigInt(waiting.feeNeeded!)).toBeGreaterThan(30n * GWEI);
    expect((await paymentRows(author.user.id))[0]).toMatchObject({ payoutStage: "queued", nonce: null });

    expect(await roundWith(policyWith({ priorityFeeFloorWei: 30n * GWEI }))).toBe(1);
    const [paid] = await paymentRows(author.user.id);
    expect(paid!.status).toBe("completed");
    expect(PmeChain.feesOf((await transactionOf(paid!)).signedTransaction).maxPriorityFeePerGas).toBe(30n * GWEI);
    expect(await balanceOf(wallet)).toBe("1.0");
  });

  it("fails every payment of a batch that reverts on chain, paying none of them", async () => {
    const owed = [await authorOwedOneMilestone(), await authorOwedOneMilestone()];
    const hot = new Wallet(settings.payoutPrivateKey, rpc);
    const stash = Wallet.createRandom().connect(rpc);
    await rpc.send("hardhat_setBalance", [stash.address, toQuantity(10n ** 18n)]);
    const held = (await token.getFunction("balanceOf")(hot.address)) as bigint;
    // The hot wallet holds one PME, for two payments, and the worker is told it holds plenty: the batch reverts.
    await (await (token.connect(hot) as Contract).getFunction("transfer")(stash.address, held - 10n ** 18n)).wait();
    try {
      await runProcessOnce(new OverstatedBalanceChain(settings));
      const rows = await Promise.all(owed.map(async ({ author }) => (await paymentRows(author.user.id))[0]!));
      expect(rows.map((payment) => [payment.status, payment.lastError])).toEqual([
        ["failed", "The transfer reverted on chain."],
        ["failed", "The transfer reverted on chain."],
      ]);
      expect(rows[0]!.transactionHash).toBe(rows[1]!.transactionHash);
      expect(await Promise.all(owed.map(({ wallet }) => balanceOf(wallet)))).toEqual(["0.0", "0.0"]);
    } finally {
      await (await (token.connect(stash) as Contract).getFunction("transfer")(hot.address, held - 10n ** 18n)).wait();
    }
  });

  it("pays a round's payments in one transaction, a transfer log each, and approves the batch payer first for a hot wallet that has not", async () => {
    const fresh = Wallet.createRandom();
    await rpc.send("hardhat_setBalance", [fresh.address, toQuantity(10n ** 18n)]);
    const hot = new Wallet(settings.payoutPrivateKey, rpc);
    await (await (token.connect(hot) as Contract).getFunction("transfer")(fresh.address, 10n * 10n ** 18n)).wait();
    const owed = [await authorOwedOneMilestone(), await authorOwedOneMilestone(), await authorOwedOneMilestone()];
    const freshChain = new PmeChain({ ...settings, payoutPrivateKey: fresh.privateKey });
    const process = worker(freshChain);
    try {
      expect(await process.tick()).toBe(0);
      expect(await freshChain.batches.allowance()).toBe(MaxUint256);
      expect(await process.tick()).toBe(3);
    } finally {
      await process.stop();
    }
    const rows = await Promise.all(owed.map(async ({ author }) => (await paymentRows(author.user.id))[0]!));
    expect(rows.every((payment) => payment.status === "completed")).toBe(true);
    expect(new Set(rows.map((payment) => payment.transactionHash)).size).toBe(1);
    expect(new Set(rows.map((payment) => payment.logIndex)).size).toBe(3);
    const receipt = await rpc.getTransactionReceipt(rows[0]!.transactionHash!);
    expect(receipt).toMatchObject({ from: fresh.address, to: settings.batchPayerAddress, status: 1 });
    expect(await Promise.all(owed.map(({ wallet }) => balanceOf(wallet)))).toEqual(["1.0", "1.0", "1.0"]);
  });

  it("learns the minimum tip a node names when it refuses a transaction as underpriced, and pays once at that tip", async () => {
    const { author, wallet } = await authorOwedOneMilestone();
    const strict = new TipFloorChain(settings, 25n * GWEI);
    const process = worker(strict, { balanceCheckMs: 0 });
    try {
      await process.tick();
      await process.tick();
    } finally {
      await process.stop();
    }
    const [paid] = await paymentRows(author.user.id);
    expect(paid).toMatchObject({ status: "completed" });
    const paidBy = await transactionOf(paid!);
    expect(paidBy.transactionHashes.length).toBeGreaterThanOrEqual(2);
    expect(PmeChain.feesOf(paidBy.signedTransaction).maxPriorityFeePerGas).toBeGreaterThanOrEqual(25n * GWEI);
    expect(strict.refused).toBeGreaterThanOrEqual(1);
    expect(await balanceOf(wallet)).toBe("1.0");
  });
});

describe("payment notices", () => {
  let inbox: SmtpInbox;
  let mailer: Mailer;
  beforeAll(async () => {
    inbox = await startSmtpInbox();
    mailer = createMailer({ settings: { smtpUrl: inbox.url, from: "Plume <no-reply@plume.test>" }, outboxDir: "/nonexistent" });
  });
  afterAll(async () => {
    mailer.close();
    await inbox.close();
  });

  /** One round of a worker that mails its notices, waiting for them to be sent. */
  async function payAndNotify(explorerUrl: string | null = "https://polygonscan.com/") {
    const sending: Array<Promise<void>> = [];
    const notifying = worker(undefined, {
      onCompleted: (paymentIds: number[]) => {
        const sent = mailPaymentNotices(testApp.database.db, { mailer, origin: "https://plume.test", productName: "Plume", explorerUrl }, paymentIds);
        sending.push(sent);
        return sent;
      },
    });
    try {
      await notifying.tick();
    } finally {
      await notifying.stop();
    }
    await Promise.all(sending);
  }
  const mailedTo = (address: string) => inbox.messages.filter((message) => message.to.includes(address.toLowerCase()));

  it("mails the author, in their language, what reached which wallet, for which book, with the transaction and how to stop these mails", async () => {
    const { author, wallet } = await authorOwedOneMilestone({ title: "<i>Poemas</i> & más", language: "es" });
    await testApp.proveEmail(author.account.email);
    await payAndNotify();
    const [payment] = await paymentRows(author.user.id);
    const mail = await inbox.next(author.account.email);
    expect(mail.subject).toBe("1 PME enviados a tu wallet");
    expect(mail.text).toContain(`Plume ha enviado 1 PME a tu wallet ${wallet}.`);
    expect(mail.text).toContain("1 PME por 20 descargas contadas de «<i>Poemas</i> & más»");
    expect(mail.text).toContain(`https://polygonscan.com/tx/${payment!.transactionHash}`);
    expect(mail.text).toContain("https://plume.test/dashboard");
    expect(mail.text).toContain("https://plume.test/settings");
    // The way to stop these mails is a link in the HTML, not an address to copy.
    expect(mail.html).toMatch(/<a href="https:\/\/plume\.test\/settings[^"]*">https:\/\/plume\.test\/settings/);
    expect(mail.html).toContain("«&lt;i&gt;Poemas&lt;/i&gt; &amp; más»");
    expect(mail.html).not.toContain("<i>");
  });

  it("writes the transaction's hash where the chain has no explorer, and one message for an author's payments completed together", async () => {
    const { author } = await authorOwedOneMilestone({ books: 2 });
    await testApp.proveEmail(author.account.email);
    await payAndNotify(null);
    const hashes = (await paymentRows(author.user.id)).map((payment) => payment.transactionHash!);
    const mail = await inbox.next(author.account.email);
    expect(mail.subject).toBe("2 PME sent to your wallet");
    for (const hash of hashes) expect(mail.text).toContain(`Transaction: ${hash}`);
    expect(mailedTo(author.account.email)).toHaveLength(1);
  });

  it("mails nobody who turned the notices off, whose address is not proven, or who was paid before", async () => {
    const quiet = await authorOwedOneMilestone();
    await testApp.proveEmail(quiet.author.account.email);
    await quiet.author.agent.put("/api/account/notifications").send({ paymentCompleted: false }).expect(200);
    const unproven = await authorOwedOneMilestone();
    await payAndNotify();
    expect((await paymentRows(quiet.author.user.id))[0]!.status).toBe("completed");
    expect((await paymentRows(unproven.author.user.id))[0]!.status).toBe("completed");
    expect(mailedTo(quiet.author.account.email)).toEqual([]);
    expect(mailedTo(unproven.author.account.email)).toEqual([]);
    // A later round completes nothing of theirs, so it mails nothing either.
    await testApp.proveEmail(unproven.author.account.email);
    await payAndNotify();
    expect(mailedTo(unproven.author.account.email)).toEqual([]);
  });
});
