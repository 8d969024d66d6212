import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Queryable } from "../db/client.ts";
import { openDatabase } from "../db/client.ts";
import { books, users } from "../db/schema.ts";
import { projectRoot } from "../paths.ts";
import { DiskStore } from "../storage/disk-store.ts";
import { fixture, illustratedPdf } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp } from "../../test/helpers/test-app.ts";
import { BOOK_MIME_TYPES } from "./file-types.ts";
import { fillBooksLackingCover } from "./covers-service.ts";

/**
 * Books as they were before covers were made: rows without cover or page count, their files stored. The
 * fixture PDF opens on body text; the other on a picture.
 */
async function insertOldBooks(db: Queryable, store: DiskStore) {
  const [author] = await db
    .insert(users)
    .values({ username: `old_${randomUUID().slice(0, 8)}`, email: null, password: "x", firstName: "Rosalía", lastName: "de Castro" })
    .returning();
  const stored = (name: string, extension: string) => {
    const file = `${randomUUID()}.${extension}`;
    copyFileSync(fixture(name), store.pathOf("books", file));
    return file;
  };
  const illustrated = `${randomUUID()}.pdf`;
  writeFileSync(store.pathOf("books", illustrated), await illustratedPdf());
  const old = { authorId: author!.id, fileName: "book", fileSize: 1, createdAt: new Date("2026-01-05T10:00:00Z") };
  return db
    .insert(books)
    .values([
      { ...old, title: "Cantares gallegos", filePath: stored("book.pdf", "pdf"), mimeType: BOOK_MIME_TYPES.pdf },
      { ...old, title: "Follas de outono", filePath: illustrated, mimeType: BOOK_MIME_TYPES.pdf },
      { ...old, title: "Follas novas", genre: "novela", filePath: stored("book.docx", "docx"), mimeType: BOOK_MIME_TYPES.docx },
      { ...old, title: "Broken", filePath: stored("hostile/header-only.pdf", "pdf"), mimeType: BOOK_MIME_TYPES.pdf },
    ])
    .returning({ id: books.id });
}

describe("filling the covers of books from before covers", () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it("gives each old book its cover and page count, once: a second run finds nothing", async () => {
    const [pdf, illustrated, docx, broken] = await insertOldBooks(testApp.database.db, testApp.store);
    const lines: string[] = [];
    const deps = { db: testApp.database.db, store: testApp.store };
    const first = await fillBooksLackingCover(deps, (id, _title, outcome) => lines.push(`${id} ${outcome.kind}`));
    expect(first).toEqual({ seen: 4, covers: 3, pageCounts: 2, unreadable: 1 });
    expect(lines).toEqual([`${pdf!.id} filled`, `${illustrated!.id} filled`, `${docx!.id} filled`, `${broken!.id} unreadable`]);
    const rows = await testApp.database.db.select().from(books);
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(pdf!.id)).toMatchObject({ pageCount: 1, coverSource: "generated", coverImageUrl: expect.stringMatching(/-600\.webp$/) });
    expect(byId.get(illustrated!.id)).toMatchObject({ pageCount: 2, coverSource: "first-page", coverImageUrl: expect.stringMatching(/-600\.webp$/) });
    expect(byId.get(docx!.id)).toMatchObject({ pageCount: null, coverSource: "generated", coverImageUrl: expect.stringMatching(/-600\.webp$/) });
    expect(byId.get(broken!.id)).toMatchObject({ pageCount: null, coverSource: null, coverImageUrl: null });

    const second = await fillBooksLackingCover(deps, () => {});
    // Only the unreadable PDF is looked at again, and it stays as it was.
    expect(second).toEqual({ seen: 1, covers: 0, pageCounts: 0, unreadable: 1 });
  });
});

// The command opens its own embedded database whatever the project's backend: on PostgreSQL it would run the same thing again.
describe.skipIf(process.env.PLUME_TEST_BACKEND === "postgres")("npm run covers:fill", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "plume-covers-fill-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const runCommand = () =>
    promisify(execFile)(process.execPath, ["--import", "tsx", join(projectRoot, "scripts", "covers-fill.ts")], {
      cwd: projectRoot,
      env: { ...process.env, NODE_ENV: "test", DATA_DIR: dataDir, DATABASE_URL: "" },
    }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout + error.stderr }),
    );

  it("fills an embedded database's old books and prints what it did; run again, it says so", async () => {
    const database = await openDatabase({ kind: "pglite", dataDir });
    let pdfId: number;
    try {
      await database.migrate();
      [{ id: pdfId }] = (await insertOldBooks(database.db, new DiskStore(join(dataDir, "uploads")))) as [{ id: number }];
    } finally {
      await database.close();
    }
    const first = await runCommand();
    expect(first.stdout).toContain(`Book ${pdfId} "Cantares gallegos": typographic cover, 1 page`);
    expect(first.stdout).toContain('"Follas de outono": cover from its first page, 2 pages');
    expect(first.stdout).toContain('"Follas novas": typographic cover');
    expect(first.stdout).toContain('"Broken": not readable as a PDF');
    expect(first.stdout).toContain("4 books looked at: 3 covers made, 2 page counts read, 1 PDFs not readable.");
    expect(first.code).toBe(2);

    const reopened = await openDatabase({ kind: "pglite", dataDir });
    try {
      const [row] = await reopened.db.select().from(books).where(eq(books.id, pdfId));
      expect(row).toMatchObject({ pageCount: 1, coverSource: "generated" });
    } finally {
      await reopened.close();
    }
    const second = await runCommand();
    expect(second.stdout).toContain("1 books looked at: 0 covers made, 0 page counts read, 1 PDFs not readable.");
  }, 120_000);
});
