import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { BookFileType } from "../shared/books.ts";
import { fingerprintFile } from "../server/books/book-fingerprints.ts";
import { scriptAt } from "../server/system/caged-job.ts";
import { findLiveBookWithFile } from "../server/books/copies-repository.ts";
import { fingerprintAndCompare } from "../server/books/copies.ts";
import { BAND_COUNT, COPY_SIMILARITY_THRESHOLD, SIGNATURE_HASHES, type TextFingerprint, estimatedSimilarity } from "../server/books/text-fingerprints.ts";
import { type Database, openDatabase } from "../server/db/client.ts";
import { bookFingerprintBands, bookFingerprints, books, users } from "../server/db/schema.ts";
import { projectRoot } from "../server/paths.ts";
import { fixture } from "../test/helpers/book-fixtures.ts";
import { buildServerBundle, bundledScript } from "../test/helpers/server-bundle.ts";
import { proseBook, proseParagraph, seededRandom, textDocx, textPdf } from "../test/helpers/text-books.ts";
import { type Benchmark, type BenchmarkOptions, type BenchmarkRun, judged } from "./lib/benchmark.ts";

/**
 * Copies caught at upload (docs/decisions/0091): the precision and recall of the near-copy check on a
 * corpus of genuine books and altered copies made here (generated prose and the shared fixtures;
 * nothing is downloaded), and the time the check adds to an upload: the text read and fingerprinted
 * in its cage, as production bundles it, then the database's part (the exact-copy lookup, the LSH
 * lookup among many other books' bands, the comparison and the insert), rolled back each time.
 */

const BUNDLE_FOLDER = join(projectRoot, "bench", ".cache", "fingerprint-bundle");
// The check's time is mostly the child's start and pdf.js loading; a loaded machine stretches it (docs/performance.md).
const BUDGETS = { precision: 1, recall: 0.95, checkP95Ms: 5000 };
/** Other books' fingerprints in the database, so that the LSH lookup runs among as many rows as a real catalog's. */
const BACKGROUND_BOOKS = { quick: 2_000, full: 20_000 };

interface Sample {
  name: string;
  kind: BookFileType;
  bytes: Buffer | string;
  /** The original it copies (its index), or null for a genuine book. */
  copyOf: number | null;
  /** The original it is compared with in the figures by alteration: the one it copies, or the one it was made beside. */
  near: number;
  alteration: string;
}

/** The corpus: originals, each with its altered copies and two genuine books near it (another, and one quoting it). */
function corpus(originals: number): { originals: Sample[]; uploads: Sample[] } {
  const originalSamples: Sample[] = [{ name: "fixture-book.pdf", kind: "pdf", bytes: fixture("book.pdf"), copyOf: null, near: 0, alteration: "original" }];
  const uploads: Sample[] = [
    { name: "fixture-book.docx", kind: "docx", bytes: fixture("book.docx"), copyOf: 0, near: 0, alteration: "docx-of-pdf" },
    { name: "fixture-book.doc", kind: "doc", bytes: fixture("book.doc"), copyOf: 0, near: 0, alteration: "doc-of-pdf" },
  ];
  for (let index = 1; index <= originals; index += 1) {
    const chapters = proseBook(index);
    const paragraphs = chapters.flat();
    originalSamples.push({ name: `original-${index}.pdf`, kind: "pdf", bytes: textPdf(paragraphs), copyOf: null, near: index, alteration: "original" });
    const random = seededRandom(10_000 + index);
    const tenPercentChanged = paragraphs.map((paragraph, at) => (at % 10 === 3 ? proseParagraph(random) : paragraph));
    const reordered = [...chapters].reverse().flat();
    const retitled = [`A new title, ${index}`, "by someone else", ...paragraphs.slice(1)];
    uploads.push(
      { name: `resaved-${index}.pdf`, kind: "pdf", bytes: textPdf(paragraphs, { producer: "Another Writer 3.1", lineWidth: 78 }), copyOf: index, near: index, alteration: "re-saved-pdf" },
      { name: `docx-${index}.docx`, kind: "docx", bytes: textDocx(paragraphs), copyOf: index, near: index, alteration: "docx-of-pdf" },
      { name: `retitled-${index}.pdf`, kind: "pdf", bytes: textPdf(retitled, { producer: "Retitled" }), copyOf: index, near: index, alteration: "title-changed" },
      { name: `edited-${index}.docx`, kind: "docx", bytes: textDocx(tenPercentChanged), copyOf: index, near: index, alteration: "10%-paragraphs-changed" },
      { name: `reordered-${index}.pdf`, kind: "pdf", bytes: textPdf(reordered), copyOf: index, near: index, alteration: "chapters-reordered" },
    );
    // Genuine: a book of its own, and one that quotes two of the original's paragraphs.
    const other = proseBook(5_000 + index).flat();
    const quoting = [...other.slice(0, 10), paragraphs[4]!, paragraphs[5]!, ...other.slice(10)];
    uploads.push(
      { name: `distinct-${index}.pdf`, kind: "pdf", bytes: textPdf(other), copyOf: null, near: index, alteration: "distinct-book" },
      { name: `quoting-${index}.docx`, kind: "docx", bytes: textDocx(quoting), copyOf: null, near: index, alteration: "quotes-a-passage" },
    );
  }
  return { originals: originalSamples, uploads };
}

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
};

