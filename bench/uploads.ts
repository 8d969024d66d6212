import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { BOOK_FILE_MAX_BYTES } from "../shared/books.ts";
import { type TestS3Server, startS3Server } from "../test/helpers/s3-server.ts";
import { type Benchmark, type BenchmarkOptions, type BenchmarkResult, judged } from "./lib/benchmark.ts";
import { MEGABYTE } from "./lib/download-load.ts";
import { writeLargePdf } from "./lib/large-pdf.ts";
import { type UploadAnswer, registerAccounts, uploadBook } from "./lib/plume-client.ts";
import { type MemoryFigures, sampleMemory } from "./lib/process-memory.ts";
import type { ReadyProcess } from "./lib/ready-process.ts";
import { CACHE_DIR, TRANSFERS_DATABASE_URL, coversDrawn, startTransferServer } from "./lib/transfer-server.ts";

/**
 * Eight authors publishing a large book each at the same moment through the real upload call, the
 * server's resident memory sampled throughout; then a book over the limit, which must be refused
 * with nothing kept. Once with files on disk, once in a bucket (s3rver in this process, on loopback).
 */

const AUTHORS = 8;
/**
 * The largest book the app takes. The quick run sends 10 MB books: eight of them held whole would still
 * be 80 MB, well over the memory budget, while bucket uploads (s3rver, in this process) stop taking most
 * of its time.
 */
const FILE_BYTES = { full: BOOK_FILE_MAX_BYTES, quick: 10 * MEGABYTE };
/** Over the 50 MB limit by as much as a real too-large book would be. */
const OVERSIZE_BYTES = 60 * MEGABYTE;
const BUDGET = { memoryGrowthMegabytes: 32 };

type Storage = "disk" | "s3";

/** What the server keeps: books and covers (on disk or in the bucket), uploads in flight under DATA_DIR/uploads/tmp, and rows in the books table. */
interface Stored {
  bookFiles: number;
  coverFiles: number;
  temporaryFiles: number;
  bookRows: number;
}

/** Counts what is stored in either place: the bucket's objects by prefix, or the folders on disk. */
async function storedBy(uploadsDir: string, bucket: TestS3Server | undefined): Promise<Stored> {
  const client = new pg.Client({ connectionString: TRANSFERS_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: number }>("select count(*)::int as count from books");
    const keys = bucket ? await bucket.keys() : [];
    const stored = (kind: "books" | "covers") => (bucket ? keys.filter((key) => key.startsWith(`${kind}/`)).length : readdirSync(join(uploadsDir, kind)).length);
    return { bookFiles: stored("books"), coverFiles: stored("covers"), temporaryFiles: readdirSync(join(uploadsDir, "tmp")).length, bookRows: rows[0]!.count };
  } finally {
    await client.end();
  }
}

const itemsAdded = (before: Stored, after: Stored) =>
  after.bookFiles - before.bookFiles + (after.coverFiles - before.coverFiles) + after.temporaryFiles + (after.bookRows - before.bookRows);

