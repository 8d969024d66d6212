import { describe, expect, it } from "vitest";
import { type LoggedDownload, findSuspiciousBursts, suspiciousActivitySince } from "./suspicious-activity.ts";

const start = new Date("2025-03-01T10:00:00.000Z");
const MINUTE_MS = 60_000;
const at = (minutes: number) => new Date(start.getTime() + minutes * MINUTE_MS);

let nextId = 1;
function logged(minutes: number, overrides: Partial<LoggedDownload> = {}): LoggedDownload {
  return { id: nextId++, bookId: 7, userId: "reader", ipAddress: "192.0.2.1", addressHash: null, accountDeleted: false, counted: false, downloadedAt: at(minutes), ...overrides };
}
/** `count` downloads, one every `everyMinutes`, each with the overrides `each(index)` gives. */
const series = (count: number, everyMinutes: number, each: (index: number) => Partial<LoggedDownload> = () => ({})) =>
  Array.from({ length: count }, (_, index) => logged(index * everyMinutes, each(index)));
const kinds = (log: LoggedDownload[]) => findSuspiciousBursts(log).map((burst) => burst.kind);

describe("one book, many downloads from one address (10 within an hour)", () => {
  it("finds 10 within 59 minutes, with what they were", () => {
    const log = series(10, 6.5, (index) => ({ userId: `reader-${index % 4}`, counted: index < 3 }));
    expect(findSuspiciousBursts(log)).toEqual([
      {
        kind: "address_book_burst",
        bookId: 7,
        ipAddress: "192.0.2.1",
        addressLabel: null,
        downloads: 10,
        counted: 3,
        accounts: 4,
        windowStart: at(0).toISOString(),
        windowEnd: at(58.5).toISOString(),
      },
    ]);
  });

  it("ignores 9 within the hour, 10 spread over a full hour, and 10 split over two books or two addresses", () => {
    expect(kinds(series(9, 1))).toEqual([]);
    expect(kinds(series(10, 60 / 9))).toEqual([]);
    expect(kinds(series(10, 1, (index) => ({ bookId: 7 + (index % 2) })))).toEqual([]);
    expect(kinds(series(10, 1, (index) => ({ ipAddress: `192.0.2.${index % 2}` })))).toEqual([]);
  });

  it("merges a farm that goes on for hours into one burst, and keeps apart two bursts hours apart", () => {
    const [steady] = findSuspiciousBursts(series(25, 5));
    expect(steady).toMatchObject({ downloads: 25, windowStart: at(0).toISOString(), windowEnd: at(120).toISOString() });
    const twice = findSuspiciousBursts([...series(10, 1), ...series(10, 1, (index) => ({ downloadedAt: at(180 + index) }))]);
    expect(twice.map((burst) => [burst.windowStart, burst.windowEnd])).toEqual([
      [at(180).toISOString(), at(189).toISOString()],
      [at(0).toISOString(), at(9).toISOString()],
    ]);
  });
});

describe("one address, many accounts (5 within a day)", () => {
  const accounts = (count: number, everyMinutes: number) =>
    series(count, everyMinutes, (index) => ({ userId: `reader-${index}`, bookId: 100 + index }));

  it("finds 5 accounts within 24 hours, across books", () => {
    expect(findSuspiciousBursts(accounts(5, 6 * 60 - 1))).toEqual([
      expect.objectContaining({ kind: "shared_address", bookId: null, ipAddress: "192.0.2.1", downloads: 5, accounts: 5 }),
    ]);
  });

  it("ignores 4 accounts, however often they download, and 5 spread over more than a day", () => {
    expect(kinds(series(8, 60, (index) => ({ userId: `reader-${index % 4}`, bookId: 100 + index })))).toEqual([]);
    expect(kinds(accounts(5, 6 * 60 + 1))).toEqual([]);
  });

  it("takes each download of a deleted account as an account of its own", () => {
    expect(kinds(series(5, 60, (index) => ({ userId: null, bookId: 100 + index })))).toEqual(["shared_address"]);
  });
});

