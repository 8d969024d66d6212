import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchBrowser } from "../e2e/browser.ts";
import { type FetchedScript, INITIAL_SCRIPT_BUDGET_BYTES, localeChunks, scriptsOfFirstVisit, totalGzipped } from "../e2e/first-visit-scripts.ts";
import { seedDemoCatalog } from "../scripts/demo-catalog.ts";
import { CATEGORIES, type Category, DEFAULT_RUNS, MIN_SCORES, type PageReport, auditPages, auditedPages, failingAudits } from "../scripts/lighthouse.ts";
import { buildClient } from "../server/http/client-build.ts";
import { projectRoot } from "../server/paths.ts";
import { type Benchmark, type BenchmarkOptions, type BenchmarkResult, type BenchmarkRun, judged } from "./lib/benchmark.ts";
import { contentKey } from "./lib/content-key.ts";
import { type FirstBookVisit, SLOW_PHONE, visitForFirstBook } from "./lib/first-book-paint.ts";
import { median } from "./lib/load.ts";
import { BEHIND_TLS_PROXY } from "./lib/plume-client.ts";
import { startPlumeServer } from "./lib/plume-server.ts";
import type { ReadyProcess } from "./lib/ready-process.ts";
import { formatNumber } from "./lib/report.ts";
import { RESULTS_DIR } from "./lib/transfer-server.ts";
import { recreatePostgresDatabase } from "./seed.ts";

/**
 * What a reader's browser gets from the production build: the JavaScript a first visit to the
 * landing page, the catalog and a book's page fetches in each interface language, when each shows its
 * first book on a throttled phone, and Lighthouse's scores for the three pages on a simulated phone,
 * against the real server in production mode with the demo catalog.
 */

const DATABASE_URL = process.env.BENCH_BROWSER_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/plume_bench_browser";
/** Browser languages that pick each interface language on a first visit. */
const LOCALES = { en: "en-US", es: "es-ES", fr: "fr-FR" } as const;
type Language = keyof typeof LOCALES;
/** Stable names for the figures: "/" reads badly in one, and a book's address changes with the seed. */
const PAGE_NAMES: Record<string, string> = { "/": "landing", "/catalog": "catalog" };
const BOOK_PAGE_NAME = "book";
const KILOBYTE = 1024;
/** Metrics of Lighthouse's median run kept beside the scores, to tell what moved a performance score, with their usual short names. */
const METRICS = {
  "first-contentful-paint": "FCP",
  "largest-contentful-paint": "LCP",
  "total-blocking-time": "TBT",
  "cumulative-layout-shift": "CLS",
  "speed-index": "SI",
} as const;
type Metric = keyof typeof METRICS;
const BOOK_CARD = '[data-testid="book-card"]';
/** Core Web Vitals' "good" largest contentful paint: a first screen's first book shows within it on the throttled phone (docs/performance.md#budgets). */
const GOOD_LARGEST_PAINT_MS = 2500;
/** What shows each page's first book. The landing page's featured books lie below a phone's first screen: reported, not budgeted. */
const FIRST_BOOKS: Record<string, { selector: string; what: string; budgetMs?: number }> = {
  landing: { selector: BOOK_CARD, what: "the first featured book's card" },
  catalog: { selector: BOOK_CARD, what: "the first book card", budgetMs: GOOD_LARGEST_PAINT_MS },
  [BOOK_PAGE_NAME]: { selector: '[data-testid="book-page"] img', what: "the book's cover", budgetMs: GOOD_LARGEST_PAINT_MS },
};

interface FirstVisit {
  page: string;
  language: Language;
  scripts: FetchedScript[];
}

const pageName = (page: string) => PAGE_NAMES[page] ?? BOOK_PAGE_NAME;
const kilobytes = (bytes: number) => bytes / KILOBYTE;

/**
 * The production server (NODE_ENV=production: its CSP, its precompressed assets, compressed API
 * answers) on a database and data folder of its own, serving a fresh build. Production's session
 * cookie is Secure, so it runs as behind its TLS proxy for the seeding calls, as the transfer
 * benchmarks do; the browser, which sends no X-Forwarded-Proto, only reads.
 */
async function startBrowserServer(workDir: string, clientFolder: string): Promise<ReadyProcess> {
  const dataDir = join(workDir, "plume-data");
  mkdirSync(dataDir, { recursive: true });
  await recreatePostgresDatabase(DATABASE_URL);
  return startPlumeServer(
    { kind: "postgres", url: DATABASE_URL },
    { dataDir, logFile: join(RESULTS_DIR, "plume-browser.log"), settings: { TRUST_PROXY: "loopback" }, clientFolder },
  );
}