function expectStatus(answer: UploadAnswer, status: number, what: string): void {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}, not ${status}: ${answer.body.slice(0, 300)}`);
}

interface Burst {
  seconds: number;
  memory: MemoryFigures;
}

/** Every author publishes the book at the same moment; the server's resident memory is sampled throughout. */
async function uploadAtOnce(server: ReadyProcess, authors: string[], bookFile: string, round: number): Promise<Burst> {
  const memory = sampleMemory(server.pid);
  const started = performance.now();
  const answers = await Promise.all(authors.map((cookie, index) => uploadBook(server.url, cookie, { title: `Round ${round}, book ${index + 1}`, filePath: bookFile })));
  const seconds = (performance.now() - started) / 1000;
  const figures = memory.stop();
  answers.forEach((answer, index) => expectStatus(answer, 201, `Upload ${index + 1} of round ${round}`));
  return { seconds, memory: figures };
}

const megabytes = (bytes: number) => (bytes / MEGABYTE).toFixed(0);

interface StorageRun {
  first: Burst;
  second: Burst;
  refusalSeconds: number;
  refusalCode: string | undefined;
  leftBehind: number;
  published: Stored;
  afterRefusal: Stored;
}

const throughputOf = (burst: Burst, fileBytes: number) => (AUTHORS * fileBytes) / MEGABYTE / burst.seconds;

/** Both rounds of uploads and the refusal, on a fresh server storing its files on `storage`. */
async function runOn(storage: Storage, files: { book: string; bookBytes: number; oversize: string }, log: (line: string) => void): Promise<StorageRun> {
  const bucket = storage === "s3" ? await startS3Server() : undefined;
  try {
    const { server, uploadsDir } = await startTransferServer(storage === "s3" ? "uploads-s3" : "uploads", bucket?.env);
    try {
      const authors = await registerAccounts(server.url, "author", AUTHORS);
      // The first uploads after a start grow the allocator's heap once (buffers read off the sockets wait
      // for a garbage collection), and their covers are the first images the process encodes (libvips
      // starts its threads); the second round, once those are drawn, shows what a running server needs.
      const first = await uploadAtOnce(server, authors, files.book, 1);
      await coversDrawn();
      const second = await uploadAtOnce(server, authors, files.book, 2);
      await coversDrawn();
      const published = await storedBy(uploadsDir, bucket);
      if (published.bookRows !== 2 * AUTHORS || published.bookFiles !== 2 * AUTHORS || published.temporaryFiles !== 0) {
        throw new Error(`After ${2 * AUTHORS} uploads the server (${storage}) holds ${JSON.stringify(published)}`);
      }
      for (const [name, burst] of [["first", first], ["second", second]] as const) {
        log(`${storage}, ${name} round, ${AUTHORS} uploads at once: ${throughputOf(burst, files.bookBytes).toFixed(0)} MB/s; resident memory ${megabytes(burst.memory.beforeBytes)} → ${megabytes(burst.memory.peakBytes)} MB`);
      }

      const refusalStarted = performance.now();
      const refusal = await uploadBook(server.url, authors[0]!, { title: "Too large", filePath: files.oversize });
      const refusalSeconds = (performance.now() - refusalStarted) / 1000;
      expectStatus(refusal, 413, `A ${OVERSIZE_BYTES / MEGABYTE} MB upload`);
      const { code } = JSON.parse(refusal.body) as { code?: string };
      if (code !== "file_too_large") throw new Error(`The ${OVERSIZE_BYTES / MEGABYTE} MB upload was refused with code ${code}, not file_too_large`);
      const afterRefusal = await storedBy(uploadsDir, bucket);
      log(`${storage}, a ${OVERSIZE_BYTES / MEGABYTE} MB upload: 413 ${code} in ${refusalSeconds.toFixed(2)} s; ${JSON.stringify(published)} before, ${JSON.stringify(afterRefusal)} after`);
      return { first, second, refusalSeconds, refusalCode: code, leftBehind: itemsAdded(published, afterRefusal), published, afterRefusal };
    } finally {
      await server.stop();
    }
  } finally {
    await bucket?.close();
  }
}

const memoryNote = (burst: Burst) => `${megabytes(burst.memory.beforeBytes)} MB before, ${megabytes(burst.memory.peakBytes)} MB at the highest`;

/** One storage's figures: disk's keep the names they always had, the bucket's are named uploads.s3.…. */
function resultsFor(storage: Storage, measured: StorageRun, fileBytes: number): BenchmarkResult[] {
  const sizeNote = `${fileBytes / MEGABYTE} MB PDF each`;
  const prefix = storage === "disk" ? "uploads" : "uploads.s3";
  const where = storage === "disk" ? "files on disk" : "files in a bucket (s3rver on loopback)";
  const { first, second } = measured;
  return [
    judged({ name: `${prefix}.8-at-once.throughput`, figure: throughputOf(second, fileBytes), unit: "MB/s", peers: [], budgets: [], note: `${AUTHORS} signed-in authors, ${sizeNote}; ${where}` }),
    judged({
      name: `${prefix}.8-at-once.memory-growth`,
      figure: second.memory.growthBytes / MEGABYTE,
      unit: "MB",
      peers: [],
      budgets: [{ kind: "at-most", limit: BUDGET.memoryGrowthMegabytes }],
      note: `Plume's resident memory ${memoryNote(second)}; ${sizeNote}; ${where}`,
    }),
    judged({
      name: `${prefix}.8-at-once.first-memory-growth`,
      figure: first.memory.growthBytes / MEGABYTE,
      unit: "MB",
      peers: [],
      budgets: [],
      note: `the first round after a start (${throughputOf(first, fileBytes).toFixed(0)} MB/s): ${memoryNote(first)}, kept for the next rounds`,
    }),
    judged({
      name: `${prefix}.too-large.left-behind`,
      figure: measured.leftBehind,
      unit: "items",
      peers: [],
      budgets: [{ kind: "at-most", limit: 0 }],
      note: `a ${OVERSIZE_BYTES / MEGABYTE} MB book: 413 file_too_large after ${measured.refusalSeconds.toFixed(2)} s; book rows, book, cover and temporary files counted before and after`,
    }),
  ];
}

async function run({ quick, log }: BenchmarkOptions) {
  const fileBytes = FILE_BYTES[quick ? "quick" : "full"];
  const workDir = join(CACHE_DIR, "uploads");
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const files = { book: join(workDir, "book.pdf"), bookBytes: fileBytes, oversize: join(workDir, "too-large.pdf") };
  writeLargePdf(files.book, fileBytes);
  writeLargePdf(files.oversize, OVERSIZE_BYTES);

  // One after the other: each server has the machine to itself.
  const disk = await runOn("disk", files, log);
  const s3 = await runOn("s3", files, log);
  return {
    results: [...resultsFor("disk", disk, fileBytes), ...resultsFor("s3", s3, fileBytes)],
    context: { authors: AUTHORS, fileBytes, oversizeBytes: OVERSIZE_BYTES, disk, s3 },
  };
}

export const benchmark: Benchmark = { name: "uploads", run };
