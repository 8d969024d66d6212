import { describe, expect, it } from "vitest";
import { migrationUnderTest } from "../../test/helpers/migration-under-test.ts";

const { client, migrateToBefore, migrateRest } = await migrationUnderTest("0038_older_edition_documents");

describe("migration 0038 (older editions' KOReader ids)", () => {
  it("gives the ids kept until then the book's current edition, and lets each edition keep its own", async () => {
    await migrateToBefore();
    await client.exec(`
      insert into users (id, username, password) values ('00000000-0000-4000-8000-000000000001', 'ana', 'x');
      insert into books (title, language, author_id, file_name, file_path, file_size, mime_type, edition) values
        ('First edition', 'en', '00000000-0000-4000-8000-000000000001', 'a.pdf', 'a.pdf', 1, 'application/pdf', 1),
        ('Third edition', 'en', '00000000-0000-4000-8000-000000000001', 'b.docx', 'b.docx', 1,
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 3);
      insert into book_documents (book_id, file, partial_md5) values
        (1, 'file', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'), (2, 'file', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'), (2, 'epub', 'cccccccccccccccccccccccccccccccc');
    `);

    await migrateRest();

    const { rows } = await client.query<{ book_id: number; file: string; edition: number }>("select book_id, file, edition from book_documents order by book_id, file");
    expect(rows).toEqual([
      { book_id: 1, file: "file", edition: 1 },
      { book_id: 2, file: "epub", edition: 3 },
      { book_id: 2, file: "file", edition: 3 },
    ]);
    await client.exec("insert into book_documents (book_id, file, edition, partial_md5) values (2, 'file', 1, 'dddddddddddddddddddddddddddddddd')");
    await expect(client.exec("insert into book_documents (book_id, file, edition, partial_md5) values (2, 'file', 0, 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')")).rejects.toThrow(/book_documents_edition_positive/);
  });
});
