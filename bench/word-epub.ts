import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { epubIdentifierOf } from "../server/books/word-epub.ts";
import type { WordEpubAnswer, WordEpubJob } from "../server/books/word-epub-process.ts";
import { loadConfig } from "../server/config.ts";
import { projectRoot } from "../server/paths.ts";
import { runCaged, scriptAt } from "../server/system/caged-job.ts";
import { fixture } from "../test/helpers/book-fixtures.ts";
import { messyDocx } from "../test/helpers/messy-docx.ts";
import { buildServerBundle, bundledScript } from "../test/helpers/server-bundle.ts";
import { type Benchmark, type BenchmarkOptions, type BenchmarkResult, type BenchmarkRun, judged } from "./lib/benchmark.ts";

/**
 * The EPUB Plume makes of a Word book (docs/decisions/0096): the time, CPU and peak memory of its cage
 * (server/books/word-epub-process.ts, as production bundles it, under production's caps), for the shared
 * fixture's DOCX and a generated 750-page DOCX with headings, lists, tables, images and footnotes
 * (test/helpers/messy-docx.ts), each with a cover. Background work: the figures say what one EPUB costs
 * the machine, not what a reader waits.
 */

const BUNDLE_FOLDER = join(projectRoot, "bench", ".cache", "word-epub-bundle");
/** 228,000 words, about 760 printed pages of 300: 45 chapters of 40 paragraphs of ~100 words, two of oddities, and one paragraph of ~40,000. */
const LONG_BOOK = { chapters: 47, paragraphsPerChapter: 40, pages: 750 };
/** WORD_VIEW_CPU_SECONDS's default, the cage's CPU cap (server/config.ts): an EPUB near it would fail on a busier machine. */
const CPU_CAP_SECONDS = 120;
const RUNS = { quick: 1, full: 3 };

interface Sample {
  label: string;
  path: string;
  note: string;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function run({ quick, log }: BenchmarkOptions): Promise<BenchmarkRun> {
  const scratch = mkdtempSync(join(tmpdir(), "plume-bench-word-epub-"));
  try {
    log("bundling the EPUB's child as production does");
    rmSync(BUNDLE_FOLDER, { recursive: true, force: true });
    await buildServerBundle(BUNDLE_FOLDER, []);
    const program = scriptAt(bundledScript(BUNDLE_FOLDER, "server/books/word-epub-process.ts"));
    // Production's caps, at the server's own priority: the figures are the work's, not the scheduler's.
    const limits = { ...loadConfig({ NODE_ENV: "test" }).wordViews.limits, niceness: 0 };
    const longPath = join(scratch, "long.docx");
    writeFileSync(longPath, messyDocx(LONG_BOOK));
    const samples: Sample[] = [
      { label: "fixture", path: fixture("book.docx"), note: `the shared fixture book.docx (${Math.round(statSync(fixture("book.docx")).size / 1024)} KB)` },
      { label: "750-pages", path: longPath, note: `a generated ${LONG_BOOK.pages}-page DOCX (${Math.round(statSync(longPath).size / 1024)} KB; headings, lists, tables, images, notes)` },
    ];
    const results: BenchmarkResult[] = [];
    const context: Record<string, unknown> = { runs: quick ? RUNS.quick : RUNS.full, limits };
    for (const sample of samples) {
      const runs: Array<{ ms: number; cpuSeconds: number; maxRssMegabytes: number; epubBytes: number; answer: WordEpubAnswer }> = [];
      for (let index = 0; index < (quick ? RUNS.quick : RUNS.full); index += 1) {
        const outputPath = join(scratch, `${sample.label}-${index}.epub`);
        const job: WordEpubJob = {
          path: sample.path,
          kind: "docx",
          outputPath,
          coverPath: fixture("cover.webp"),
          title: `Benchmark ${sample.label}`,
          creator: "Ana García",
          language: "en",
          identifier: epubIdentifierOf(sample.path),
          modified: new Date().toISOString(),
        };
        const started = performance.now();
        const made = await runCaged<WordEpubJob, WordEpubAnswer>(program, job, limits);
        runs.push({ ms: performance.now() - started, cpuSeconds: made.cpuSeconds, maxRssMegabytes: made.maxRssBytes / 2 ** 20, epubBytes: statSync(outputPath).size, answer: made.answer });
        rmSync(outputPath);
      }
      const last = runs.at(-1)!;
      log(`${sample.label}: ${Math.round(median(runs.map((each) => each.ms)))} ms, ${median(runs.map((each) => each.cpuSeconds)).toFixed(2)} s CPU, ${Math.round(Math.max(...runs.map((each) => each.maxRssMegabytes)))} MB peak, EPUB ${(last.epubBytes / 1024).toFixed(0)} KB in ${last.answer.chapters} files`);
      context[sample.label] = { note: sample.note, runs };
      results.push(
        judged({ name: `word-epub.${sample.label}.time`, figure: Math.round(median(runs.map((each) => each.ms))), unit: "ms", peers: [], budgets: [], note: `${sample.note}: DOCX to EPUB in its cage, process start included, median` }),
        judged({
          name: `word-epub.${sample.label}.cpu`,
          figure: Math.round(median(runs.map((each) => each.cpuSeconds)) * 100) / 100,
          unit: "s",
          peers: [],
          // Far below the cage's cap, so that a machine twice as slow still makes it.
          budgets: [{ kind: "at-most", limit: CPU_CAP_SECONDS / 4 }],
          note: "the cage's CPU time, median",
        }),
        judged({ name: `word-epub.${sample.label}.peak-memory`, figure: Math.round(Math.max(...runs.map((each) => each.maxRssMegabytes))), unit: "MB", peers: [], budgets: [{ kind: "at-most", limit: limits.memoryMegabytes ?? Infinity }], note: "the cage's peak resident memory" }),
        judged({ name: `word-epub.${sample.label}.size`, figure: Math.round(last.epubBytes / 1024), unit: "KB", peers: [], budgets: [], note: `the EPUB, ${last.answer.chapters} content documents, ${last.answer.images} images and a cover` }),
      );
    }
    return { results, context };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export const benchmark: Benchmark = { name: "word-epub", run };
