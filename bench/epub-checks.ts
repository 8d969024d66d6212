import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EPUB_CHECK_LIMITS, EPUB_CHECK_PROCESS } from "../server/books/epub-checks.ts";
import type { EpubCheckJob } from "../server/books/epub-check-process.ts";
import { type EpubVerdict, inspectEpub } from "../server/books/epub-documents.ts";
import { runCaged } from "../server/system/caged-job.ts";
import { fixture } from "../test/helpers/book-fixtures.ts";
import { buildEpub, opf, xhtml } from "../test/helpers/epub-builder.ts";
import { type Benchmark, type BenchmarkOptions, type BenchmarkRun, judged } from "./lib/benchmark.ts";

/**
 * What judging an uploaded EPUB costs (docs/decisions/0095): in its cage, as the upload runs it (the
 * child's start included), for the fixture and for a large book of many chapters; and the time the
 * same check holds an event loop when run in-process, which is why it runs in a cage.
 */

const LIMITS = { unpackedMaxBytes: 100 * 1024 * 1024, inflateRatioMax: 100, documentMaxBytes: 16 * 1024 * 1024 };
const CHAPTERS = 100;
/** Paragraphs of prose with the markup of a typical book (emphasis, notes, links): about 400 KB a chapter. */
const PARAGRAPHS_PER_CHAPTER = 1_000;
/** One chapter near DOCX_DOCUMENT_MAX_MB, the bound of any one part: what a single parse may hold. */
const LONGEST_CHAPTER_PARAGRAPHS = 45_000;
const BUDGET = { fixtureMs: 2_000, largeMs: 10_000, largeRssMb: 400 };

function words(seed: number, count: number): string {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return "abcdefghijklmnopqrstuvwxyz".slice(state % 20, (state % 20) + 3 + (state % 6));
  }).join(" ");
}

async function largeBook(chapters: number, paragraphsPerChapter: number): Promise<Buffer> {
  const parts: Record<string, string> = {};
  const items: string[] = [];
  for (let index = 1; index <= chapters; index += 1) {
    const paragraphs = Array.from({ length: paragraphsPerChapter }, (_, p) => `<p class="t">${words(index * 10_000 + p, 40)} <em>${words(p, 3)}</em> <a href="#n${p}">${p}</a></p>`).join("\n");
    parts[`OEBPS/text/c${index}.xhtml`] = xhtml(`<section><h1>Chapter ${index}</h1>${paragraphs}</section>`);
    items.push(`<item id="k${index}" href="text/c${index}.xhtml" media-type="application/xhtml+xml"/>`);
  }
  const spine = Array.from({ length: chapters }, (_, index) => `<itemref idref="k${index + 1}"/>`).join("");
  return buildEpub({ parts: { ...parts, "OEBPS/content.opf": opf({ items: items.join("") }).replace('<spine><itemref idref="c1"/></spine>', `<spine>${spine}</spine>`) } });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function caged(path: string, runs: number) {
  const measured: Array<{ ms: number; cpuSeconds: number; rssMb: number }> = [];
  for (let run = 0; run < runs; run += 1) {
    const start = process.hrtime.bigint();
    const { answer, cpuSeconds, maxRssBytes } = await runCaged<EpubCheckJob, EpubVerdict>(EPUB_CHECK_PROCESS, { path, limits: LIMITS }, EPUB_CHECK_LIMITS);
    if (answer.unsafe !== null) throw new Error(`${path} was judged ${answer.unsafe}: ${answer.detail}`);
    measured.push({ ms: Number(process.hrtime.bigint() - start) / 1e6, cpuSeconds, rssMb: maxRssBytes / 2 ** 20 });
  }
  return { ms: median(measured.map(({ ms }) => ms)), cpuSeconds: median(measured.map(({ cpuSeconds }) => cpuSeconds)), rssMb: Math.max(...measured.map(({ rssMb }) => rssMb)) };
}

/** The longest the event loop was held (between two turns) while the check ran in this process. */
async function longestBlockMs(path: string): Promise<number> {
  let longest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  await inspectEpub(path, LIMITS);
  clearInterval(timer);
  return Math.max(longest, performance.now() - last);
}

async function run({ quick, log }: BenchmarkOptions): Promise<BenchmarkRun> {
  const scratch = mkdtempSync(join(tmpdir(), "plume-bench-epub-"));
  try {
    const runs = quick ? 3 : 7;
    const large = join(scratch, "large.epub");
    const bytes = await largeBook(CHAPTERS, PARAGRAPHS_PER_CHAPTER);
    writeFileSync(large, bytes);
    const longest = join(scratch, "longest-chapter.epub");
    writeFileSync(longest, await largeBook(1, LONGEST_CHAPTER_PARAGRAPHS));
    log(`checking each EPUB ${runs} times in its cage (the large one ${(bytes.length / 2 ** 20).toFixed(1)} MB packed)`);
    const small = await caged(fixture("book.epub"), runs);
    const big = await caged(large, runs);
    const block = await longestBlockMs(large);
    const longestChapter = await caged(longest, runs);
    const longestBlock = await longestBlockMs(longest);
    return {
      results: [
        judged({ name: "epub-checks.fixture.time", figure: small.ms, unit: "ms", peers: [], budgets: [{ kind: "at-most", limit: BUDGET.fixtureMs }], note: "book.epub (18 KB) in its cage, the child's start included, median" }),
        judged({ name: "epub-checks.large.time", figure: big.ms, unit: "ms", peers: [], budgets: [{ kind: "at-most", limit: BUDGET.largeMs }], note: `${CHAPTERS} chapters of about 400 KB of XHTML in its cage, median` }),
        judged({ name: "epub-checks.large.cpu", figure: big.cpuSeconds, unit: "s", peers: [], budgets: [{ kind: "at-most", limit: EPUB_CHECK_LIMITS.cpuSeconds! }], note: "the child's CPU time, median" }),
        judged({ name: "epub-checks.large.rss", figure: big.rssMb, unit: "MB", peers: [], budgets: [{ kind: "at-most", limit: BUDGET.largeRssMb }], note: "the child's peak resident memory" }),
        judged({ name: "epub-checks.large.in-process-block", figure: block, unit: "ms", peers: [], budgets: [], note: "the longest the event loop would be held were the check run in the server (why it is caged)" }),
        judged({ name: "epub-checks.longest-chapter.time", figure: longestChapter.ms, unit: "ms", peers: [], budgets: [{ kind: "at-most", limit: BUDGET.largeMs }], note: "one chapter of about 14 MB of XHTML in its cage, median" }),
        judged({ name: "epub-checks.longest-chapter.rss", figure: longestChapter.rssMb, unit: "MB", peers: [], budgets: [{ kind: "at-most", limit: BUDGET.largeRssMb }], note: "the child's peak resident memory" }),
        judged({ name: "epub-checks.longest-chapter.in-process-block", figure: longestBlock, unit: "ms", peers: [], budgets: [], note: "the event loop held by one parse of that chapter, were it run in the server" }),
      ],
      context: { runs, chapters: CHAPTERS, largePackedBytes: bytes.length },
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export const benchmark: Benchmark = { name: "epub-checks", run };
