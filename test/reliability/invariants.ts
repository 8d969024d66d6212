import { coverVariants } from "../../shared/covers.ts";
import { FIRST_BOOK_BONUS_DOWNLOADS, firstBookBonusKey, milestoneKey, milestonesReached } from "../../shared/rewards.ts";
import type { Book, Payment, User } from "../../server/db/schema.ts";

/** Everything a run left behind, read after the server stopped: database rows, chain, disk, and what the server acknowledged. */
export interface RunState {
  promoCutoff: Date;
  /** The per-IP cap the server ran with; the harness sets it above any book's readers. */
  countedPerIpPerBookPerDay: number;
  /** What one milestone pays, in wei. */
  tokensPerPayment: bigint;
  users: Array<Pick<User, "id" | "walletAddress" | "totalDownloads" | "totalEarnings">>;
  books: Array<
    Pick<Book, "id" | "authorId" | "filePath" | "coverImageUrl" | "downloadCount" | "paidMilestones" | "firstBook" | "firstBookBonusPaid" | "deletedAt">
  >;
  downloads: Array<{ id: number; bookId: number; userId: string | null; counted: boolean; downloadedAt: Date }>;
  payments: Array<
    Pick<Payment, "id" | "bookId" | "authorId" | "idempotencyKey" | "kind" | "milestone" | "status" | "amount" | "tokensSent" | "transactionHash" | "logIndex" | "walletAddress" | "lastError">
  >;
  /** The hot wallet's PME Transfer logs: a batch makes several under one transaction hash. */
  transfers: Array<{ transactionHash: string; logIndex: number; to: string; amount: bigint }>;
  files: { books: string[]; covers: string[]; tmp: string[] };
  /** Writes the server answered as done (201/200): they must all be there after any crash. */
  acknowledged: {
    users: string[];
    books: number[];
    downloads: Array<{ bookId: number; readerId: string }>;
    wallets: Array<{ userId: string; address: string }>;
  };
}

const same = (a: string | null | undefined, b: string | null | undefined) => (a ?? "").toLowerCase() === (b ?? "").toLowerCase();

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/** Each counted download counted once, and every first download by another reader counted. */
function checkCountedDownloads(state: RunState): string[] {
  const violations: string[] = [];
  const downloadsByBook = groupBy(state.downloads, (row) => row.bookId);
  for (const book of state.books) {
    const logged = downloadsByBook.get(book.id) ?? [];
    const counted = logged.filter((row) => row.counted);
    if (book.downloadCount !== counted.length) {
      violations.push(`book ${book.id}: downloadCount is ${book.downloadCount} but ${counted.length} counted downloads are logged`);
    }
    for (const [reader, rows] of groupBy(counted, (row) => row.userId)) {
      if (rows.length > 1) violations.push(`book ${book.id}: reader ${reader} counted ${rows.length} times`);
      if (reader === book.authorId) violations.push(`book ${book.id}: its author's own download was counted`);
    }
    const readers = new Set(logged.filter((row) => row.userId && row.userId !== book.authorId).map((row) => row.userId));
    if (readers.size <= state.countedPerIpPerBookPerDay) {
      const countedReaders = new Set(counted.map((row) => row.userId));
      for (const reader of readers) {
        if (!countedReaders.has(reader)) violations.push(`book ${book.id}: reader ${reader} downloaded it but was never counted`);
      }
    }
  }
  const countedByAuthor = new Map<string, number>();
  for (const book of state.books) countedByAuthor.set(book.authorId, (countedByAuthor.get(book.authorId) ?? 0) + book.downloadCount);
  for (const user of state.users) {
    const expected = countedByAuthor.get(user.id) ?? 0;
    if (user.totalDownloads !== expected) violations.push(`user ${user.id}: totalDownloads is ${user.totalDownloads} but their books have ${expected}`);
  }
  return violations;
}