/** Each page in each language, as a new visitor; a visit that fetched another language's texts voids the run. */
async function measureFirstVisits(baseUrl: string, pages: readonly string[]): Promise<FirstVisit[]> {
  const browser = await launchBrowser();
  try {
    const visits: FirstVisit[] = [];
    for (const page of pages) {
      for (const [language, locale] of Object.entries(LOCALES) as Array<[Language, string]>) {
        const scripts = await scriptsOfFirstVisit(browser, baseUrl, page, locale);
        const texts = localeChunks(scripts);
        if (texts.length !== 1 || texts[0] !== language) throw new Error(`A first visit to ${page} as ${locale} fetched the texts of ${JSON.stringify(texts)}, not ${language}`);
        visits.push({ page, language, scripts });
      }
    }
    return visits;
  } finally {
    await browser.close();
  }
}

function firstVisitResult({ page, language, scripts }: FirstVisit): BenchmarkResult {
  const transferred = scripts.reduce((sum, script) => sum + script.transferred, 0);
  return judged({
    name: `browser.first-visit-js.${pageName(page)}.${language}`,
    figure: kilobytes(totalGzipped(scripts)),
    unit: "KB",
    peers: [],
    budgets: [{ kind: "at-most", limit: kilobytes(INITIAL_SCRIPT_BUDGET_BYTES) }],
    note: `${page} in a new ${LOCALES[language]} browser: ${scripts.length} scripts, gzipped one by one at level 9 (${kilobytes(totalGzipped(scripts)).toFixed(1)} KB); the server sent ${kilobytes(transferred).toFixed(1)} KB of them, precompressed with brotli`,
  });
}

interface FirstBookVisits {
  page: string;
  visits: FirstBookVisit[];
}

/** `runs` first visits to each page as a throttled phone, the pages in turn, so that a busy minute weighs on all of them. */
async function measureFirstBooks(baseUrl: string, pages: readonly string[], runs: number, log: BenchmarkOptions["log"]): Promise<FirstBookVisits[]> {
  const browser = await launchBrowser();
  try {
    const measured = pages.map((page) => ({ page, visits: [] as FirstBookVisit[] }));
    for (let run = 0; run < runs; run += 1) {
      for (const { page, visits } of measured) {
        const visit = await visitForFirstBook(browser, baseUrl, page, FIRST_BOOKS[pageName(page)]!.selector);
        visits.push(visit);
        log(`${page} on a throttled phone: first contentful paint ${visit.firstContentfulPaint.toFixed(0)} ms, first book ${visit.firstBook.toFixed(0)} ms (load average ${visit.loadAverage.toFixed(1)})`);
      }
    }
    return measured;
  } finally {
    await browser.close();
  }
}

const spanOf = (values: number[]) => {
  const [low, high] = [Math.min(...values).toFixed(1), Math.max(...values).toFixed(1)];
  return low === high ? low : `${low}–${high}`;
};

const milliseconds = (values: number[]) => `${values.map((value) => formatNumber(value)).join(", ")} ms`;

function firstBookResult({ page, visits }: FirstBookVisits): BenchmarkResult {
  const { what, budgetMs } = FIRST_BOOKS[pageName(page)]!;
  const firstBooks = visits.map((visit) => visit.firstBook);
  const paints = visits.map((visit) => visit.firstContentfulPaint);
  const shown = visits.every((visit) => visit.onFirstScreen) ? "painted (Element Timing)" : "drawn below the phone's first screen (the end of the frame that laid it out)";
  const runs = visits.length > 1 ? `median of ${visits.length} visits (${milliseconds(firstBooks)})` : "1 visit";
  return judged({
    name: `browser.first-book.${pageName(page)}`,
    figure: median(firstBooks),
    unit: "ms",
    peers: [],
    budgets: budgetMs === undefined ? [] : [{ kind: "at-most", limit: budgetMs }],
    note:
      `${page} in a new phone-sized browser, ${SLOW_PHONE.latencyMs} ms a request, ${(SLOW_PHONE.downloadKbps / 1024).toFixed(1)} Mbit/s, the CPU ${SLOW_PHONE.cpuSlowdown}× slower: ` +
      `${what} ${shown}, ${runs}; first contentful paint ${milliseconds([median(paints)])}` +
      `${visits.length > 1 ? ` (${milliseconds(paints)})` : ""}, ${formatNumber(median(firstBooks) - median(paints))} ms before it; load average ${spanOf(visits.map((visit) => visit.loadAverage))}`,
  });
}

const formatMetric = (id: Metric, value: number) =>
  id === "cumulative-layout-shift" ? value.toFixed(3) : id === "total-blocking-time" ? `${value.toFixed(0)} ms` : `${(value / 1000).toFixed(1)} s`;

function metricsOf(report: PageReport): Record<Metric, number> {
  return Object.fromEntries(Object.keys(METRICS).map((id) => [id, report.lhr.audits[id]?.numericValue ?? Number.NaN])) as Record<Metric, number>;
}

