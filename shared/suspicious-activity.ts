/**
 * Reward-farming signals for the admin (docs/product.md#admin): bursts in the download log that the counting
 * rules of docs/product.md#counting-downloads already keep from paying, or that slipped under them. They only inform;
 * nothing here changes what counts. Pure functions, the clock an argument, like shared/rewards.ts.
 */
import type { SuspiciousBurst, SuspiciousBurstKind } from "./admin.ts";
import { MILESTONE_STEP } from "./rewards.ts";

const HOUR_MS = 60 * 60 * 1000;

/** How far back the admin's diagnostics look: a week shows a farm that paces itself day by day. */
export const SUSPICIOUS_ACTIVITY_DAYS = 7;

/**
 * One book downloaded 10 times from one address within an hour. At most 3 of those can count
 * (COUNTED_PER_IP_PER_BOOK_PER_DAY), so a reader or household has no reason to go on; a script
 * probing the cap, or accounts taking turns behind one address, does.
 */
export const ADDRESS_BOOK_BURST = { downloads: 10, windowMs: HOUR_MS } as const;

/**
 * Five accounts downloading from one address within a day: more than a household shares, and the
 * sign of throwaway accounts (or an account deleted and registered again) working around the
 * one-count-per-reader rule. A school or office network can reach it too, hence a signal, not a block.
 */
export const SHARED_ADDRESS_ACCOUNTS = { accounts: 5, windowMs: 24 * HOUR_MS } as const;

/**
 * A whole milestone (20 counted downloads, one PME) earned within an hour. Under the per-address
 * cap that takes at least seven addresses at once, which a new book rarely sees and a network of
 * proxies easily does.
 */
export const BOOK_COUNTED_SPIKE = { counted: MILESTONE_STEP, windowMs: HOUR_MS } as const;

/**
 * Three counted downloads within a day from one address by accounts deleted since. One reader who
 * leaves is ordinary; readers of one address who keep leaving once counted are the farm that
 * registers, downloads and deletes, hoping to free the address's cap (docs/decisions/0049).
 */
export const DELETED_ACCOUNTS_COUNTED = { counted: 3, windowMs: 24 * HOUR_MS } as const;

/** How much of an address's keyed hash names it once it may no longer be shown: enough to tell a few addresses apart. */
export const ADDRESS_LABEL_LENGTH = 10;

/** One row of the download log, as the detection reads it. */
export interface LoggedDownload {
  id: number;
  bookId: number;
  /** Null once the account's row is gone (a closed account keeps its id). */
  userId: string | null;
  /** The address in clear; null once the account was deleted, or when the download had none. */
  ipAddress: string | null;
  /** The address's keyed hash (docs/decisions/0049); null for downloads logged before hashes were kept, or older than kept. */
  addressHash: string | null;
  /** The account was deleted since the download. */
  accountDeleted: boolean;
  counted: boolean;
  downloadedAt: Date;
}

type Measure = "downloads" | "accounts" | "counted";

/** The address downloads are watched by: its hash, which a deleted account's downloads keep too, else the address in clear. */
const addressOf = (download: LoggedDownload) => download.addressHash ?? download.ipAddress;

interface BurstRule {
  kind: SuspiciousBurstKind;
  windowMs: number;
  /** The measure a window must reach, and how much of it. */
  measure: Measure;
  threshold: number;
  /** The downloads watched together; null when a download cannot take part in this kind of burst. */
  groupOf(download: LoggedDownload): string | null;
}

const BURST_RULES: readonly BurstRule[] = [
  {
    kind: "address_book_burst",
    windowMs: ADDRESS_BOOK_BURST.windowMs,
    measure: "downloads",
    threshold: ADDRESS_BOOK_BURST.downloads,
    groupOf: (download) => {
      const address = addressOf(download);
      return address === null ? null : `${download.bookId} ${address}`;
    },
  },
  {
    kind: "shared_address",
    windowMs: SHARED_ADDRESS_ACCOUNTS.windowMs,
    measure: "accounts",
    threshold: SHARED_ADDRESS_ACCOUNTS.accounts,
    groupOf: addressOf,
  },
  {
    kind: "book_spike",
    windowMs: BOOK_COUNTED_SPIKE.windowMs,
    measure: "counted",
    threshold: BOOK_COUNTED_SPIKE.counted,
    groupOf: ({ bookId }) => String(bookId),
  },
  {
    kind: "deleted_accounts",
    windowMs: DELETED_ACCOUNTS_COUNTED.windowMs,
    measure: "counted",
    threshold: DELETED_ACCOUNTS_COUNTED.counted,
    groupOf: (download) => (download.accountDeleted ? addressOf(download) : null),
  },
];