/** The payment keys a book is owed by the rules of docs/product.md#rewards, from its download log alone. */
function owedKeys(state: RunState, book: RunState["books"][number], counted: RunState["downloads"]): string[] {
  const keys = Array.from({ length: milestonesReached(counted.length) }, (_, index) => milestoneKey(book.id, index + 1));
  const ordered = [...counted].sort((a, b) => a.downloadedAt.getTime() - b.downloadedAt.getTime() || a.id - b.id);
  const second = ordered[FIRST_BOOK_BONUS_DOWNLOADS - 1];
  if (book.firstBook && second && second.downloadedAt.getTime() < state.promoCutoff.getTime()) keys.push(firstBookBonusKey(book.id));
  return keys;
}

/** Exactly one payment row per milestone reached and per bonus earned: no more, no fewer. */
function checkPaymentsOwed(state: RunState): string[] {
  const violations: string[] = [];
  const paymentsByBook = groupBy(state.payments, (payment) => payment.bookId);
  const countedByBook = groupBy(
    state.downloads.filter((row) => row.counted),
    (row) => row.bookId,
  );
  for (const book of state.books) {
    const owed = owedKeys(state, book, countedByBook.get(book.id) ?? []);
    const rows = paymentsByBook.get(book.id) ?? [];
    const present = rows.map((payment) => payment.idempotencyKey);
    for (const key of owed) {
      const found = present.filter((candidate) => candidate === key).length;
      if (found !== 1) violations.push(`book ${book.id}: ${key} is owed and has ${found} payment rows`);
    }
    for (const key of present.filter((candidate) => !owed.includes(candidate))) violations.push(`book ${book.id}: payment ${key} is not owed`);
    const milestones = owed.filter((key) => key.includes(":milestone:")).length;
    if (book.paidMilestones !== milestones) violations.push(`book ${book.id}: paidMilestones is ${book.paidMilestones}, ${milestones} reached`);
    if (book.firstBookBonusPaid !== owed.includes(firstBookBonusKey(book.id))) {
      violations.push(`book ${book.id}: firstBookBonusPaid is ${book.firstBookBonusPaid} but the bonus is ${owed.includes(firstBookBonusKey(book.id)) ? "" : "not "}owed`);
    }
    for (const payment of rows) {
      if (payment.authorId !== book.authorId) violations.push(`payment ${payment.id} is for another author than its book's`);
      if (payment.tokensSent !== state.tokensPerPayment.toString()) violations.push(`payment ${payment.id} sends ${payment.tokensSent} wei`);
    }
  }
  for (const [authorId, books] of groupBy(state.books, (book) => book.authorId)) {
    const first = Math.min(...books.map((book) => book.id));
    for (const book of books) {
      if (book.firstBook !== (book.id === first)) violations.push(`author ${authorId}: book ${book.id} has firstBook ${book.firstBook}`);
    }
  }
  return violations;
}

/** Completed payments and the hot wallet's transfers match one to one; nothing left pending or failed. */
function checkChainMatchesLedger(state: RunState): string[] {
  const violations: string[] = [];
  // One transfer is one log: (hash, log index). A payment completed without a log index (before
  // batches) is matched by its hash alone.
  const keyOf = (hash: string | null, logIndex: number | null) => `${(hash ?? "").toLowerCase()}:${logIndex ?? "any"}`;
  const transfersByKey = groupBy(state.transfers, (transfer) => keyOf(transfer.transactionHash, transfer.logIndex));
  const transfersByHash = groupBy(state.transfers, (transfer) => keyOf(transfer.transactionHash, null));
  const transfersOf = (payment: RunState["payments"][number]) =>
    (payment.logIndex === null ? transfersByHash : transfersByKey).get(keyOf(payment.transactionHash, payment.logIndex)) ?? [];
  const completed = state.payments.filter((payment) => payment.status === "completed");
  const completedByKey = groupBy(completed, (payment) => keyOf(payment.transactionHash, payment.logIndex));
  for (const payment of completed) {
    const transfers = transfersOf(payment);
    if (transfers.length !== 1) {
      violations.push(`payment ${payment.id} is completed with ${transfers.length} transfers for its hash ${payment.transactionHash} and log ${payment.logIndex}`);
      continue;
    }
    const [transfer] = transfers;
    if (!same(transfer!.to, payment.walletAddress) || transfer!.amount.toString() !== payment.tokensSent) {
      violations.push(`payment ${payment.id}: its transfer sent ${transfer!.amount} wei to ${transfer!.to}, not ${payment.tokensSent} to ${payment.walletAddress}`);
    }
  }
  for (const [key, payments] of completedByKey) {
    if (payments.length > 1) violations.push(`payments ${payments.map((payment) => payment.id).join(", ")} share the transfer ${key}`);
  }
  for (const transfer of state.transfers) {
    if (!completedByKey.has(keyOf(transfer.transactionHash, transfer.logIndex)) && !completedByKey.has(keyOf(transfer.transactionHash, null))) {
      violations.push(`transfer ${transfer.transactionHash} (log ${transfer.logIndex}) of ${transfer.amount} wei to ${transfer.to} has no completed payment (paid twice?)`);
    }
  }
  const walletOf = new Map(state.users.map((user) => [user.id, user.walletAddress]));
  for (const payment of state.payments) {
    if (payment.status === "failed") violations.push(`payment ${payment.id} failed: ${payment.lastError}`);
    if (payment.status === "pending" && walletOf.get(payment.authorId)) {
      violations.push(`payment ${payment.id} is still pending though its author has a wallet (${payment.lastError ?? "no error"})`);
    }
  }
  for (const user of state.users) {
    const earned = completed.filter((payment) => payment.authorId === user.id).reduce((sum, payment) => sum + Number(payment.amount), 0);
    if (Number(user.totalEarnings) !== earned) violations.push(`user ${user.id}: totalEarnings is ${user.totalEarnings} but ${earned} was paid`);
  }
  return violations;
}