async function insertAccount(db: Database["db"], name: string): Promise<string> {
  const [account] = await db.insert(users).values({ username: name, password: "x" }).returning({ id: users.id });
  return account!.id;
}

const bookRow = (authorId: string, title: string) => ({ title, authorId, fileName: "b.pdf", filePath: `${title}.pdf`, fileSize: 1, mimeType: "application/pdf" });

/** Random fingerprints of other books, bands and all, written in bulk: the rows the LSH lookup searches among. */
async function seedBackground(db: Database["db"], authorId: string, count: number): Promise<void> {
  const random = seededRandom(7);
  const int32 = () => Math.floor(random() * 2 ** 32) - 2 ** 31;
  for (let start = 0; start < count; start += 500) {
    const rows = await db
      .insert(books)
      .values(Array.from({ length: Math.min(500, count - start) }, (_, at) => bookRow(authorId, `background-${start + at}`)))
      .returning({ id: books.id });
    await db.insert(bookFingerprints).values(rows.map(({ id }) => ({ bookId: id, signature: Array.from({ length: SIGNATURE_HASHES }, int32), wordCount: 50_000 })));
    await db.insert(bookFingerprintBands).values(rows.flatMap(({ id }) => Array.from({ length: BAND_COUNT }, (_, band) => ({ band, hash: int32(), bookId: id }))));
  }
}

class RolledBack extends Error {}

