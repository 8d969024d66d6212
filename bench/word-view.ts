import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { docxParts, zipPackage } from "../test/helpers/word-packages.ts";
import { type Benchmark, type BenchmarkOptions, judged } from "./lib/benchmark.ts";
import { type LoadFigures, type LoadRequest, measureInRounds } from "./lib/load.ts";
import { BEHIND_TLS_PROXY, BROWSER_ACCEPT_ENCODING, registerAccounts, uploadBook } from "./lib/plume-client.ts";
import { startPlumeServer } from "./lib/plume-server.ts";
import { recreatePostgresDatabase } from "./seed.ts";
import { CACHE_DIR, RESULTS_DIR } from "./lib/transfer-server.ts";

/**
 * The catalog while the largest Word book Plume accepts is made into its reading view (docs/decisions/0051):
 * the conversion runs in a cage, a child process at a lower priority, so the server's event loop keeps
 * answering. The book is a DOCX whose document.xml is just under the 16 MB that the upload accepts
 * (DOCX_DOCUMENT_MAX_MB), written as short runs of alternating formatting: mammoth's costliest shape
 * (its 16 MB of plain paragraphs convert in a sixth of the time). The catalog's first page is measured
 * quiet, then while the conversion runs; the conversion's time and the child's peak memory come from the
 * server's log.
 */
const DATABASE_URL = process.env.BENCH_WORD_VIEW_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/plume_bench_word_view";
const CONNECTIONS = 10;
/**
 * Quiet and converting slices alike: the median of the rounds is kept (others' work shares the machine).
 * The quick run converts a 4 MB document.xml, a quarter of the largest: its CPU time, against the cap
 * meant for the largest, still shows a conversion that fell off a cliff.
 */
const MODES = {
  full: { documentBytes: 16 * 2 ** 20 - 64 * 1024, plan: { rounds: 3, sliceSeconds: 4, warmupSeconds: 3 } },
  quick: { documentBytes: 4 * 2 ** 20, plan: { rounds: 1, sliceSeconds: 2, warmupSeconds: 1 } },
};
/** docs/performance.md: the catalog's p99 budget. */
const CATALOG_P99_BUDGET_MS = 50;
/** WORD_VIEW_CPU_SECONDS's default (server/config.ts). */
const CPU_CAP_SECONDS = 120;
/** The catalog's p99 while a view is made, over its p99 quiet, in the same run. */
const CONVERTING_VS_QUIET_P99 = 1.5;

/** Words drawn by a fixed generator: text that compresses like prose, not like one repeated line (the upload refuses a zip bomb). */
function wordsFrom(seed: number) {
  let state = seed;
  const syllables = ["la", "mar", "sol", "en", "tre", "os", "ca", "min", "do", "ri", "pa", "ver", "lu", "ne", "sa", "ti"];
  return () => {
    let word = "";
    state = (state * 1103515245 + 12345) % 2 ** 31;
    for (let count = 1 + (state % 3); count >= 0; count -= 1) {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      word += syllables[state % syllables.length];
    }
    return word;
  };
}

/** A DOCX whose document.xml is just under `documentBytes`, in runs of two words, bold and italic in turn, and a chapter every 200 paragraphs. */
function formattedDocx(documentBytes: number): Buffer {
  const word = wordsFrom(27);
  const head = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>';
  const tail = "</w:body></w:document>";
  const paragraphs: string[] = [];
  let length = head.length + tail.length;
  for (let index = 0; ; index += 1) {
    const paragraph =
      index % 200 === 0
        ? `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Chapter ${index / 200 + 1}</w:t></w:r></w:p>`
        : `<w:p>${Array.from({ length: 20 }, (_, run) => `<w:r><w:rPr>${run % 2 ? "<w:b/>" : "<w:i/>"}</w:rPr><w:t xml:space="preserve">${word()} ${word()} </w:t></w:r>`).join("")}</w:p>`;
    if (length + paragraph.length > documentBytes) break;
    paragraphs.push(paragraph);
    length += paragraph.length;
  }
  const document = head + paragraphs.join("") + tail;
  return zipPackage(docxParts().map((part) => (part.name === "word/document.xml" ? { ...part, data: document } : part)));
}