describe("one book, a spike of counted downloads (20 within an hour)", () => {
  const readers = (count: number, each: (index: number) => Partial<LoggedDownload> = () => ({})) =>
    series(count, 2, (index) => ({ userId: `reader-${index}`, ipAddress: `198.51.100.${index}`, counted: true, ...each(index) }));

  it("finds 20 counted within the hour and reports the uncounted ones among them", () => {
    const log = [...readers(20), logged(10, { ipAddress: "203.0.113.9", userId: "reader-0" })];
    expect(findSuspiciousBursts(log)).toEqual([
      expect.objectContaining({ kind: "book_spike", bookId: 7, ipAddress: null, downloads: 21, counted: 20, accounts: 20 }),
    ]);
  });

  it("ignores 19 counted and any number of uncounted", () => {
    expect(kinds(readers(19))).toEqual([]);
    const uncounted = series(30, 1, (index) => ({ userId: `other-${index}`, ipAddress: `203.0.113.${index}` }));
    expect(kinds([...readers(19), ...uncounted])).toEqual([]);
  });
});

describe("one address, counted downloads of accounts deleted since (3 within a day)", () => {
  const HASH = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";
  /** A reader of the address: once deleted, only the hash is left of where the download came from. */
  const reader = (index: number, deleted: boolean) => ({
    userId: `reader-${index}`,
    bookId: 100 + (index % 2),
    ipAddress: deleted ? null : "192.0.2.1",
    addressHash: HASH,
    accountDeleted: deleted,
    counted: true,
  });

  it("finds 3 counted within 24 hours across books, naming the address only by a label of its hash", () => {
    const log = series(3, 11 * 60, (index) => reader(index, true));
    expect(findSuspiciousBursts(log)).toEqual([
      {
        kind: "deleted_accounts",
        bookId: null,
        ipAddress: null,
        addressLabel: HASH.slice(0, 10),
        downloads: 3,
        counted: 3,
        accounts: 3,
        windowStart: at(0).toISOString(),
        windowEnd: at(22 * 60).toISOString(),
      },
    ]);
  });

  it("ignores 2 counted, 3 spread over more than a day, uncounted ones, and readers who kept their account", () => {
    expect(kinds(series(2, 60, (index) => reader(index, true)))).toEqual([]);
    expect(kinds(series(3, 12 * 60 + 1, (index) => reader(index, true)))).toEqual([]);
    expect(kinds(series(4, 60, (index) => ({ ...reader(index, true), counted: index === 0 })))).toEqual([]);
    expect(kinds(series(4, 60, (index) => reader(index, false)))).toEqual([]);
  });

  it("watches live and deleted accounts of one address together, and then never shows the address in clear", () => {
    // Five accounts of one address, three of them deleted since: one shared address, whose clear form only the live ones still have.
    const log = series(5, 60, (index) => reader(index, index < 3));
    const bursts = findSuspiciousBursts(log);
    expect(bursts.map((burst) => burst.kind).sort()).toEqual(["deleted_accounts", "shared_address"]);
    for (const burst of bursts) expect(burst).toMatchObject({ ipAddress: null, addressLabel: HASH.slice(0, 10) });
    // Without a deleted account among them, the same address is shown in clear.
    expect(findSuspiciousBursts(series(5, 60, (index) => reader(index, false)))).toEqual([
      expect.objectContaining({ kind: "shared_address", ipAddress: "192.0.2.1", addressLabel: null }),
    ]);
  });

  it("leaves out a deleted account's downloads that kept neither the address nor its hash", () => {
    expect(kinds(series(5, 60, (index) => ({ ...reader(index, true), addressHash: null })))).toEqual([]);
  });
});

it("lists the newest burst first and looks back seven days", () => {
  const log = [...series(10, 1, () => ({ bookId: 1 })), ...series(10, 1, () => ({ bookId: 2, downloadedAt: at(30) }))];
  expect(findSuspiciousBursts(log).map((burst) => burst.bookId)).toEqual([2, 1]);
  expect(suspiciousActivitySince(new Date("2025-03-08T10:00:00.000Z"))).toEqual(new Date("2025-03-01T10:00:00.000Z"));
});
