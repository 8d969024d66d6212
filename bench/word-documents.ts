import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BOOK_FILE_MAX_BYTES } from "../shared/books.ts";
import { inspectDoc } from "../server/books/word-documents.ts";
import { fixture } from "../test/helpers/book-fixtures.ts";
import { compoundFile, wordDocumentParts } from "../test/helpers/compound-files.ts";
import { type Benchmark, type BenchmarkOptions, type BenchmarkRun, judged } from "./lib/benchmark.ts";

/**
 * How long the upload's judgement of a DOC takes (docs/decisions/0050): it runs in the server, on
 * every DOC uploaded, so it must stay a matter of milliseconds for the largest book and for the
 * most directory entries the reader takes.
 */

/** The largest DOC the upload takes, less room for the compound file's own structures. */
const LARGEST_WORD_DOCUMENT_BYTES = BOOK_FILE_MAX_BYTES - 2 * 1024 * 1024;
/** Near the reader's bound of 32,768 directory entries, each a small stream in the mini stream. */
const MANY_STREAMS = 30_000;
const BUDGET_MS = { largest: 50, manyStreams: 500 };

async function medianMs(path: string, runs: number): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const start = process.hrtime.bigint();
    const verdict = await inspectDoc(path);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (verdict !== null) throw new Error(`${path} was judged ${verdict}; the benchmark measures sound documents`);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

async function run({ quick, log }: BenchmarkOptions): Promise<BenchmarkRun> {
  const scratch = mkdtempSync(join(tmpdir(), "plume-bench-doc-"));
  try {
    const runs = quick ? 5 : 21;
    const largest = join(scratch, "largest.doc");
    writeFileSync(largest, compoundFile(wordDocumentParts({ wordDocumentBytes: LARGEST_WORD_DOCUMENT_BYTES })).bytes);
    const many = join(scratch, "many-streams.doc");
    const streams = Array.from({ length: MANY_STREAMS }, (_, index) => ({ name: `s${index}`, data: Buffer.alloc(64, 1) }));
    writeFileSync(many, compoundFile(wordDocumentParts({ extra: [{ name: "Pool", children: streams }] })).bytes);
    log(`judging each DOC ${runs} times`);
    const figures = { fixture: await medianMs(fixture("book.doc"), runs), largest: await medianMs(largest, runs), manyStreams: await medianMs(many, runs) };
    return {
      results: [
        judged({ name: "word-documents.doc.fixture.time", figure: figures.fixture, unit: "ms", peers: [], budgets: [], note: "book.doc (10 KB), median" }),
        judged({
          name: "word-documents.doc.largest.time",
          figure: figures.largest,
          unit: "ms",
          peers: [],
          budgets: [{ kind: "at-most", limit: BUDGET_MS.largest }],
          note: `a generated ${Math.round(LARGEST_WORD_DOCUMENT_BYTES / 2 ** 20)} MB WordDocument stream, median`,
        }),
        judged({
          name: "word-documents.doc.many-streams.time",
          figure: figures.manyStreams,
          unit: "ms",
          peers: [],
          budgets: [{ kind: "at-most", limit: BUDGET_MS.manyStreams }],
          note: `${MANY_STREAMS.toLocaleString("en")} streams in one storage, median`,
        }),
      ],
      context: { runs, largestWordDocumentBytes: LARGEST_WORD_DOCUMENT_BYTES, manyStreams: MANY_STREAMS },
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export const benchmark: Benchmark = { name: "word-documents", run };