async function run({ quick, log }: BenchmarkOptions): Promise<BenchmarkRun> {
  const scratch = mkdtempSync(join(tmpdir(), "plume-bench-fingerprints-"));
  const database = await openDatabase({ kind: "pglite", dataDir: null });
  try {
    await database.migrate();
    const { db } = database;
    log("bundling the fingerprint's child as production does");
    rmSync(BUNDLE_FOLDER, { recursive: true, force: true });
    await buildServerBundle(BUNDLE_FOLDER, []);
    const program = scriptAt(bundledScript(BUNDLE_FOLDER, "server/books/text-fingerprint-process.ts"));
    const fingerprintOf = async (sample: Sample): Promise<{ fingerprint: TextFingerprint | null; ms: number }> => {
      const path = typeof sample.bytes === "string" ? sample.bytes : join(scratch, sample.name);
      if (typeof sample.bytes !== "string") writeFileSync(path, sample.bytes);
      const start = performance.now();
      const fingerprint = await fingerprintFile(path, sample.kind, undefined, program);
      return { fingerprint, ms: performance.now() - start };
    };

    const { originals, uploads } = corpus(quick ? 6 : 20);
    const background = quick ? BACKGROUND_BOOKS.quick : BACKGROUND_BOOKS.full;
    const [originalAuthor, copier] = [await insertAccount(db, "originals"), await insertAccount(db, "copier")];
    log(`${background} other books' fingerprints in the database`);
    await seedBackground(db, originalAuthor, background);
    log(`${originals.length} originals, then ${uploads.length} uploads checked against them`);
    const originalIds: number[] = [];
    const originalSignatures: Array<number[] | null> = [];
    for (const sample of originals) {
      const { fingerprint } = await fingerprintOf(sample);
      const book = await db.transaction(async (tx) => {
        const [inserted] = await tx.insert(books).values(bookRow(originalAuthor, sample.name)).returning();
        await fingerprintAndCompare(tx, inserted!, fingerprint);
        return inserted!;
      });
      originalIds.push(book.id);
      originalSignatures.push(fingerprint?.signature ?? null);
    }
    await db.execute(sql`analyze`);

    const outcomes: Array<{ sample: Sample; caught: boolean; similarity: number; fingerprintMs: number; databaseMs: number }> = [];
    for (const sample of uploads) {
      const { fingerprint, ms: fingerprintMs } = await fingerprintOf(sample);
      const start = performance.now();
      let caughtId: number | null = null;
      await db
        .transaction(async (tx) => {
          await findLiveBookWithFile(tx, "0".repeat(64), copier);
          const [inserted] = await tx.insert(books).values(bookRow(copier, sample.name)).returning();
          caughtId = (await fingerprintAndCompare(tx, inserted!, fingerprint))?.original.bookId ?? null;
          throw new RolledBack();
        })
        .catch((error: unknown) => {
          if (!(error instanceof RolledBack)) throw error;
        });
      const databaseMs = performance.now() - start;
      const nearSignature = originalSignatures[sample.near];
      const similarity = fingerprint?.signature && nearSignature ? estimatedSimilarity(fingerprint.signature, nearSignature) : 0;
      // A copy is caught when it is found to copy its own original; a genuine book, whenever it is flagged at all.
      const caught = sample.copyOf === null ? caughtId !== null : caughtId === originalIds[sample.copyOf];
      outcomes.push({ sample, caught, similarity, fingerprintMs, databaseMs });
    }

    const copies = outcomes.filter(({ sample }) => sample.copyOf !== null);
    const genuine = outcomes.filter(({ sample }) => sample.copyOf === null);
    const truePositives = copies.filter(({ caught }) => caught).length;
    const falsePositives = genuine.filter(({ caught }) => caught).length;
    const precision = truePositives + falsePositives === 0 ? 1 : truePositives / (truePositives + falsePositives);
    const recall = truePositives / copies.length;
    const totals = outcomes.map(({ fingerprintMs, databaseMs }) => fingerprintMs + databaseMs);
    const byAlteration: Record<string, { count: number; caught: number; minSimilarity: number; maxSimilarity: number }> = {};
    for (const { sample, caught, similarity } of outcomes) {
      const entry = (byAlteration[sample.alteration] ??= { count: 0, caught: 0, minSimilarity: 1, maxSimilarity: 0 });
      entry.count += 1;
      entry.caught += Number(caught);
      entry.minSimilarity = Math.min(entry.minSimilarity, similarity);
      entry.maxSimilarity = Math.max(entry.maxSimilarity, similarity);
    }
    for (const [alteration, entry] of Object.entries(byAlteration)) {
      log(`${alteration}: ${entry.caught}/${entry.count} caught, similarity ${entry.minSimilarity.toFixed(2)}–${entry.maxSimilarity.toFixed(2)}`);
    }
    const note = `${copies.length} altered copies, ${genuine.length} genuine books, threshold ${COPY_SIMILARITY_THRESHOLD}`;
    const ms = (values: number[], share: number) => Math.round(percentile(values, share));
    return {
      results: [
        judged({ name: "fingerprints.precision", figure: precision, unit: "ratio", peers: [], budgets: [{ kind: "at-least", limit: BUDGETS.precision }], note }),
        judged({ name: "fingerprints.recall", figure: recall, unit: "ratio", peers: [], budgets: [{ kind: "at-least", limit: BUDGETS.recall }], note }),
        judged({
          name: "fingerprints.check.median",
          figure: ms(totals, 0.5),
          unit: "ms",
          peers: [],
          budgets: [],
          note: `added to an upload: text read and fingerprinted in its cage, then the database's part among ${background.toLocaleString("en")} books`,
        }),
        judged({ name: "fingerprints.check.p95", figure: ms(totals, 0.95), unit: "ms", peers: [], budgets: [{ kind: "at-most", limit: BUDGETS.checkP95Ms }], note: "as above, 95th percentile" }),
        judged({ name: "fingerprints.database.p95", figure: ms(outcomes.map(({ databaseMs }) => databaseMs), 0.95), unit: "ms", peers: [], budgets: [], note: "the database's part alone, 95th percentile" }),
      ],
      context: {
        threshold: COPY_SIMILARITY_THRESHOLD,
        backgroundBooks: background,
        byAlteration,
        fingerprintMs: { median: ms(outcomes.map(({ fingerprintMs }) => fingerprintMs), 0.5), p95: ms(outcomes.map(({ fingerprintMs }) => fingerprintMs), 0.95) },
        databaseMs: { median: ms(outcomes.map(({ databaseMs }) => databaseMs), 0.5), p95: ms(outcomes.map(({ databaseMs }) => databaseMs), 0.95) },
      },
    };
  } finally {
    await database.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

export const benchmark: Benchmark = { name: "fingerprints", run };