/** Every stored file belongs to a live book, every live book has its files, and no temporary file is left. */
function checkFiles(state: RunState): string[] {
  const violations: string[] = [];
  const live = state.books.filter((book) => book.deletedAt === null);
  const bookFiles = new Set(live.map((book) => book.filePath));
  const coverFiles = new Set(
    live.flatMap((book) => (book.coverImageUrl ? coverVariants(book.coverImageUrl).map(({ url }) => url.slice(url.lastIndexOf("/") + 1)) : [])),
  );
  for (const name of state.files.books) if (!bookFiles.has(name)) violations.push(`orphan book file ${name}`);
  for (const name of state.files.covers) if (!coverFiles.has(name)) violations.push(`orphan cover file ${name}`);
  const onDisk = { books: new Set(state.files.books), covers: new Set(state.files.covers) };
  for (const name of bookFiles) if (!onDisk.books.has(name)) violations.push(`the book file ${name} of a live book is missing`);
  for (const name of coverFiles) if (!onDisk.covers.has(name)) violations.push(`the cover file ${name} of a live book is missing`);
  for (const name of state.files.tmp) violations.push(`temporary file ${name} left behind`);
  return violations;
}

/** What the server answered as done before a crash is still there after it. */
function checkAcknowledged(state: RunState): string[] {
  const violations: string[] = [];
  const users = new Map(state.users.map((user) => [user.id, user]));
  const books = new Map(state.books.map((book) => [book.id, book]));
  for (const id of state.acknowledged.users) if (!users.has(id)) violations.push(`registered user ${id} is gone`);
  for (const id of state.acknowledged.books) {
    if (books.get(id)?.deletedAt !== null) violations.push(`uploaded book ${id} is not live`);
  }
  const logged = new Set(state.downloads.map((row) => `${row.bookId}:${row.userId}`));
  for (const { bookId, readerId } of state.acknowledged.downloads) {
    if (!logged.has(`${bookId}:${readerId}`)) violations.push(`the served download of book ${bookId} by ${readerId} is not logged`);
  }
  const lastWallet = new Map(state.acknowledged.wallets.map(({ userId, address }) => [userId, address]));
  for (const [userId, address] of lastWallet) {
    if (!same(users.get(userId)?.walletAddress, address)) violations.push(`user ${userId}: the wallet ${address} they connected is not saved`);
  }
  return violations;
}

/** Every invariant of a run; an empty list means the run kept all of them. */
export function checkInvariants(state: RunState): string[] {
  return [
    ...checkCountedDownloads(state),
    ...checkPaymentsOwed(state),
    ...checkChainMatchesLedger(state),
    ...checkFiles(state),
    ...checkAcknowledged(state),
  ];
}
