import { describe, expect, it } from "vitest";
import { type RunState, checkInvariants } from "./invariants.ts";

const AUTHOR = "author-1";
const WALLET = "0x00000000000000000000000000000000000000aa";
const WEI = 10n ** 18n;
const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const COVER = "11111111-1111-4111-8111-111111111111";
const BOOK_FILE = "22222222-2222-4222-8222-222222222222.pdf";

/** A run that kept every invariant: one first book with 21 readers, its milestone and bonus paid on chain. */
function cleanRun(): RunState {
  const readers = Array.from({ length: 21 }, (_, index) => `reader-${index}`);
  const payment = (id: number, idempotencyKey: string, kind: "milestone" | "first-book-bonus", milestone: number | null) => ({
    id,
    bookId: 1,
    authorId: AUTHOR,
    idempotencyKey,
    kind,
    milestone,
    status: "completed" as const,
    amount: "1.00",
    tokensSent: WEI.toString(),
    // Both paid by one batch: one transaction, a Transfer log each.
    transactionHash: hash(1),
    logIndex: id - 1,
    walletAddress: WALLET,
    lastError: null,
  });
  return {
    promoCutoff: new Date("2100-01-01T00:00:00Z"),
    countedPerIpPerBookPerDay: 1000,
    tokensPerPayment: WEI,
    users: [
      { id: AUTHOR, walletAddress: WALLET, totalDownloads: 21, totalEarnings: "2.00" },
      ...readers.map((id) => ({ id, walletAddress: null, totalDownloads: 0, totalEarnings: "0" })),
    ],
    books: [
      {
        id: 1,
        authorId: AUTHOR,
        filePath: BOOK_FILE,
        coverImageUrl: `/covers/${COVER}-600.webp`,
        downloadCount: 21,
        paidMilestones: 1,
        firstBook: true,
        firstBookBonusPaid: true,
        deletedAt: null,
      },
    ],
    downloads: readers.map((userId, index) => ({ id: index + 1, bookId: 1, userId, counted: true, downloadedAt: new Date(2026, 0, 1, 0, index) })),
    payments: [payment(1, "book:1:milestone:1", "milestone", 1), payment(2, "book:1:first-book-bonus", "first-book-bonus", null)],
    transfers: [0, 1].map((logIndex) => ({ transactionHash: hash(1), logIndex, to: WALLET, amount: WEI })),
    files: { books: [BOOK_FILE], covers: [200, 400, 600].map((width) => `${COVER}-${width}.webp`), tmp: [] },
    acknowledged: {
      users: [AUTHOR, ...readers],
      books: [1],
      downloads: readers.map((readerId) => ({ bookId: 1, readerId })),
      wallets: [{ userId: AUTHOR, address: WALLET }],
    },
  };
}

describe("checkInvariants", () => {
  it("finds nothing wrong with a run that kept them all", () => {
    expect(checkInvariants(cleanRun())).toEqual([]);
  });

  it("finds a payment sent twice on chain", () => {
    const run = cleanRun();
    run.transfers.push({ transactionHash: hash(99), logIndex: 0, to: WALLET, amount: WEI });
    expect(checkInvariants(run)).toEqual([expect.stringContaining(`transfer ${hash(99)}`)]);
  });

  it("finds two payments completed with one transfer of a batch, and a transfer of the batch that paid no one", () => {
    const run = cleanRun();
    run.payments[1] = { ...run.payments[1]!, logIndex: 0 };
    expect(checkInvariants(run)).toEqual([
      expect.stringContaining("payments 1, 2 share the transfer"),
      expect.stringContaining(`transfer ${hash(1)} (log 1)`),
    ]);
  });

  it("matches a payment completed before batches (no log index) by its hash alone", () => {
    const run = cleanRun();
    run.payments[1] = { ...run.payments[1]!, transactionHash: hash(2), logIndex: null };
    run.transfers[1] = { ...run.transfers[1]!, transactionHash: hash(2), logIndex: 7 };
    expect(checkInvariants(run)).toEqual([]);
  });

  it("finds a completed payment whose transfer went elsewhere, or never happened", () => {
    const run = cleanRun();
    run.transfers[0]!.to = "0x00000000000000000000000000000000000000bb";
    run.transfers.pop();
    expect(checkInvariants(run)).toEqual([
      expect.stringContaining("payment 1: its transfer sent"),
      expect.stringContaining("payment 2 is completed with 0 transfers"),
    ]);
  });

  it("finds a milestone reached without its payment, and a payment nothing owes", () => {
    const missing = cleanRun();
    missing.payments.shift();
    missing.transfers.shift();
    missing.users[0]!.totalEarnings = "1.00";
    expect(checkInvariants(missing)).toEqual(["book 1: book:1:milestone:1 is owed and has 0 payment rows"]);

    const extra = cleanRun();
    extra.promoCutoff = new Date("2020-01-01T00:00:00Z");
    expect(checkInvariants(extra)).toEqual([
      "book 1: payment book:1:first-book-bonus is not owed",
      "book 1: firstBookBonusPaid is true but the bonus is not owed",
    ]);
  });

  it("finds a download counted twice, or a reader's first download not counted", () => {
    const twice = cleanRun();
    twice.downloads.push({ ...twice.downloads[0]!, id: 100 });
    expect(checkInvariants(twice)).toEqual(
      expect.arrayContaining(["book 1: downloadCount is 21 but 22 counted downloads are logged", "book 1: reader reader-0 counted 2 times"]),
    );

    const uncounted = cleanRun();
    uncounted.downloads.push({ id: 100, bookId: 1, userId: "reader-late", counted: false, downloadedAt: new Date(2026, 1, 1) });
    expect(checkInvariants(uncounted)).toEqual(["book 1: reader reader-late downloaded it but was never counted"]);
  });

  it("finds a payment left pending for an author with a wallet, and one that failed", () => {
    const run = cleanRun();
    run.payments[0] = { ...run.payments[0]!, status: "pending", transactionHash: null };
    run.payments[1] = { ...run.payments[1]!, status: "failed", lastError: "reverted" };
    run.transfers = [];
    run.users[0]!.totalEarnings = "0";
    expect(checkInvariants(run)).toEqual([expect.stringContaining("payment 1 is still pending"), "payment 2 failed: reverted"]);
  });

  it("finds orphan files, missing files and temporary files", () => {
    const run = cleanRun();
    run.files.books.push("33333333-3333-4333-8333-333333333333.pdf");
    run.files.covers.pop();
    run.files.tmp.push("44444444-4444-4444-8444-444444444444");
    expect(checkInvariants(run)).toEqual([
      "orphan book file 33333333-3333-4333-8333-333333333333.pdf",
      `the cover file ${COVER}-600.webp of a live book is missing`,
      "temporary file 44444444-4444-4444-8444-444444444444 left behind",
    ]);
  });

  it("finds an acknowledged write that did not survive", () => {
    const run = cleanRun();
    run.acknowledged.downloads.push({ bookId: 1, readerId: "reader-lost" });
    run.acknowledged.books.push(7);
    expect(checkInvariants(run)).toEqual(["uploaded book 7 is not live", "the served download of book 1 by reader-lost is not logged"]);
  });
});