/**
 * The performance score follows from the metrics alone, which scale with how fast the machine ran the
 * page's script: Lighthouse's benchmark index of the machine (its own CPU test) says how fast that was.
 * The other categories lose points to audits.
 */
function whatCostsPoints(report: PageReport, category: Category): string {
  if (category === "performance") {
    const metrics = metricsOf(report);
    const described = (Object.keys(METRICS) as Metric[]).map((id) => `${METRICS[id]} ${formatMetric(id, metrics[id])}`).join(", ");
    return `Lighthouse's median run: ${described}, benchmark index ${report.lhr.environment.benchmarkIndex.toFixed(0)}`;
  }
  const failing = failingAudits(report, category).map(({ title }) => title);
  return failing.length > 0 ? `loses points to: ${failing.join("; ")}` : "";
}

function lighthouseResult(report: PageReport, category: Category): BenchmarkResult {
  const everyRun = report.everyRun.map((scores) => scores[category]).join(", ");
  const runs = report.everyRun.length > 1 ? `median of ${report.everyRun.length} runs (${everyRun})` : "1 run";
  const details = [`load average ${spanOf(report.loadAverages)}`, whatCostsPoints(report, category)].filter(Boolean).join("; ");
  return judged({
    name: `browser.lighthouse.${pageName(report.page)}.${category}`,
    figure: report.scores[category],
    unit: "/ 100",
    peers: [],
    budgets: MIN_SCORES[category] === undefined ? [] : [{ kind: "at-least", limit: MIN_SCORES[category] }],
    note: `${report.page}, mobile, simulated slow 4G: ${runs}; ${details}`,
  });
}

async function measure(baseUrl: string, { quick, log }: BenchmarkOptions): Promise<BenchmarkRun> {
  await seedDemoCatalog(baseUrl, BEHIND_TLS_PROXY);
  const pages = await auditedPages(baseUrl);
  const visits = await measureFirstVisits(baseUrl, pages);
  for (const visit of visits) log(`first visit to ${visit.page} in ${visit.language}: ${kilobytes(totalGzipped(visit.scripts)).toFixed(1)} KB of JavaScript, gzipped`);

  const runs = quick ? 1 : DEFAULT_RUNS;
  const firstBooks = await measureFirstBooks(baseUrl, pages, runs, log);
  const reports = await auditPages(baseUrl, runs, log, pages);
  for (const report of reports) log(`${report.page}: ${CATEGORIES.map((category) => `${category} ${report.scores[category]}`).join(", ")}`);

  return {
    results: [...visits.map(firstVisitResult), ...firstBooks.map(firstBookResult), ...reports.flatMap((report) => CATEGORIES.map((category) => lighthouseResult(report, category)))],
    context: {
      lighthouseVersion: reports[0]!.lhr.lighthouseVersion,
      lighthouseRunsPerPage: runs,
      firstVisits: visits,
      throttledPhone: SLOW_PHONE,
      firstBooks,
      lighthouse: reports.map((report) => ({ page: report.page, scores: report.scores, everyRun: report.everyRun, loadAverages: report.loadAverages, medianRunMetrics: metricsOf(report), benchmarkIndex: report.lhr.environment.benchmarkIndex })),
    },
  };
}

/** What the browser app is built from: the same sources build the same app. */
const CLIENT_SOURCES = ["client", "shared", "vite.config.ts", "scripts/vite-precompress.ts", "package-lock.json"].map((path) => join(projectRoot, path));

/**
 * The quick run keeps its build between runs, keyed by its sources (the full run builds afresh). Not
 * under bench/.cache: the server sends no file from below a folder whose name starts with a dot.
 */
async function keptClientBuild(log: BenchmarkOptions["log"]): Promise<string> {
  const folder = join(tmpdir(), `plume-bench-client-${contentKey(CLIENT_SOURCES)}`);
  // Written once the build is whole, beside it (the server would serve a file within): a folder without it is built again.
  const built = `${folder}.built`;
  if (existsSync(built)) {
    log(`the browser app built from the same sources reused from ${folder}`);
    return folder;
  }
  rmSync(folder, { recursive: true, force: true });
  await buildClient(folder);
  writeFileSync(built, "");
  return folder;
}

async function run(options: BenchmarkOptions): Promise<BenchmarkRun> {
  const workDir = mkdtempSync(join(tmpdir(), "plume-bench-browser-"));
  try {
    options.log("building the browser app and starting Plume in production mode…");
    const clientFolder = options.quick ? await keptClientBuild(options.log) : join(workDir, "client");
    if (!options.quick) await buildClient(clientFolder);
    const server = await startBrowserServer(workDir, clientFolder);
    try {
      return await measure(server.url, options);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

export const benchmark: Benchmark = { name: "browser", run };
