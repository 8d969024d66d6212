import { describe, expect, it } from "vitest";
import {
  type BookRewardState,
  DEFAULT_PROMO_CUTOFF,
  diagnoseFirstBookBonus,
  downloadsToNextMilestone,
  milestonesReached,
  rewardsOwed,
} from "./rewards.ts";

const cutoff = DEFAULT_PROMO_CUTOFF;
const before = new Date("2026-03-31T23:59:59Z");
const after = new Date("2026-04-01T00:00:00Z");

const book = (overrides: Partial<BookRewardState> = {}): BookRewardState => ({
  bookId: 7,
  countedDownloads: 0,
  paidMilestones: 0,
  firstBook: false,
  firstBookBonusPaid: false,
  secondCountedDownloadAt: null,
  ...overrides,
});
const keys = (state: BookRewardState, clockCutoff = cutoff) => rewardsOwed(state, clockCutoff).map((reward) => reward.idempotencyKey);

describe("milestones", () => {
  it.each([
    [0, 0],
    [19, 0],
    [20, 1],
    [21, 1],
    [39, 1],
    [40, 2],
    [41, 2],
    [100, 5],
  ])("%i counted downloads reach %i milestones", (downloads, milestones) => {
    expect(milestonesReached(downloads)).toBe(milestones);
  });

  it("owes nothing at 19, milestone 1 at 20 and 21, nothing more at 39, milestone 2 at 40 and 41", () => {
    expect(keys(book({ countedDownloads: 19 }))).toEqual([]);
    expect(keys(book({ countedDownloads: 20 }))).toEqual(["book:7:milestone:1"]);
    expect(keys(book({ countedDownloads: 21 }))).toEqual(["book:7:milestone:1"]);
    expect(keys(book({ countedDownloads: 21, paidMilestones: 1 }))).toEqual([]);
    expect(keys(book({ countedDownloads: 39, paidMilestones: 1 }))).toEqual([]);
    expect(keys(book({ countedDownloads: 40, paidMilestones: 1 }))).toEqual(["book:7:milestone:2"]);
    expect(keys(book({ countedDownloads: 41, paidMilestones: 2 }))).toEqual([]);
  });

  it("owes every unpaid milestone at once, in order, with its threshold", () => {
    expect(rewardsOwed(book({ countedDownloads: 45 }), cutoff)).toEqual([
      { kind: "milestone", idempotencyKey: "book:7:milestone:1", downloadThreshold: 20, milestone: 1 },
      { kind: "milestone", idempotencyKey: "book:7:milestone:2", downloadThreshold: 40, milestone: 2 },
    ]);
  });

  it("are the same for first and later books", () => {
    expect(keys(book({ countedDownloads: 20, firstBook: true, firstBookBonusPaid: true }))).toEqual(["book:7:milestone:1"]);
    expect(keys(book({ countedDownloads: 20, firstBook: false }))).toEqual(["book:7:milestone:1"]);
  });

  it("count down to the next milestone", () => {
    expect([0, 1, 19, 20, 39].map(downloadsToNextMilestone)).toEqual([20, 19, 1, 20, 1]);
  });
});

describe("first-book bonus", () => {
  it("is owed once the first book's second counted download came before the cutoff", () => {
    const first = book({ firstBook: true, countedDownloads: 2, secondCountedDownloadAt: before });
    expect(rewardsOwed(first, cutoff)).toEqual([
      { kind: "first-book-bonus", idempotencyKey: "book:7:first-book-bonus", downloadThreshold: 2 },
    ]);
  });

  it("is not owed at one download, after the cutoff, for a later book, or twice", () => {
    expect(keys(book({ firstBook: true, countedDownloads: 1, secondCountedDownloadAt: null }))).toEqual([]);
    expect(keys(book({ firstBook: true, countedDownloads: 2, secondCountedDownloadAt: after }))).toEqual([]);
    expect(keys(book({ firstBook: false, countedDownloads: 2, secondCountedDownloadAt: before }))).toEqual([]);
    expect(keys(book({ firstBook: true, firstBookBonusPaid: true, countedDownloads: 2, secondCountedDownloadAt: before }))).toEqual([]);
  });

  it("comes on top of the milestones", () => {
    const first = book({ firstBook: true, countedDownloads: 20, secondCountedDownloadAt: before });
    expect(keys(first)).toEqual(["book:7:milestone:1", "book:7:first-book-bonus"]);
  });

  it("follows the clock given, not today's date", () => {
    const first = book({ firstBook: true, countedDownloads: 2, secondCountedDownloadAt: new Date("2030-01-01T00:00:00Z") });
    expect(keys(first, new Date("2031-01-01T00:00:00Z"))).toEqual(["book:7:first-book-bonus"]);
    expect(keys(first, new Date("2029-01-01T00:00:00Z"))).toEqual([]);
  });
});

describe("diagnoseFirstBookBonus", () => {
  const healthy = {
    firstBook: true,
    firstBookBonusPaid: false,
    firstDownloadDate: new Date("2026-03-01T00:00:00Z"),
    secondCountedDownloadAt: before,
    authorWallet: "0x0000000000000000000000000000000000000001",
  };

  it("finds no issue for a first book downloaded twice during the promotion", () => {
    expect(diagnoseFirstBookBonus(healthy, cutoff)).toEqual({ canReceiveFirstBookBonus: true, issues: [] });
  });

  it("lists every issue, and a missing wallet alone does not block the bonus", () => {
    expect(diagnoseFirstBookBonus({ ...healthy, authorWallet: null }, cutoff)).toEqual({
      canReceiveFirstBookBonus: true,
      issues: ["no_wallet_address"],
    });
    expect(
      diagnoseFirstBookBonus(
        { firstBook: false, firstBookBonusPaid: true, firstDownloadDate: null, secondCountedDownloadAt: null, authorWallet: null },
        cutoff,
      ),
    ).toEqual({
      canReceiveFirstBookBonus: false,
      issues: ["not_marked_as_first_book", "bonus_already_paid", "no_first_download_date", "no_wallet_address"],
    });
    expect(diagnoseFirstBookBonus({ ...healthy, secondCountedDownloadAt: after }, cutoff).issues).toEqual(["after_cutoff_date"]);
  });
});
