import { describe, expect, it } from "vitest";
import { GENRE_KEYS } from "../../shared/genres.ts";
import { DEFAULT_PROMO_CUTOFF, MILESTONE_STEP } from "../../shared/rewards.ts";
import { type SeedSizes, generateCatalog } from "./catalog-data.ts";

const SIZES: SeedSizes = { books: 400, users: 60, downloads: 6_000, seed: 7 };
const generate = (sizes: SeedSizes) => {
  const { users, books, editions, payments, downloadRows } = generateCatalog(sizes, "scrypt$hash");
  return { users, books, editions, payments, downloads: [...downloadRows()] };
};

describe("generateCatalog", () => {
  it("makes the same rows from the same seed, and other rows from another", () => {
    const first = generate(SIZES);
    expect(generate(SIZES)).toEqual(first);
    const other = generate({ ...SIZES, seed: 8 });
    expect(other.books.map((book) => book.title)).not.toEqual(first.books.map((book) => book.title));
  });

  it("writes titles in three languages, accents included, over the app's genres", () => {
    const { books } = generate(SIZES);
    expect(new Set(books.map((book) => book.language))).toEqual(new Set(["en", "es", "fr"]));
    expect(books.filter((book) => book.language !== "en").some((book) => /[áéíóúñàâçèêëîïôûœ]/i.test(book.title))).toBe(true);
    expect(books.every((book) => (GENRE_KEYS as readonly string[]).includes(book.genre!))).toBe(true);
    expect(new Set(books.map((book) => book.id)).size).toBe(books.length);
  });

  it("counts downloads as the app does and keeps every total consistent with the log", () => {
    const { users, books, downloads, payments } = generate(SIZES);
    expect(downloads).toHaveLength(SIZES.downloads);
    const counted = downloads.filter((row) => row.counted);
    const pairs = counted.map((row) => `${row.bookId}:${row.userId}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    const authorOf = new Map(books.map((book) => [book.id, book.authorId]));
    expect(counted.some((row) => row.userId === authorOf.get(row.bookId))).toBe(false);
    expect(downloads.map((row) => row.downloadedAt.getTime())).toEqual(downloads.map((row) => row.downloadedAt.getTime()).sort((a, b) => a - b));

    for (const book of books) {
      const own = counted.filter((row) => row.bookId === book.id);
      expect(book.downloadCount).toBe(own.length);
      expect(book.paidMilestones).toBe(Math.floor(own.length / MILESTONE_STEP));
      expect(book.firstDownloadDate).toEqual(own[0]?.downloadedAt ?? null);
      const bonusOwed = book.firstBook && own.length >= 2 && own[1]!.downloadedAt < DEFAULT_PROMO_CUTOFF;
      expect(book.firstBookBonusPaid).toBe(bonusOwed);
    }
    for (const user of users) {
      const theirBooks = books.filter((book) => book.authorId === user.id);
      expect(user.totalDownloads).toBe(theirBooks.reduce((sum, book) => sum + book.downloadCount, 0));
      const earned = payments.filter((payment) => payment.authorId === user.id).length;
      expect(user.totalEarnings).toBe(earned.toFixed(2));
    }
    expect(new Set(payments.map((payment) => payment.idempotencyKey)).size).toBe(payments.length);
    expect(payments.length).toBeGreaterThan(0);
  });

  it("gives every book its editions, some two or three, the book's row being its newest, and each download the edition current then", () => {
    const { books, editions, downloads } = generate(SIZES);
    const editionsOf = new Map(books.map((book) => [book.id, editions.filter((edition) => edition.bookId === book.id)]));
    for (const book of books) {
      const own = editionsOf.get(book.id)!;
      expect(own.map((edition) => edition.number)).toEqual(Array.from({ length: book.edition }, (_, index) => index + 1));
      expect(own[0]!.createdAt).toEqual(book.createdAt);
      expect(own.at(-1)).toMatchObject({ filePath: book.filePath, fileSize: book.fileSize, createdAt: book.updatedAt });
      expect(new Set(own.map((edition) => edition.filePath)).size).toBe(own.length);
    }
    const revised = books.filter((book) => book.edition > 1).length;
    expect(revised / books.length).toBeGreaterThan(0.05);
    expect(books.some((book) => book.edition === 3)).toBe(true);
    expect(new Set(editions.map((edition) => edition.id)).size).toBe(editions.length);
    for (const row of downloads) {
      const current = editionsOf.get(row.bookId)!.filter((edition) => edition.createdAt <= row.downloadedAt).at(-1)!;
      expect(row.edition).toBe(current.number);
    }
    expect(downloads.some((row) => (row.edition ?? 1) > 1)).toBe(true);
  });
});
