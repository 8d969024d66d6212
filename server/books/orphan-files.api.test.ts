import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coverVariantName } from "../../shared/covers.ts";
import type { Database } from "../db/client.ts";
import { books, users } from "../db/schema.ts";
import { DiskStore } from "../storage/disk-store.ts";
import { openTestDatabase } from "../../test/helpers/test-database.ts";
import { coverUrlOf } from "./cover-images.ts";
import { removeOrphanFiles } from "./orphan-files.ts";

let database: Database;
let uploadsDir: string;
let store: DiskStore;
beforeAll(async () => {
  database = await openTestDatabase();
  uploadsDir = mkdtempSync(join(tmpdir(), "plume-orphans-"));
  store = new DiskStore(uploadsDir);
});
afterAll(async () => {
  await database?.close();
  rmSync(uploadsDir, { recursive: true, force: true });
});

const coverNames = (id: string) => [200, 400, 600].map((width) => coverVariantName(id, width));

const HOUR = 60 * 60 * 1000;
const twoHoursAgo = () => new Date(Date.now() - 2 * HOUR);

/** Writes a file last modified at `at`, as one kept then would be. */
function writeAt(path: string, data: string, at: Date) {
  writeFileSync(path, data);
  utimesSync(path, at, at);
}

/** A book file and its three cover sizes on disk; the row pointing at them is the caller's to write (or not). */
function storedFiles(at = twoHoursAgo()) {
  const bookFile = `${randomUUID()}.pdf`;
  const coverId = randomUUID();
  writeAt(store.pathOf("books", bookFile), "%PDF-", at);
  for (const name of coverNames(coverId)) writeAt(store.pathOf("covers", name), "RIFF", at);
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

    expect(await removeOrphanFiles(database.db, store, new Date(Date.now() - HOUR))).toBe(8);

    expect(readdirSync(join(uploadsDir, "books")).sort()).toEqual([live.bookFile, "README.txt"].sort());
    expect(readdirSync(join(uploadsDir, "covers")).sort()).toEqual(coverNames(live.coverId).sort());
  });

  it("leaves files younger than the grace period: another process may be committing their row right now", async () => {
    // Kept a moment ago by another server on the same files, its row not yet committed.
    const inFlight = storedFiles(new Date());
    const orphan = storedFiles();
    const tempInFlight = store.temp.newPath();
    writeFileSync(tempInFlight, "%PDF- half");
    const tempLeft = store.temp.newPath();
    writeAt(tempLeft, "%PDF- crashed", twoHoursAgo());

    const sweptBefore = new Date(Date.now() - HOUR);
    expect(await store.temp.purge(sweptBefore)).toBe(1);
    expect(await removeOrphanFiles(database.db, store, sweptBefore)).toBe(4);

    expect(readdirSync(join(uploadsDir, "books"))).toContain(inFlight.bookFile);
    expect(readdirSync(join(uploadsDir, "books"))).not.toContain(orphan.bookFile);
    expect(readdirSync(join(uploadsDir, "covers")).sort()).toEqual(expect.arrayContaining(coverNames(inFlight.coverId)));
    expect(readdirSync(store.temp.dir)).toEqual([tempInFlight.slice(store.temp.dir.length + 1)]);
  });
});
