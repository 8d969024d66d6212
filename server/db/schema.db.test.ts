import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test/helpers/test-database.ts";
import type { Database } from "./client.ts";
import { books, downloads, payments, reviews, users } from "./schema.ts";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

let sequence = 0;
async function insertAuthorAndBook() {
  sequence += 1;
  const [author] = await database.db
    .insert(users)
    .values({ username: `author${sequence}`, email: `author${sequence}@example.test`, password: "x" })
    .returning();
  const [book] = await database.db
    .insert(books)
    .values({ title: "Mañana", authorId: author!.id, fileName: "m.pdf", filePath: "m.pdf", fileSize: 10, mimeType: "application/pdf" })
    .returning();
  return { author: author!, book: book! };
}

/** The database itself refuses what the code must never write. */
describe("database constraints", () => {
  it("has the search extensions in both backends", async () => {
    const result = await database.db.execute(sql`select unaccent('Ficción') as plain, similarity('ficcion', 'ficcion') as same`);
    expect((result as { rows: unknown[] }).rows[0]).toMatchObject({ plain: "Ficcion", same: 1 });
  });

  it("gives the product's defaults to a new book", async () => {
    const { book } = await insertAuthorAndBook();
    expect(book).toMatchObject({
      language: "en",
      downloadCount: 0,
      rating: "0.00",
      reviewCount: 0,
      isPublished: true,
      firstBook: false,
      firstBookBonusPaid: false,
      paidMilestones: 0,
      firstDownloadDate: null,
      deletedAt: null,
    });
  });

  it("refuses a rating outside 1..5 and a second review of one book by one reader", async () => {
    const { author, book } = await insertAuthorAndBook();
    await expect(database.db.insert(reviews).values({ bookId: book.id, userId: author.id, rating: 6 })).rejects.toThrow();
    await expect(database.db.insert(reviews).values({ bookId: book.id, userId: author.id, rating: 0 })).rejects.toThrow();
    await database.db.insert(reviews).values({ bookId: book.id, userId: author.id, rating: 5 });
    await expect(database.db.insert(reviews).values({ bookId: book.id, userId: author.id, rating: 4 })).rejects.toThrow();
  });

  it("refuses a second payment with the same idempotency key", async () => {
    const { author, book } = await insertAuthorAndBook();
    const payment = { bookId: book.id, authorId: author.id, amount: "1.00", idempotencyKey: `book:${book.id}:milestone:1` };
    const [row] = await database.db.insert(payments).values(payment).returning();
    expect(row).toMatchObject({ status: "pending", currency: "PME" });
    await expect(database.db.insert(payments).values(payment)).rejects.toThrow();
  });

  it("counts a reader once per book at most", async () => {
    const { author, book } = await insertAuthorAndBook();
    await database.db.insert(downloads).values({ bookId: book.id, userId: author.id, counted: true });
    await database.db.insert(downloads).values({ bookId: book.id, userId: author.id, counted: false });
    await expect(database.db.insert(downloads).values({ bookId: book.id, userId: author.id, counted: true })).rejects.toThrow();
  });

  it("keeps books and payments from losing their author", async () => {
    const { author, book } = await insertAuthorAndBook();
    await database.db.insert(payments).values({ bookId: book.id, authorId: author.id, amount: "1.00", idempotencyKey: `k${book.id}` });
    await expect(database.db.execute(sql`delete from users where id = ${author.id}`)).rejects.toThrow();
    await expect(database.db.execute(sql`delete from books where id = ${book.id}`)).rejects.toThrow();
  });

  it("refuses unknown languages, payment statuses and negative counters", async () => {
    const { author, book } = await insertAuthorAndBook();
    await expect(database.db.execute(sql`update books set language = 'de' where id = ${book.id}`)).rejects.toThrow();
    await expect(database.db.execute(sql`update books set download_count = -1 where id = ${book.id}`)).rejects.toThrow();
    await expect(
      database.db.insert(payments).values({ bookId: book.id, authorId: author.id, amount: "1.00", idempotencyKey: `s${book.id}`, status: "lost" as "pending" }),
    ).rejects.toThrow();
  });
});
