import { readFileSync } from "node:fs";
import { JsonRpcProvider, Wallet, parseUnits } from "ethers";
import { inArray } from "drizzle-orm";
import { LOCAL_CHAIN_ID } from "../../server/chain/local-chain.ts";
import { payments } from "../../server/db/schema.ts";
import { FIRST_BOOK_BONUS_DOWNLOADS } from "../../shared/rewards.ts";
import { fixture } from "../helpers/book-fixtures.ts";
import { type RunState, checkInvariants } from "../reliability/invariants.ts";
import { PlumeApi, type Session, type UploadFile } from "../reliability/plume-api.ts";
import { readHotWalletTransfers, readLedger } from "../reliability/run-state.ts";
import type { Cluster } from "./cluster.ts";

/** What the scenario needs of every process: the first-book bonus still offered, every reader's download counted. */
export const HANDOVER_SETTINGS: Record<string, string> = {
  PROMO_CUTOFF: "2100-01-01T00:00:00Z",
  COUNTED_PER_IP_PER_BOOK_PER_DAY: "1000",
  TOKENS_PER_MILESTONE: "1",
};
const TOKENS_PER_PAYMENT = parseUnits("1", 18);
/** Payments owed in each round: one first-book bonus per book. */
const BOOKS_PER_ROUND = 2;
const ROUNDS = 3;
/** What several servers promise: a dead sender's payouts go on within this (docs/decisions/0044-several-servers.md). */
export const HANDOVER_LIMIT_MS = 10_000;
const PAID_TIMEOUT_MS = 30_000;
const POLL_MS = 50;

export interface Handover {
  /** The member that held the lease and stopped. */
  member: number;
  /** The member that took over. */
  successor: number;
  /** From the SIGKILL (or SIGSTOP) to another member holding the lease. */
  leaseMovedMs: number;
  /** To every payment owed by then being completed on the chain and in the ledger. */
  paidMs: number;
}

export interface HandoverReport {
  /** The members whose transactions reached the node while all of them ran: one, the lease holder. */
  sendersWhileAllRan: number[];
  leaseHolderWhileAllRan: number | null;
  /** Every member that sent, in the order they sent, repeats collapsed: a member twice means two took turns. */
  senders: number[];
  /** The sender killed with SIGKILL just after the node took its batch, before it heard back. */
  killed: Handover;
  /**
   * The next sender frozen with SIGSTOP, alive to its host (a hung process, a host cut off): its lease
   * must run out. `leaseLeftMs`: what it had left just after the freeze; no one may take it sooner.
   */
  frozen: Handover & { leaseLeftMs: number };
  /** The scenario's payments; `transfers` and `duplicates` count every PME transfer of the hot wallet. */
  payments: { owed: number; paid: number; transfers: number; duplicates: number; lost: number };
  violations: string[];
}

const load = (name: string, type: string): UploadFile => ({ name, type, bytes: readFileSync(fixture(name)) });
const elapsedSince = (start: number) => Math.round(performance.now() - start);

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, POLL_MS))) {
    const value = await probe();
    if (value !== undefined) return value;
  }
  throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
}

/** Collapses repeats: [0, 0, 2, 2] is [0, 2]. */
const turns = (members: number[]) => members.filter((member, index) => index === 0 || members[index - 1] !== member);

/**
 * Payouts across the cluster's members (docs/decisions/0044): while all run, one sends; the sender
 * killed with SIGKILL at the worst moment (its batch taken by the node, not yet recorded as sent)
 * is replaced at once (a dead process of this host); the next one frozen with SIGSTOP, whose pid
 * lives on, is replaced once its lease runs out. Then the ledger and the chain are checked
 * against each other with the crash harness's invariants: nothing paid twice, nothing lost. Leaves
 * one member running; the cluster is of no other use after it.
 */