interface ViewMade {
  ms: number;
  cpuSeconds: number;
  maxRssMegabytes: number;
  pageCount: number;
}

/** The server's line saying the view was made (server/reading/word-views.ts), once it is there. */
function viewMadeIn(logFile: string): ViewMade | null {
  for (const line of readFileSync(logFile, "utf8").split("\n")) {
    if (!line.includes('"reading view made"')) continue;
    return JSON.parse(line) as ViewMade;
  }
  return null;
}

async function run({ quick, log }: BenchmarkOptions) {
  const { documentBytes, plan } = MODES[quick ? "quick" : "full"];
  const workDir = join(CACHE_DIR, "word-view");
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const bookFile = join(workDir, "largest.docx");
  const docx = formattedDocx(documentBytes);
  writeFileSync(bookFile, docx);
  log(`DOCX of ${(docx.length / 2 ** 20).toFixed(1)} MB, its document.xml ${(documentBytes / 2 ** 20).toFixed(2)} MB`);

  await recreatePostgresDatabase(DATABASE_URL);
  const logFile = join(RESULTS_DIR, "plume-word-view.log");
  rmSync(logFile, { force: true });
  const server = await startPlumeServer(
    { kind: "postgres", url: DATABASE_URL },
    { dataDir: join(workDir, "plume-data"), logFile, settings: { TRUST_PROXY: "loopback", LOG_LEVEL: "info" } },
  );
  let quietBefore: LoadFigures;
  let quietAfter: LoadFigures;
  let converting: LoadFigures;
  let made: ViewMade | null = null;
  let convertingThroughout: boolean;
  try {
    const baseUrl = server.url;
    const [[author], [reader]] = await Promise.all([registerAccounts(baseUrl, "author", 1), registerAccounts(baseUrl, "reader", 1)]);
    const upload = await uploadBook(baseUrl, author!, { title: "The largest Word book", filePath: bookFile });
    if (upload.status !== 201) throw new Error(`Publishing the book answered ${upload.status}: ${upload.body}`);
    const bookId = (JSON.parse(upload.body) as { id: number }).id;
    const catalog: LoadRequest = {
      url: `${baseUrl}/api/books?sort=newest`,
      headers: { ...BEHIND_TLS_PROXY, ...BROWSER_ACCEPT_ENCODING },
      serverPid: server.pid,
    };
    quietBefore = (await measureInRounds({ catalog }, { connections: CONNECTIONS, ...plan })).catalog!;
    log(`quiet: p50 ${quietBefore.p50Ms} ms, p99 ${quietBefore.p99Ms} ms, ${quietBefore.requestsPerSecond.toFixed(0)} req/s`);

    // The first opening starts the conversion; the catalog is measured while it runs.
    const opened = await fetch(`${baseUrl}/api/books/${bookId}/read`, { method: "POST", headers: { Cookie: reader!, ...BEHIND_TLS_PROXY } });
    if (opened.status !== 200) throw new Error(`Opening the book answered ${opened.status}`);
    converting = (await measureInRounds({ catalog }, { connections: CONNECTIONS, ...plan, warmupSeconds: 0 })).catalog!;
    convertingThroughout = viewMadeIn(logFile) === null;
    log(`converting: p50 ${converting.p50Ms} ms, p99 ${converting.p99Ms} ms, ${converting.requestsPerSecond.toFixed(0)} req/s (still converting at its end: ${convertingThroughout})`);

    for (const started = Date.now(); Date.now() - started < 180_000 && !made; await new Promise((resolve) => setTimeout(resolve, 500))) made = viewMadeIn(logFile);
    if (!made) throw new Error("The reading view was not made within 180 s");
    const view = await fetch(`${baseUrl}/api/books/${bookId}/read/view`, { headers: { Cookie: reader!, ...BEHIND_TLS_PROXY, ...BROWSER_ACCEPT_ENCODING } });
    if (view.status !== 200) throw new Error(`The view answered ${view.status}`);
    log(`view made in ${made.ms} ms (${made.cpuSeconds} s of CPU), the child's peak ${made.maxRssMegabytes} MB, ${made.pageCount} pages`);
    quietAfter = (await measureInRounds({ catalog }, { connections: CONNECTIONS, ...plan, warmupSeconds: 0 })).catalog!;
    log(`quiet again: p50 ${quietAfter.p50Ms} ms, p99 ${quietAfter.p99Ms} ms, ${quietAfter.requestsPerSecond.toFixed(0)} req/s`);
  } finally {
    await server.stop();
  }
  // Quiet before and after the conversion, so that neither side has the colder server.
  const quiet = { p50Ms: (quietBefore.p50Ms + quietAfter.p50Ms) / 2, p99Ms: (quietBefore.p99Ms + quietAfter.p99Ms) / 2 };
  const note = `${CONNECTIONS} connections, GET /api/books?sort=newest on a one-book catalog, median of ${plan.rounds} × ${plan.sliceSeconds} s${quick ? " (quick)" : ""}`;
  return {
    results: [
      judged({ name: "word-view.conversion-time", figure: made.ms, unit: "ms", peers: [], budgets: [], note: `a ${Math.round(documentBytes / 2 ** 20)} MB document.xml of short formatted runs, in the cage (WORD_VIEW_HEAP_MB=1536), by the clock: it stretches with the machine's load` }),
      judged({
        name: "word-view.conversion-cpu",
        figure: made.cpuSeconds,
        unit: "s",
        peers: [],
        budgets: [{ kind: "at-most", limit: CPU_CAP_SECONDS }],
        note: "the child's CPU time, what WORD_VIEW_CPU_SECONDS caps: the largest accepted file must convert within it",
      }),
      judged({ name: "word-view.child-peak-rss", figure: made.maxRssMegabytes, unit: "MB", peers: [], budgets: [], note: "the converting child's peak resident memory; the server's own is unchanged" }),
      judged({ name: "word-view.catalog-quiet.p50", figure: quiet.p50Ms, unit: "ms", peers: [], budgets: [], note }),
      judged({ name: "word-view.catalog-quiet.p99", figure: quiet.p99Ms, unit: "ms", peers: [], budgets: [], note }),
      judged({ name: "word-view.catalog-converting.p50", figure: converting.p50Ms, unit: "ms", peers: [], budgets: [], note: `while the view is made${convertingThroughout ? " (throughout the slice)" : " (it ended within the slice)"}` }),
      judged({
        name: "word-view.catalog-converting.p99",
        figure: converting.p99Ms,
        unit: "ms",
        peers: [{ name: "quiet", figure: quiet.p99Ms }],
        budgets: [{ kind: "at-most", limit: CATALOG_P99_BUDGET_MS }],
        note: `the catalog's own p99 budget; ${note}`,
      }),
      judged({
        name: "word-view.catalog-converting-vs-quiet.p99",
        figure: converting.p99Ms / quiet.p99Ms,
        unit: "× quiet",
        peers: [],
        budgets: [{ kind: "at-most", limit: CONVERTING_VS_QUIET_P99 }],
        note: "the conversion's cost to the catalog, both measured in the same run: steadier than the absolute figure on a shared machine",
      }),
    ],
    context: { plan, connections: CONNECTIONS, documentBytes, docxBytes: docx.length, quietBefore, quietAfter, converting, made, convertingThroughout },
  };
}

export const benchmark: Benchmark = { name: "word-view", run };
