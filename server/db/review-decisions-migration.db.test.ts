import { describe, expect, it } from "vitest";
import { migrationUnderTest } from "../../test/helpers/migration-under-test.ts";

const { client, migrateToBefore, migrateRest } = await migrationUnderTest("0037_review_moderation_decisions");

const AUTHOR = "00000000-0000-4000-8000-000000000001";
const WRITER = "00000000-0000-4000-8000-000000000002";
const ADMIN = "00000000-0000-4000-8000-000000000003";

describe("migration 0037 (a review's removal is a moderation decision)", () => {
  it("gives every removed review its decision, on a notice when one it upheld exists, and keeps the review's state as the decision in force", async () => {
    await migrateToBefore();
    await client.exec(`
      insert into users (id, username, password) values ('${AUTHOR}', 'author', 'x'), ('${WRITER}', 'writer', 'x'), ('${ADMIN}', 'admin', 'x');
      insert into books (id, title, language, author_id, file_name, file_path, file_size, mime_type)
        overriding system value values (1, 'Un libro', 'es', '${AUTHOR}', 'a.pdf', 'a.pdf', 1, 'application/pdf'),
                                       (2, 'Otro libro', 'es', '${AUTHOR}', 'b.pdf', 'b.pdf', 1, 'application/pdf'),
                                       (3, 'Un tercero', 'es', '${AUTHOR}', 'c.pdf', 'c.pdf', 1, 'application/pdf');
      insert into reviews (id, book_id, user_id, rating, comment, removed_at, removal_ground, removal_facts, removed_by) overriding system value values
        (1, 1, '${WRITER}', 1, 'Reported and removed.', '2026-11-01T10:00:00Z', 'terms-spam', 'It advertises a shop.', '${ADMIN}'),
        (2, 2, '${WRITER}', 2, 'Removed on the admin''s own look.', '2026-11-02T10:00:00Z', 'terms-hate-violence', 'It insults a group.', '${ADMIN}'),
        (3, 3, '${WRITER}', 5, 'Never removed.', null, null, null, null);
      insert into notices (category, review_id, account_id, url, explanation, reporter_name, reporter_email, language, status, closed_at, closing_facts) values
        ('spam', 1, '${WRITER}', 'http://x/books/1', 'An advertisement.', 'Ana', 'ana@example.test', 'en', 'actioned', '2026-11-01T10:00:00Z', 'It advertises a shop.'),
        ('spam', 3, '${WRITER}', 'http://x/books/3', 'An advertisement.', 'Ana', 'ana@example.test', 'en', 'dismissed', '2026-11-03T10:00:00Z', 'Nothing wrong with it.'),
        ('spam', null, '${WRITER}', 'http://x/books/3', 'An advertisement.', 'Ana', 'ana@example.test', 'en', 'dismissed', '2026-11-04T10:00:00Z', 'The review was deleted by its writer.');
    `);

    await migrateRest();

    const { rows: decisions } = await client.query(
      "select id, action, book_id, review_id, account_id, ground, basis, facts, decided_by, created_at from moderation_decisions order by review_id",
    );
    expect(decisions).toEqual([
      {
        id: expect.any(Number),
        action: "remove-review",
        book_id: 1,
        review_id: 1,
        account_id: WRITER,
        ground: "terms-spam",
        basis: "notice",
        facts: "It advertises a shop.",
        decided_by: ADMIN,
        created_at: new Date("2026-11-01T10:00:00Z"),
      },
      expect.objectContaining({ action: "remove-review", book_id: 2, review_id: 2, ground: "terms-hate-violence", basis: "own-initiative", facts: "It insults a group." }),
    ]);
    const { rows: reviews } = await client.query<{ id: number; moderation_decision_id: number | null }>("select id, moderation_decision_id from reviews order by id");
    expect(reviews).toEqual([
      { id: 1, moderation_decision_id: (decisions[0] as { id: number }).id },
      { id: 2, moderation_decision_id: (decisions[1] as { id: number }).id },
      { id: 3, moderation_decision_id: null },
    ]);
    const { rows: notices } = await client.query<{ status: string; decision_id: number | null }>("select status, decision_id from notices order by id");
    expect(notices).toEqual([
      { status: "actioned", decision_id: (decisions[0] as { id: number }).id },
      { status: "dismissed", decision_id: null },
      { status: "writer-deleted", decision_id: null },
    ]);
    // The review keeps no copy of the statement, and only a review's decision names a review.
    const { rows: columns } = await client.query("select column_name from information_schema.columns where table_name = 'reviews' and column_name like 'remov%'");
    expect(columns).toEqual([]);
    await expect(
      client.exec(`insert into moderation_decisions (action, book_id, review_id, account_id, ground, basis, facts) values ('hide', 3, 3, '${AUTHOR}', 'terms-spam', 'notice', 'A book decision naming a review.')`),
    ).rejects.toThrow(/moderation_decisions_review_only_for_a_review/);
    await expect(
      client.exec(`insert into moderation_decisions (action, review_id, account_id, ground, basis, facts) values ('remove-review', 3, '${WRITER}', 'terms-spam', 'notice', 'A review decision without its book.')`),
    ).rejects.toThrow(/moderation_decisions_book_when_about_a_book/);
  });
});
