import { priceTransaction } from "../server/chain/fee-pricing.ts";
import { DEFAULT_PAYOUT_POLICY } from "../server/config.ts";
import { randomBytes } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import { Contract, JsonRpcProvider, getAddress, hexlify, parseUnits } from "ethers";
import { MILESTONE_STEP } from "../shared/rewards.ts";
import { hashPassword } from "../server/accounts/passwords.ts";
import { lockLiveBook } from "../server/books/books-repository.ts";
import { DEFAULT_SUPPLY, LOCAL_CHAIN_ID, LOCAL_HOT_WALLET_KEY, type LocalChain, deployPme, startLocalChain } from "../server/chain/local-chain.ts";
import { pmeArtifact } from "../server/chain/pme-artifact.ts";
import { type ChainSettings, DEFAULT_RECONCILIATION_BLOCK_RANGE, type RewardSettings, loadConfig } from "../server/config.ts";
import { type Database, type Db, type Tx, openDatabase } from "../server/db/client.ts";
import { books, payments, payoutTransactions, users } from "../server/db/schema.ts";
import { MAX_BATCH_PAYMENTS, deployBatchPayer } from "../server/chain/batch-payer.ts";
import { PayoutWorker } from "../server/rewards/payout-worker.ts";
import { PmeChain } from "../server/chain/pme-chain.ts";
import { reconcile } from "../server/rewards/reconciliation-service.ts";
import { recordOwedRewards } from "../server/rewards/rewards-ledger-service.ts";
import { freePort } from "../test/helpers/free-port.ts";
import { type Benchmark, type BenchmarkOptions, judged } from "./lib/benchmark.ts";
import { BENCH_PASSWORD, recreatePostgresDatabase } from "./seed.ts";

/**
 * Milestone payments paid on the embedded local chain (Hardhat, one block per transaction) by the
 * real payout worker, as the server runs it, on PostgreSQL: a backlog owed at one moment (the
 * throughput), then payments owed one after another at a steady rate (the delay an author sees).
 * The payments are written by the app's own outbox code; a drain that pays anything twice, or
 * leaves anything unpaid, voids the run.
 */

const DATABASE_URL = process.env.BENCH_PAYOUTS_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/plume_bench_payouts";
const MODES = {
  full: { authors: 125, backlog: 5_000, steady: 1_000, chainOnly: 300 },
  quick: { authors: 50, backlog: 1_000, steady: 200, chainOnly: 100 },
};
/** Milestones reached per second in the steady scenario: above the budgeted throughput, with room to spare. */
const ARRIVALS_PER_SECOND = 60;
const BUDGET = { paymentsPerSecond: 500, p99Ms: 2_000, gasShareOfTransfer: 0.6 };
/** Far beyond any budget: a worker this slow is broken, and the run says so rather than waiting on. */
const DRAIN_TIMEOUT_MS = 10 * 60_000;
/**
 * Hardhat's second default account (its key is public knowledge, like the hot wallet's): it sends
 * the chain-only peer's transfers of a PME of its own, so the hot wallet's history stays the ledger's.
 */
const PEER_SENDER_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

const newWallet = () => getAddress(hexlify(randomBytes(20)));
const chainSettings = (chain: LocalChain, tokenAddress: string, payoutPrivateKey: string): ChainSettings => ({
  rpcUrl: chain.rpcUrl,
  publicRpcUrl: chain.rpcUrl,
  chainId: LOCAL_CHAIN_ID,
  chainName: null,
  tokenAddress,
  // The chain's own batch payer pays PME only (the chain-only peer's token sends single transfers).
  batchPayerAddress: chain.batchPayerAddress,
  payoutPrivateKey,
  confirmations: 1,
  explorerUrl: null,
});

/** Authors with a wallet and one published book each, as sign-up, wallet connection and upload leave them: their books' ids. */
async function createAuthors(db: Db, count: number): Promise<number[]> {
  const password = await hashPassword(BENCH_PASSWORD);
  const authors = await db
    .insert(users)
    .values(Array.from({ length: count }, (_, index) => ({ username: `author.${index + 1}`, email: `author.${index + 1}@example.test`, password, walletAddress: newWallet() })))
    .returning({ id: users.id });
  const created = await db
    .insert(books)
    .values(
      authors.map(({ id }, index) => ({
        title: `Book ${index + 1}`,
        authorId: id,
        fileName: `book-${index + 1}.pdf`,
        filePath: `${randomBytes(16).toString("hex")}.pdf`,
        fileSize: 1_000_000,
        mimeType: "application/pdf",
        firstBook: true,
      })),
    )
    .returning({ id: books.id });
  return created.map((book) => book.id);
}

