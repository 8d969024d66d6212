import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coverVariantName } from "../../shared/covers.ts";
import type { Database } from "../db/client.ts";
import { books, users } from "../db/schema.ts";
import { FileStore } from "../storage/file-store.ts";
import { openTestDatabase } from "../../test/helpers/test-database.ts";
import { coverUrlOf } from "./cover-images.ts";
import { removeOrphanFiles } from "./orphan-files.ts";

let database: Database;
let uploadsDir: string;
let store: FileStore;
beforeAll(async () => {
  database = await openTestDatabase();
  uploadsDir = mkdtempSync(join(tmpdir(), "plume-orphans-"));
  store = new FileStore(uploadsDir);
});
afterAll(async () => {
  await database?.close();
  rmSync(uploadsDir, { recursive: true, force: true });
});

const coverNames = (id: string) => [200, 400, 600].map((width) => coverVariantName(id, width));

/** A book file and its three cover sizes on disk; the row pointing at them is the caller's to write (or not). */
function storedFiles() {
  const bookFile = `${randomUUID()}.pdf`;
  const coverId = randomUUID();
  writeFileSync(store.pathOf("books", bookFile), "%PDF-");
  for (const name of coverNames(coverId)) writeFileSync(store.pathOf("covers", name), "RIFF");
  return { bookFile, coverId, coverUrl: coverUrlOf(coverVariantName(coverId, 600)) };
}

describe("removeOrphanFiles (run at start)", () => {
  it("removes the files of interrupted uploads and deletes, and keeps every file of a live book and anything not its own", async () => {
    const [author] = await database.db.insert(users).values({ username: "orphans_author", password: "x" }).returning();
    const bookRow = (files: ReturnType<typeof storedFiles>, deletedAt: Date | null = null) => ({
      title: "Kept",
      authorId: author!.id,
      fileName: "kept.pdf",
      filePath: files.bookFile,
      fileSize: 5,
      mimeType: "application/pdf",
      coverImageUrl: files.coverUrl,
      deletedAt,
    });
    const live = storedFiles();
    const deleted = storedFiles();
    await database.db.insert(books).values([bookRow(live), bookRow(deleted, new Date())]);
    // An upload killed after its files were kept and before its row was committed.
    storedFiles();
    writeFileSync(join(uploadsDir, "books", "README.txt"), "an operator's note");

    expect(await removeOrphanFiles(database.db, store)).toBe(8);

    expect(readdirSync(join(uploadsDir, "books")).sort()).toEqual([live.bookFile, "README.txt"].sort());
    expect(readdirSync(join(uploadsDir, "covers")).sort()).toEqual(coverNames(live.coverId).sort());
  });
});
