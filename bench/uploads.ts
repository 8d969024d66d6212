import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { BOOK_FILE_MAX_BYTES } from "../shared/books.ts";
import { type Benchmark, type BenchmarkOptions, judged } from "./lib/benchmark.ts";
import { MEGABYTE } from "./lib/download-load.ts";
import { writeLargePdf } from "./lib/large-pdf.ts";
import { type UploadAnswer, registerAccounts, uploadBook } from "./lib/plume-client.ts";
import { type MemoryFigures, sampleMemory } from "./lib/process-memory.ts";
import type { ReadyProcess } from "./lib/ready-process.ts";
import { CACHE_DIR, TRANSFERS_DATABASE_URL, coversDrawn, startTransferServer } from "./lib/transfer-server.ts";

/**
 * Eight authors publishing a large book each at the same moment through the real upload call, the
 * server's resident memory sampled throughout; then a book over the limit, which must be refused
 * with nothing kept.
 */

const AUTHORS = 8;
/** The largest book the app takes. Two rounds of eight take seconds: the quick run is the full run. */
const FILE_BYTES = BOOK_FILE_MAX_BYTES;
/** Over the 50 MB limit by as much as a real too-large book would be. */
const OVERSIZE_BYTES = 60 * MEGABYTE;
const BUDGET = { memoryGrowthMegabytes: 32 };

/** What the server keeps: files under DATA_DIR/uploads and rows in the books table. */
interface Stored {
  bookFiles: number;
  coverFiles: number;
  temporaryFiles: number;
  bookRows: number;
}

async function storedBy(uploadsDir: string): Promise<Stored> {
  const client = new pg.Client({ connectionString: TRANSFERS_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: number }>("select count(*)::int as count from books");
    const filesIn = (folder: string) => readdirSync(join(uploadsDir, folder)).length;
    return { bookFiles: filesIn("books"), coverFiles: filesIn("covers"), temporaryFiles: filesIn("tmp"), bookRows: rows[0]!.count };
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

async function run({ log }: BenchmarkOptions) {
  const sizeNote = `${FILE_BYTES / MEGABYTE} MB PDF each`;
  const workDir = join(CACHE_DIR, "uploads");
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const bookFile = join(workDir, "book.pdf");
  const oversizeFile = join(workDir, "too-large.pdf");
  writeLargePdf(bookFile, FILE_BYTES);
  writeLargePdf(oversizeFile, OVERSIZE_BYTES);

  const { server, uploadsDir } = await startTransferServer("uploads");
  try {
    const authors = await registerAccounts(server.url, "author", AUTHORS);
    // The first uploads after a start grow the allocator's heap once (buffers read off the sockets wait
    // for a garbage collection), and their covers are the first images the process encodes (libvips
    // starts its threads); the second round, once those are drawn, shows what a running server needs.
    const first = await uploadAtOnce(server, authors, bookFile, 1);
    await coversDrawn();
    const second = await uploadAtOnce(server, authors, bookFile, 2);
    await coversDrawn();
    const published = await storedBy(uploadsDir);
    if (published.bookRows !== 2 * AUTHORS || published.bookFiles !== 2 * AUTHORS || published.temporaryFiles !== 0) {
      throw new Error(`After ${2 * AUTHORS} uploads the server holds ${JSON.stringify(published)}`);
    }
    const throughputOf = (burst: Burst) => (AUTHORS * FILE_BYTES) / MEGABYTE / burst.seconds;
    for (const [name, burst] of [["first", first], ["second", second]] as const) {
      log(`${name} round, ${AUTHORS} uploads at once: ${throughputOf(burst).toFixed(0)} MB/s; resident memory ${megabytes(burst.memory.beforeBytes)} → ${megabytes(burst.memory.peakBytes)} MB`);
    }

    const refusalStarted = performance.now();
    const refusal = await uploadBook(server.url, authors[0]!, { title: "Too large", filePath: oversizeFile });
    const refusalSeconds = (performance.now() - refusalStarted) / 1000;
    expectStatus(refusal, 413, `A ${OVERSIZE_BYTES / MEGABYTE} MB upload`);
    const { code } = JSON.parse(refusal.body) as { code?: string };
    if (code !== "file_too_large") throw new Error(`The ${OVERSIZE_BYTES / MEGABYTE} MB upload was refused with code ${code}, not file_too_large`);
    const afterRefusal = await storedBy(uploadsDir);
    const leftBehind = itemsAdded(published, afterRefusal);
    log(`a ${OVERSIZE_BYTES / MEGABYTE} MB upload: 413 ${code} in ${refusalSeconds.toFixed(2)} s; ${JSON.stringify(published)} before, ${JSON.stringify(afterRefusal)} after`);

    const memoryNote = (burst: Burst) => `${megabytes(burst.memory.beforeBytes)} MB before, ${megabytes(burst.memory.peakBytes)} MB at the highest`;
    return {
      results: [
        judged({ name: "uploads.8-at-once.throughput", figure: throughputOf(second), unit: "MB/s", peers: [], budgets: [], note: `${AUTHORS} signed-in authors, ${sizeNote}` }),
        judged({
          name: "uploads.8-at-once.memory-growth",
          figure: second.memory.growthBytes / MEGABYTE,
          unit: "MB",
          peers: [],
          budgets: [{ kind: "at-most", limit: BUDGET.memoryGrowthMegabytes }],
          note: `Plume's resident memory ${memoryNote(second)}; ${sizeNote}`,
        }),
        judged({
          name: "uploads.8-at-once.first-memory-growth",
          figure: first.memory.growthBytes / MEGABYTE,
          unit: "MB",
          peers: [],
          budgets: [],
          note: `the first round after a start (${throughputOf(first).toFixed(0)} MB/s): ${memoryNote(first)}, kept for the next rounds`,
        }),
        judged({
          name: "uploads.too-large.left-behind",
          figure: leftBehind,
          unit: "items",
          peers: [],
          budgets: [{ kind: "at-most", limit: 0 }],
          note: `a ${OVERSIZE_BYTES / MEGABYTE} MB book: 413 file_too_large after ${refusalSeconds.toFixed(2)} s; book rows, book, cover and temporary files counted before and after`,
        }),
      ],
      context: { authors: AUTHORS, fileBytes: FILE_BYTES, oversizeBytes: OVERSIZE_BYTES, rounds: { first, second }, refusalSeconds, published, afterRefusal },
    };
  } finally {
    await server.stop();
  }
}

export const benchmark: Benchmark = { name: "uploads", run };