/**
 * The book's counted downloads cross `milestones` more milestones at `at`, in the caller's transaction:
 * the book row locked and the payments written by the rewards ledger, as the download that crosses one
 * does (the download's own row is not what is measured here).
 */
async function reachMilestones(tx: Tx, bookId: number, milestones: number, rewards: RewardSettings, at: Date): Promise<number> {
  const book = await lockLiveBook(tx, bookId);
  if (!book) throw new Error(`Book ${bookId} is gone`);
  const [crossed] = await tx
    .update(books)
    .set({ downloadCount: sql`${books.downloadCount} + ${milestones * MILESTONE_STEP}` })
    .where(eq(books.id, bookId))
    .returning();
  return recordOwedRewards(tx, crossed!, rewards, at);
}

async function lastPaymentId(db: Db): Promise<number> {
  const [row] = await db.select({ id: sql<number>`coalesce(max(${payments.id}), 0)::int` }).from(payments);
  return row!.id;
}

/** Waits until none of the payments after `afterId` is pending; a failed one is a broken drain. */
async function drained(db: Db, afterId: number, expected: number): Promise<void> {
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  for (;;) {
    const rows = await db
      .select({ status: payments.status, count: sql<number>`count(*)::int` })
      .from(payments)
      .where(gt(payments.id, afterId))
      .groupBy(payments.status);
    const count = (status: string) => rows.find((row) => row.status === status)?.count ?? 0;
    if (count("failed") > 0) throw new Error(`${count("failed")} payments failed during the drain`);
    if (count("completed") === expected) return;
    if (Date.now() > deadline) throw new Error(`After ${DRAIN_TIMEOUT_MS / 1000} s, ${count("completed")} of ${expected} payments are completed`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Drain {
  payments: number;
  /** From the moment the first payment was owed (committed, and so visible to the worker) to the last completed. */
  seconds: number;
  paymentsPerSecond: number;
  /** Milestones reached per second, first to last. */
  arrivalsPerSecond: number;
  /** Milestone reached → payment completed. */
  latencyMs: { p50: number; p99: number; max: number };
}

async function measureDrain(db: Db, afterId: number, owedSince: Date): Promise<Drain> {
  const rows = await db
    .select({ owedAt: payments.triggeredAt, completedAt: payments.completedAt })
    .from(payments)
    .where(and(gt(payments.id, afterId), eq(payments.status, "completed")));
  const owed = rows.map((row) => row.owedAt.getTime());
  const completed = rows.map((row) => row.completedAt!.getTime());
  const latencies = rows.map((row) => row.completedAt!.getTime() - row.owedAt.getTime()).sort((a, b) => a - b);
  const at = (share: number) => latencies[Math.min(latencies.length - 1, Math.ceil(share * latencies.length) - 1)]!;
  const seconds = (Math.max(...completed) - owedSince.getTime()) / 1000;
  const arrivalSeconds = (Math.max(...owed) - Math.min(...owed)) / 1000;
  return {
    payments: rows.length,
    seconds,
    paymentsPerSecond: rows.length / seconds,
    arrivalsPerSecond: arrivalSeconds > 0 ? (rows.length - 1) / arrivalSeconds : Number.POSITIVE_INFINITY,
    latencyMs: { p50: at(0.5), p99: at(0.99), max: latencies.at(-1)! },
  };
}

/**
 * Runs the worker as the server does (its defaults, woken when payments are owed) while `owe` writes
 * payments; `owe` answers when the first of them was committed, from when the drain is timed.
 */
async function drain(db: Db, chain: PmeChain, paymentCount: number, owe: (worker: PayoutWorker) => Promise<Date>): Promise<Drain> {
  const afterId = await lastPaymentId(db);
  const worker = new PayoutWorker(db, chain);
  worker.start();
  let owedSince: Date;
  try {
    owedSince = await owe(worker);
    await drained(db, afterId, paymentCount);
  } finally {
    await worker.stop();
  }
  return measureDrain(db, afterId, owedSince);
}

/**
 * Everything the hot wallet sent, checked against the ledger and against the authors' balances: each
 * completed payment's transfer on chain exactly once, nothing else sent, every author holding exactly
 * what their completed payments say and credited it once in their earnings.
 */
async function verifyPaidOnce(db: Db, chain: PmeChain, rpc: JsonRpcProvider, tokenAddress: string, perPayment: bigint): Promise<number> {
  const counts = await db.select({ status: payments.status, count: sql<number>`count(*)::int` }).from(payments).groupBy(payments.status);
  const completed = counts.find((row) => row.status === "completed")?.count ?? 0;
  if (counts.some((row) => row.status !== "completed")) throw new Error(`Payments not completed after the drain: ${JSON.stringify(counts)}`);

  const reconciliation = await reconcile(db, chain, { blockRange: DEFAULT_RECONCILIATION_BLOCK_RANGE });
  if (!reconciliation.available) throw new Error(`The reconciliation could not read the chain: ${reconciliation.reason}`);
  const { transfersWithoutPayment, paymentsWithoutTransfer, completedOnEarlierChain, sentOnChain, completedInLedger } = reconciliation;
  if (transfersWithoutPayment.length + paymentsWithoutTransfer.length + completedOnEarlierChain.length > 0 || sentOnChain !== completedInLedger) {
    throw new Error(`The chain and the ledger differ: ${JSON.stringify(reconciliation).slice(0, 2000)}`);
  }
  const token = new Contract(tokenAddress, pmeArtifact.abi, rpc);
  const balanceOf = async (address: string) => (await token.getFunction("balanceOf")(address)) as bigint;
  const hotWalletSent = DEFAULT_SUPPLY - (await balanceOf(chain.hotWallet.address));
  if (hotWalletSent !== BigInt(completed) * perPayment) {
    throw new Error(`The hot wallet sent ${hotWalletSent} wei of PME for ${completed} completed payments of ${perPayment} wei`);
  }

  const authors = await db
    .select({
      wallet: users.walletAddress,
      earnings: users.totalEarnings,
      paid: sql<number>`count(${payments.id})::int`,
      tokensPaid: sql<string>`coalesce(sum(${payments.amount}), 0)::text`,
    })
    .from(users)
    .leftJoin(payments, and(eq(payments.authorId, users.id), eq(payments.status, "completed")))
    .groupBy(users.id);
  const balances = await Promise.all(authors.map((author) => balanceOf(author.wallet!)));
  authors.forEach((author, index) => {
    if (balances[index] !== BigInt(author.paid) * perPayment || Number(author.earnings) !== Number(author.tokensPaid)) {
      throw new Error(`${author.wallet} holds ${balances[index]} wei for ${author.paid} completed payments, earnings ${author.earnings} for ${author.tokensPaid} PME paid`);
    }
  });
  return completed;
}

/**
 * The ceiling the chain itself sets: transfers signed and sent one after another with nothing else
 * (no database, no receipts), from another account and token on the same node. Then what gas a
 * payment costs: one transfer to a fresh recipient, against a batch of MAX_BATCH_PAYMENTS fresh
 * recipients through the batch payer, from that same account (fresh balances cost the most to write).
 */
async function chainOnlyPeer(chain: LocalChain, transfers: number): Promise<{ paymentsPerSecond: number; transferGas: bigint; batchGasPerPayment: bigint }> {
  const { address: tokenAddress } = await deployPme(chain.rpcUrl, PEER_SENDER_KEY);
  const batchPayerAddress = await deployBatchPayer(chain.rpcUrl, PEER_SENDER_KEY, tokenAddress);
  const sender = new PmeChain({ ...chainSettings(chain, tokenAddress, PEER_SENDER_KEY), batchPayerAddress });
  try {
    const [firstNonce, market] = await Promise.all([sender.pendingNonce(), sender.feeMarket()]);
    const pricing = priceTransaction(market, DEFAULT_PAYOUT_POLICY);
    if (!("fees" in pricing)) throw new Error("The local chain's fees are above the default ceiling");
    const { fees } = pricing;
    const amount = parseUnits("1", 18);
    const started = performance.now();
    let lastHash = "";
    for (let index = 0; index < transfers; index += 1) {
      const transfer = await sender.signTransfer(newWallet(), amount, firstNonce + index, fees);
      await sender.broadcast(transfer.raw);
      lastHash = transfer.hash;
    }
    const seconds = (performance.now() - started) / 1000;
    if ((await sender.pendingNonce()) !== firstNonce + transfers) throw new Error("The chain-only transfers were not all mined");
    const transferReceipt = await sender.receipt(lastHash);

    const batch = await sender.batches.signBatch(
      Array.from({ length: MAX_BATCH_PAYMENTS }, () => ({ to: newWallet(), amount })),
      firstNonce + transfers,
      fees,
    );
    await sender.broadcast(batch.raw);
    const batchReceipt = await sender.receipt(batch.hash);
    if (batchReceipt?.status !== 1 || sender.batches.transfersOf(batchReceipt).length !== MAX_BATCH_PAYMENTS) throw new Error("The measured batch did not pay every recipient");
    return { paymentsPerSecond: transfers / seconds, transferGas: transferReceipt!.gasUsed, batchGasPerPayment: batchReceipt.gasUsed / BigInt(MAX_BATCH_PAYMENTS) };
  } finally {
    sender.destroy();
  }
}

/** Gas the backlog's batches used, per payment: its authors are paid several times, so later transfers to them cost less. */
async function backlogGasPerPayment(db: Db, rpc: JsonRpcProvider, payments: number): Promise<bigint> {
  const hashes = await db.selectDistinct({ hash: payoutTransactions.transactionHashes }).from(payoutTransactions);
  const receipts = await Promise.all(hashes.flatMap((row) => row.hash).map((hash) => rpc.getTransactionReceipt(hash)));
  const used = receipts.reduce((sum, receipt) => sum + (receipt?.gasUsed ?? 0n), 0n);
  return used / BigInt(payments);
}

const describeDrain = (drain: Drain) =>
  `${drain.payments} payments in ${drain.seconds.toFixed(1)} s: ${drain.paymentsPerSecond.toFixed(1)}/s; milestone to completed p50 ${drain.latencyMs.p50} ms, p99 ${drain.latencyMs.p99} ms, max ${drain.latencyMs.max} ms`;

async function run({ quick, log }: BenchmarkOptions) {
  const mode = MODES[quick ? "quick" : "full"];
  const rewards = loadConfig({}).rewards;
  const perPayment = parseUnits(String(rewards.tokensPerMilestone), 18);
  await recreatePostgresDatabase(DATABASE_URL);
  let database: Database | undefined;
  let chain: LocalChain | undefined;
  let pmeChain: PmeChain | undefined;
  let rpc: JsonRpcProvider | undefined;
  try {
    database = await openDatabase({ kind: "postgres", url: DATABASE_URL });
    await database.migrate();
    chain = await startLocalChain(await freePort());
    pmeChain = new PmeChain(chainSettings(chain, chain.tokenAddress, LOCAL_HOT_WALLET_KEY));
    rpc = new JsonRpcProvider(chain.rpcUrl, LOCAL_CHAIN_ID, { staticNetwork: true, cacheTimeout: -1 });
    const { db } = database;
    const bookIds = await createAuthors(db, mode.authors);
    log(`${mode.authors} authors with a wallet and a book; the hot wallet ${pmeChain.hotWallet.address} pays`);

    const peer = await chainOnlyPeer(chain, mode.chainOnly);
    const chainOnly = peer.paymentsPerSecond;
    log(`chain only: ${mode.chainOnly} transfers signed and sent one after another, ${chainOnly.toFixed(1)}/s (${(1000 / chainOnly).toFixed(1)} ms each)`);
    log(`gas: a transfer to a fresh recipient ${peer.transferGas}, a payment in a batch of ${MAX_BATCH_PAYMENTS} fresh recipients ${peer.batchGasPerPayment}`);

    // Each book crosses its share of the backlog's milestones at the same moment, in one transaction:
    // the worker meets them all at once, as after an outage of the chain.
    let writeSeconds = 0;
    const backlog = await drain(db, pmeChain, mode.backlog, async (worker) => {
      const at = new Date();
      await db.transaction(async (tx) => {
        for (const [index, bookId] of bookIds.entries()) {
          const milestones = Math.floor(mode.backlog / bookIds.length) + (index < mode.backlog % bookIds.length ? 1 : 0);
          await reachMilestones(tx, bookId, milestones, rewards, at);
        }
      });
      const committed = new Date();
      writeSeconds = (committed.getTime() - at.getTime()) / 1000;
      worker.wake();
      return committed;
    });
    log(`backlog (written in ${writeSeconds.toFixed(2)} s): ${describeDrain(backlog)}`);
    await verifyPaidOnce(db, pmeChain, rpc, chain.tokenAddress, perPayment);
    const backlogGas = await backlogGasPerPayment(db, rpc, backlog.payments);
    log(`backlog gas: ${backlogGas} per payment`);

    // One milestone every 1/ARRIVALS_PER_SECOND s, round the authors, each waking the worker as a download
    // does. Each starts on time whether or not the ones before have committed, as requests would.
    const steady = await drain(db, pmeChain, mode.steady, async (worker) => {
      const firstDue = new Date();
      const started = performance.now();
      const arrivals: Array<Promise<void>> = [];
      const failures: Error[] = [];
      for (let index = 0; index < mode.steady; index += 1) {
        const dueIn = started + (index * 1000) / ARRIVALS_PER_SECOND - performance.now();
        if (dueIn > 0) await new Promise((resolve) => setTimeout(resolve, dueIn));
        const bookId = bookIds[index % bookIds.length]!;
        const arrival = db.transaction((tx) => reachMilestones(tx, bookId, 1, rewards, new Date()));
        arrivals.push(arrival.then((owed) => (owed > 0 ? worker.wake() : undefined), (error: Error) => void failures.push(error)));
      }
      await Promise.all(arrivals);
      if (failures.length > 0) throw failures[0];
      return firstDue;
    });
    log(`steady ${ARRIVALS_PER_SECOND}/s (reached ${steady.arrivalsPerSecond.toFixed(1)}/s): ${describeDrain(steady)}`);
    const paid = await verifyPaidOnce(db, pmeChain, rpc, chain.tokenAddress, perPayment);
    log(`verified: ${paid} payments completed, each paid once on chain, nothing else sent by the hot wallet`);

    const peers = [{ name: "chain-only", figure: chainOnly }];
    const chainNote = `chain only: ${(1000 / chainOnly).toFixed(1)} ms per single transfer signed and sent, Hardhat mining one block per transaction; the worker pays up to ${MAX_BATCH_PAYMENTS} payments a transaction`;
    return {
      results: [
        judged({
          name: "payouts.backlog.throughput",
          figure: backlog.paymentsPerSecond,
          unit: "payments/s",
          peers,
          budgets: [{ kind: "at-least", limit: BUDGET.paymentsPerSecond }],
          note: `${backlog.payments} milestone payments to ${mode.authors} authors owed at one moment (one transaction, committed in ${writeSeconds.toFixed(2)} s), from then to the last completed (${backlog.seconds.toFixed(1)} s); ${chainNote}`,
        }),
        judged({
          name: "payouts.gas.per-payment",
          figure: Number(peer.batchGasPerPayment),
          unit: "gas",
          peers: [{ name: "single transfer", figure: Number(peer.transferGas) }],
          budgets: [{ kind: "at-most", limit: BUDGET.gasShareOfTransfer * Number(peer.transferGas) }],
          note: `a batch of ${MAX_BATCH_PAYMENTS} payments to fresh recipients through the batch payer, against one transfer to a fresh recipient (budget: ${BUDGET.gasShareOfTransfer}× it); the backlog's batches used ${backlogGas} a payment, its authors paid several times each`,
        }),
        judged({ name: "payouts.backlog.p50", figure: backlog.latencyMs.p50, unit: "ms", peers: [], budgets: [], note: "milestone reached → payment completed: a place in the queue" }),
        judged({ name: "payouts.backlog.p99", figure: backlog.latencyMs.p99, unit: "ms", peers: [], budgets: [] }),
        judged({
          name: "payouts.steady.p50",
          figure: steady.latencyMs.p50,
          unit: "ms",
          peers: [],
          budgets: [],
          note: `${steady.payments} milestones reached at ${ARRIVALS_PER_SECOND}/s (${steady.arrivalsPerSecond.toFixed(1)}/s reached), round ${mode.authors} authors: milestone reached → payment completed`,
        }),
        judged({ name: "payouts.steady.p99", figure: steady.latencyMs.p99, unit: "ms", peers: [], budgets: [{ kind: "at-most", limit: BUDGET.p99Ms }], note: `max ${steady.latencyMs.max} ms` }),
        judged({
          name: "payouts.steady.throughput",
          figure: steady.paymentsPerSecond,
          unit: "payments/s",
          peers: [],
          budgets: [],
          note: "first owed to last completed: the arrival rate, when the worker keeps up",
        }),
      ],
      context: { mode, arrivalsPerSecond: ARRIVALS_PER_SECOND, chainOnlyPaymentsPerSecond: chainOnly, gas: { transfer: Number(peer.transferGas), batchedPayment: Number(peer.batchGasPerPayment), backlogPayment: Number(backlogGas) }, backlogWriteSeconds: writeSeconds, backlog, steady, paid },
    };
  } finally {
    rpc?.destroy();
    pmeChain?.destroy();
    await chain?.stop();
    await database?.close();
  }
}

export const benchmark: Benchmark = { name: "payouts", run };
