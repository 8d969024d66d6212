import { describe, expect, it } from "vitest";
import { migrationUnderTest } from "../../test/helpers/migration-under-test.ts";

const { client, migrateToBefore, migrateRest } = await migrationUnderTest("0036_text_first_pdf_covers");

describe("migration 0036 (text-first PDF covers)", () => {
  it("records every cover Plume made of a PDF until then as its first page, and leaves the others as they were", async () => {
    await migrateToBefore();
    await client.exec(`
      insert into users (id, username, password) values ('00000000-0000-4000-8000-000000000001', 'ana', 'x');
      insert into books (title, language, author_id, file_name, file_path, file_size, mime_type, cover_image_url, cover_source) values
        ('PDF, Plume''s', 'en', '00000000-0000-4000-8000-000000000001', 'a.pdf', 'a.pdf', 1, 'application/pdf', '/covers/a-600.webp', 'generated'),
        ('PDF, author''s', 'en', '00000000-0000-4000-8000-000000000001', 'b.pdf', 'b.pdf', 1, 'application/pdf', '/covers/b-600.webp', 'author'),
        ('PDF, none yet', 'en', '00000000-0000-4000-8000-000000000001', 'c.pdf', 'c.pdf', 1, 'application/pdf', null, null),
        ('Word, Plume''s', 'en', '00000000-0000-4000-8000-000000000001', 'd.docx', 'd.docx', 1,
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document', '/covers/d-600.webp', 'generated');
    `);

    await migrateRest();

    const { rows } = await client.query<{ title: string; source: string | null }>("select title, cover_source as source from books order by id");
    expect(rows).toEqual([
      { title: "PDF, Plume's", source: "first-page" },
      { title: "PDF, author's", source: "author" },
      { title: "PDF, none yet", source: null },
      { title: "Word, Plume's", source: "generated" },
    ]);
    await expect(client.exec("update books set cover_source = 'drawn' where id = 1")).rejects.toThrow(/books_cover_source_known/);
  });
});