export async function payoutHandover(cluster: Cluster, log: (line: string) => void = () => {}): Promise<HandoverReport> {
  if (cluster.live().length < 3) throw new Error("The payout handover needs three running members");
  const throughNginx = new PlumeApi(() => cluster.url);
  const direct = (member: number) => new PlumeApi(() => cluster.members[member]!.url);
  const acknowledged: RunState["acknowledged"] = { users: [], books: [], downloads: [], wallets: [] };
  const password = "handover-pass";
  const register = async (username: string) => {
    const session = await throughNginx.register({ username, email: `${username}@scale-out.test`, password });
    acknowledged.users.push(session.userId);
    return session;
  };

  // Every author connects a wallet (the nonce and the signed proof land on different members: the
  // session carries the nonce) and publishes one book, whose first two readers owe its bonus.
  const book = load("book.pdf", "application/pdf");
  const cover = load("cover.jpg", "image/jpeg");
  const books: number[] = [];
  for (let index = 0; index < BOOKS_PER_ROUND * ROUNDS; index += 1) {
    const author = await register(`handover_author_${index}`);
    const wallet = new Wallet(Wallet.createRandom().privateKey);
    await throughNginx.connectWallet(author, wallet);
    acknowledged.wallets.push({ userId: author.userId, address: wallet.address });
    const bookId = await throughNginx.uploadBook(author, { title: `Handover ${index}`, file: book, cover });
    acknowledged.books.push(bookId);
    books.push(bookId);
  }
  const readers: Session[] = [];
  for (let index = 0; index < FIRST_BOOK_BONUS_DOWNLOADS; index += 1) readers.push(await register(`handover_reader_${index}`));

  const owe = async (round: number, api: PlumeApi) => {
    for (const bookId of books.slice(round * BOOKS_PER_ROUND, (round + 1) * BOOKS_PER_ROUND)) {
      for (const reader of readers) {
        await api.download(reader, bookId);
        acknowledged.downloads.push({ bookId, readerId: reader.userId });
      }
    }
  };
  const allPaid = (owed: number) =>
    waitFor(`${owed} payments completed`, PAID_TIMEOUT_MS, async () => {
      const rows = await cluster.db.select({ status: payments.status }).from(payments).where(inArray(payments.bookId, books));
      return rows.length >= owed && rows.every((row) => row.status === "completed") ? true : undefined;
    });
  const leaseMovedFrom = (member: number) =>
    waitFor(`the lease taken from member ${member}`, PAID_TIMEOUT_MS, async () => {
      const holder = await cluster.leaseHolder();
      return holder !== null && holder !== member ? holder : undefined;
    });

  // 1. All members run: the bonuses of the first round are paid, by one of them.
  await owe(0, throughNginx);
  await allPaid(BOOKS_PER_ROUND);
  const sendersWhileAllRan = [...new Set(cluster.sent.map((sent) => sent.member))];
  const leaseHolderWhileAllRan = await cluster.leaseHolder();
  log(`all running: member(s) ${sendersWhileAllRan.join(", ")} sent, member ${leaseHolderWhileAllRan} holds the lease`);

  // 2. The sender is killed the instant the node took its next batch; the round's downloads go to
  //    another member (their answers must not be cut with it), which tells the sender nothing: the
  //    sender finds the payments owed at its next round.
  const first = leaseHolderWhileAllRan!;
  const killed = cluster.killAtNextSend(first);
  await owe(1, direct(cluster.live().find((member) => member.index !== first)!.index));
  const killedAt = await waitFor(`member ${first} sending again`, PAID_TIMEOUT_MS, () => Promise.race([killed, new Promise<undefined>((resolve) => setTimeout(resolve, POLL_MS))]));
  const firstSuccessor = await leaseMovedFrom(first);
  const killedLeaseMs = elapsedSince(killedAt);
  await allPaid(2 * BOOKS_PER_ROUND);
  const killedPaidMs = elapsedSince(killedAt);
  log(`member ${first} killed with SIGKILL after the node took its batch: member ${firstSuccessor} held the lease after ${killedLeaseMs} ms, all paid after ${killedPaidMs} ms`);

  // 3. The new sender freezes: its pid lives, so the others wait for its lease to run out.
  const frozenMember = cluster.members[firstSuccessor]!;
  const last = cluster.live().find((member) => member.index !== firstSuccessor)!.index;
  frozenMember.server.freeze();
  const frozenAt = performance.now();
  const frozenLease = await cluster.lease();
  if (frozenLease?.member !== firstSuccessor) throw new Error(`The frozen member ${firstSuccessor} did not hold the lease (${JSON.stringify(frozenLease)})`);
  await owe(2, direct(last));
  const lastSuccessor = await leaseMovedFrom(firstSuccessor);
  const frozenLeaseMs = elapsedSince(frozenAt);
  await allPaid(ROUNDS * BOOKS_PER_ROUND);
  const frozenPaidMs = elapsedSince(frozenAt);
  await frozenMember.server.kill();
  log(`member ${firstSuccessor} frozen with SIGSTOP, its lease ${Math.round(frozenLease.expiresInMs)} ms from running out: member ${lastSuccessor} held it after ${frozenLeaseMs} ms, all paid after ${frozenPaidMs} ms`);

  // 4. The ledger against the chain, the bucket and what the members answered.
  const provider = new JsonRpcProvider(cluster.chain.rpcUrl, LOCAL_CHAIN_ID, { staticNetwork: true, cacheTimeout: -1 });
  let transfers: RunState["transfers"];
  try {
    transfers = await readHotWalletTransfers(provider, cluster.chain.tokenAddress, cluster.hotWallet, cluster.chain.deployBlock);
  } finally {
    provider.destroy();
  }
  const ledger = await readLedger(cluster.db);
  const keys = await cluster.bucket.keys();
  const inBucket = (prefix: string) => keys.filter((key) => key.startsWith(prefix)).map((key) => key.slice(prefix.length));
  const state: RunState = {
    promoCutoff: new Date(HANDOVER_SETTINGS.PROMO_CUTOFF!),
    countedPerIpPerBookPerDay: Number(HANDOVER_SETTINGS.COUNTED_PER_IP_PER_BOOK_PER_DAY),
    tokensPerPayment: TOKENS_PER_PAYMENT,
    ...ledger,
    transfers,
    // A running member may be drawing a cover from a temporary copy of its book, and a killed one leaves
    // its copy to its next start's purge (the crash harness proves it): Cluster.close checks the
    // members it stops that nothing is left.
    files: { books: inBucket("books/"), covers: inBucket("covers/"), tmp: [] },
    acknowledged,
  };
  // Owed, paid and lost are the scenario's own payments (a book of another test may owe a bonus to an
  // author without a wallet, which waits by design); every transfer on the chain must be a completed payment.
  const own = ledger.payments.filter((payment) => payment.bookId !== null && books.includes(payment.bookId));
  const paid = own.filter((payment) => payment.status === "completed").length;
  const completed = ledger.payments.filter((payment) => payment.status === "completed").length;
  return {
    sendersWhileAllRan,
    leaseHolderWhileAllRan,
    senders: turns(cluster.sent.map((sent) => sent.member)),
    killed: { member: first, successor: firstSuccessor, leaseMovedMs: killedLeaseMs, paidMs: killedPaidMs },
    frozen: { member: firstSuccessor, successor: lastSuccessor, leaseMovedMs: frozenLeaseMs, leaseLeftMs: Math.round(frozenLease.expiresInMs), paidMs: frozenPaidMs },
    payments: { owed: own.length, paid, transfers: transfers.length, duplicates: Math.max(0, transfers.length - completed), lost: own.length - paid },
    violations: checkInvariants(state),
  };
}
