import { describe, expect, it } from "vitest";
import { migrationUnderTest } from "../../test/helpers/migration-under-test.ts";

const { client, migrateToBefore, migrateRest } = await migrationUnderTest("0018_one_first_book_per_author");

describe("migration 0017 (one first book per author)", () => {
  it("keeps each author's paid first book, else the earliest, and then refuses a second", async () => {
    await migrateToBefore();
    // Before, the admin's fix could mark several books of one author: Ana's second had its bonus paid.
    await client.exec(`
      insert into users (id, username, password) values
        ('00000000-0000-4000-8000-000000000001', 'ana', 'x'), ('00000000-0000-4000-8000-000000000002', 'bea', 'x');
      insert into books (title, language, author_id, file_name, file_path, file_size, mime_type, first_book, first_book_bonus_paid) values
        ('Ana 1', 'en', '00000000-0000-4000-8000-000000000001', 'a.pdf', 'a1.pdf', 1, 'application/pdf', true, false),
        ('Ana 2', 'en', '00000000-0000-4000-8000-000000000001', 'a.pdf', 'a2.pdf', 1, 'application/pdf', true, true),
        ('Bea 1', 'en', '00000000-0000-4000-8000-000000000002', 'b.pdf', 'b1.pdf', 1, 'application/pdf', true, false),
        ('Bea 2', 'en', '00000000-0000-4000-8000-000000000002', 'b.pdf', 'b2.pdf', 1, 'application/pdf', true, false),
        ('Bea 3', 'en', '00000000-0000-4000-8000-000000000002', 'b.pdf', 'b3.pdf', 1, 'application/pdf', false, false);
    `);

    await migrateRest();

    const { rows } = await client.query<{ title: string; first: boolean; paid: boolean }>(
      "select title, first_book as first, first_book_bonus_paid as paid from books order by id",
    );
    expect(rows).toEqual([
      { title: "Ana 1", first: false, paid: false },
      { title: "Ana 2", first: true, paid: true },
      { title: "Bea 1", first: true, paid: false },
      { title: "Bea 2", first: false, paid: false },
      { title: "Bea 3", first: false, paid: false },
    ]);
    await expect(client.exec("update books set first_book = true where title = 'Bea 3'")).rejects.toThrow(/books_one_first_book_per_author/);
  });
});