/** A deleted account leaves no id behind; each of its downloads is taken as its own account, since deleting is how a farm hides. */
const accountOf = (download: LoggedDownload) => download.userId ?? `deleted download ${download.id}`;

/** The measures of a sliding window, kept up to date as downloads enter and leave it. */
class WindowTally {
  private downloads = 0;
  private counted = 0;
  private readonly accounts = new Map<string, number>();

  add(download: LoggedDownload) {
    this.downloads += 1;
    if (download.counted) this.counted += 1;
    const account = accountOf(download);
    this.accounts.set(account, (this.accounts.get(account) ?? 0) + 1);
  }

  remove(download: LoggedDownload) {
    this.downloads -= 1;
    if (download.counted) this.counted -= 1;
    const account = accountOf(download);
    const left = this.accounts.get(account)! - 1;
    if (left === 0) this.accounts.delete(account);
    else this.accounts.set(account, left);
  }

  value(measure: Measure): number {
    if (measure === "accounts") return this.accounts.size;
    return measure === "counted" ? this.counted : this.downloads;
  }
}

/** A burst as detected; the book is named by id, its title is the caller's to look up. */
export type DetectedBurst = Omit<SuspiciousBurst, "book"> & { bookId: number | null };

const timeOf = (download: LoggedDownload) => download.downloadedAt.getTime();

/** The kinds watched across every book of an address. */
const ACROSS_BOOKS: ReadonlySet<SuspiciousBurstKind> = new Set(["shared_address", "deleted_accounts"]);

function summarize(rule: BurstRule, downloads: LoggedDownload[]): DetectedBurst {
  const first = downloads[0]!;
  const address = rule.kind === "book_spike" ? null : addressOf(first);
  // Once an account of the burst is deleted, its address is no one's to read in clear: only a label
  // of the hash (the only form of it such a group can have) tells the burst's address apart.
  const hidden = address !== null && downloads.some((download) => download.accountDeleted);
  return {
    kind: rule.kind,
    bookId: ACROSS_BOOKS.has(rule.kind) ? null : first.bookId,
    ipAddress: address === null || hidden ? null : first.ipAddress,
    addressLabel: hidden ? address.slice(0, ADDRESS_LABEL_LENGTH) : null,
    downloads: downloads.length,
    counted: downloads.filter((download) => download.counted).length,
    accounts: new Set(downloads.map(accountOf)).size,
    windowStart: first.downloadedAt.toISOString(),
    windowEnd: downloads.at(-1)!.downloadedAt.toISOString(),
  };
}

/**
 * The bursts of one group (its downloads in time order): every window [t, t + windowMs) that starts
 * at a download and reaches the threshold, overlapping windows merged, so a farm that keeps going
 * for hours is one burst from its first download to its last.
 */
function burstsOfGroup(rule: BurstRule, group: LoggedDownload[]): DetectedBurst[] {
  const spans: Array<{ from: number; to: number; lastWindowStart: number }> = [];
  const tally = new WindowTally();
  let next = 0;
  for (let start = 0; start < group.length; start += 1) {
    const windowStart = timeOf(group[start]!);
    while (next < group.length && timeOf(group[next]!) < windowStart + rule.windowMs) tally.add(group[next++]!);
    if (tally.value(rule.measure) >= rule.threshold) {
      const last = spans.at(-1);
      if (last && windowStart < last.lastWindowStart + rule.windowMs) Object.assign(last, { to: next - 1, lastWindowStart: windowStart });
      else spans.push({ from: start, to: next - 1, lastWindowStart: windowStart });
    }
    tally.remove(group[start]!);
  }
  return spans.map(({ from, to }) => summarize(rule, group.slice(from, to + 1)));
}

/** Every burst in the log, newest first. The caller passes the downloads of the period it looks at. */
export function findSuspiciousBursts(log: readonly LoggedDownload[]): DetectedBurst[] {
  const inTimeOrder = [...log].sort((a, b) => timeOf(a) - timeOf(b) || a.id - b.id);
  const bursts = BURST_RULES.flatMap((rule) => {
    const groups = new Map<string, LoggedDownload[]>();
    for (const download of inTimeOrder) {
      const key = rule.groupOf(download);
      if (key === null) continue;
      const group = groups.get(key);
      if (group) group.push(download);
      else groups.set(key, [download]);
    }
    return [...groups.values()].flatMap((group) => burstsOfGroup(rule, group));
  });
  return bursts.sort((a, b) => b.windowEnd.localeCompare(a.windowEnd) || a.kind.localeCompare(b.kind));
}

/** The start of the period the diagnostics look at. */
export const suspiciousActivitySince = (now: Date) => new Date(now.getTime() - SUSPICIOUS_ACTIVITY_DAYS * 24 * HOUR_MS);
