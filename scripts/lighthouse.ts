// `npm run lighthouse [-- --runs <n>] [--json <file>]`: Lighthouse (mobile, simulated throttling) on the
// landing page, the catalog and a book's page of a freshly built Plume with a few real books; exits 1 below the bar.
// The browser benchmark (bench/browser.ts) calls auditPages against a production server of its own.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { launch } from "chrome-launcher";
import lighthouse, { type Result } from "lighthouse";
import { computeMedianRun } from "lighthouse/core/lib/median-run.js";
import { bookPath } from "../shared/book-urls.ts";
import type { BookCard } from "../shared/books.ts";
import { loadConfig } from "../server/config.ts";
import { buildClient } from "../server/http/client-build.ts";
import { serveBuiltClient } from "../server/http/serve-client.ts";
import { type RunningServer, startServer } from "../server/server.ts";
import { freePort } from "../test/helpers/free-port.ts";
import { seedDemoCatalog } from "./demo-catalog.ts";

/** The pages of a first visit with a fixed address; a book's page is audited beside them (auditedPages). */
const PAGES = ["/", "/catalog"];
export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
/**
 * The bar of each gated category (docs/performance.md#budgets, docs/decisions/0072); SEO is reported
 * but does not fail the run.
 */
export const MIN_SCORES: Readonly<Partial<Record<Category, number>>> = { performance: 98, accessibility: 95, "best-practices": 95 };
const GATED_CATEGORIES = CATEGORIES.filter((id) => MIN_SCORES[id] !== undefined);
const CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
/** Audits a failing category lists: the ones that cost points, not the informative ones. */
const SCORED_MODES = new Set(["binary", "numeric", "metricSavings"]);
const MAX_ITEMS_SHOWN = 3;
/** Scores move with the machine's load, so each page is measured a few times and the median kept. */
export const DEFAULT_RUNS = 3;

export type Category = (typeof CATEGORIES)[number];
export type Scores = Record<Category, number>;
export interface PageReport {
  page: string;
  /** Each category's median over the runs: one run slowed down by the machine moves no score. */
  scores: Scores;
  /** Lighthouse's median run (computeMedianRun: nearest the median first paint and time to interactive), for the audits behind the scores. */
  lhr: Result;
  /** Every run's scores, in order: how far they spread says how much the machine's load moved them. */
  everyRun: Scores[];
  /** The machine's load average over the last minute as each run started. */
  loadAverages: number[];
}

/** Everything made for a run, undone in reverse order whatever happened. */
class Cleanup {
  private readonly steps: (() => unknown)[] = [];
  add(step: () => unknown) {
    this.steps.unshift(step);
  }
  async run() {
    for (const step of this.steps) {
      try {
        await step();
      } catch (error) {
        console.error("Cleanup failed:", error);
      }
    }
  }
}

function temporaryFolder(cleanup: Cleanup, prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  cleanup.add(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

async function buildClientInto(cleanup: Cleanup): Promise<string> {
  const outDir = temporaryFolder(cleanup, "plume-lighthouse-client-");
  await buildClient(outDir);
  return outDir;
}

async function startPlume(cleanup: Cleanup, clientFolder: string): Promise<RunningServer> {
  const config = loadConfig({
    NODE_ENV: "test",
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: temporaryFolder(cleanup, "plume-lighthouse-data-"),
    LOCAL_CHAIN_PORT: String(await freePort()),
  });
  const server = await startServer(config, serveBuiltClient(clientFolder));
  cleanup.add(() => server.close());
  return server;
}

/**
 * Lighthouse's own failures that it asks to be run again for: now and then Debian's Chromium records a
 * page load's trace without the navigation's start (NO_NAVSTART), on a quiet machine too.
 */
const RETRIED_RUNTIME_ERRORS = new Set(["NO_NAVSTART"]);
const ATTEMPTS_PER_RUN = 3;

/** One Lighthouse run with its default settings: a mobile phone on a slow 4G line, simulated. */
async function runLighthouse(url: string, chromePort: number): Promise<Result> {
  for (let attempt = 1; ; attempt += 1) {
    const result = await lighthouse(url, { port: chromePort, logLevel: "error", onlyCategories: [...CATEGORIES] });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const failure = result.lhr.runtimeError;
    if (!failure) return result.lhr;
    if (!RETRIED_RUNTIME_ERRORS.has(failure.code) || attempt === ATTEMPTS_PER_RUN) {
      throw new Error(`Lighthouse could not audit ${url}${attempt > 1 ? ` (${attempt} attempts)` : ""}: ${failure.message}`);
    }
  }
}

const scoresOf = (lhr: Result) => Object.fromEntries(CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)])) as Scores;

/** The middle score of each category; of an even number of runs, the lower of the two middle ones. */
function medianScores(runs: Scores[]): Scores {
  return Object.fromEntries(
    CATEGORIES.map((id) => {
      const sorted = runs.map((scores) => scores[id]).sort((a, b) => a - b);
      return [id, sorted[Math.floor((sorted.length - 1) / 2)]!];
    }),
  ) as Scores;
}

async function auditPage(baseUrl: string, page: string, chromePort: number, runs: number): Promise<PageReport> {
  const results: Result[] = [];
  const loadAverages: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    loadAverages.push(loadavg()[0]!);
    results.push(await runLighthouse(`${baseUrl}${page}`, chromePort));
  }
  const everyRun = results.map(scoresOf);
  return { page, scores: medianScores(everyRun), lhr: computeMedianRun(results), everyRun, loadAverages };
}

/** Lighthouse on each of `pages` of a running Plume, `runs` times each, in a Chromium of its own. */
export async function auditPages(baseUrl: string, runs: number, log: (line: string) => void, pages: readonly string[]): Promise<PageReport[]> {
  const chrome = await launch({ chromePath: "/usr/bin/chromium", chromeFlags: CHROME_FLAGS });
  try {
    const reports: PageReport[] = [];
    for (const page of pages) {
      log(`Auditing ${page} (load average ${loadavg()[0]!.toFixed(1)})…`);
      reports.push(await auditPage(baseUrl, page, chrome.port, runs));
    }
    return reports;
  } finally {
    chrome.kill();
  }
}

/** The page of the first demo book in the catalog, at its canonical address: what a shared link opens (docs/product.md#book-pages). */
async function demoBookPage(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/books?limit=1`);
  const [book] = (await response.json()) as BookCard[];
  if (!book) throw new Error("The demo catalog has no book to audit the page of.");
  return bookPath(book);
}

/** The pages a first visit lands on, the demo catalog being published: the landing page, the catalog and a book's page. */
export async function auditedPages(baseUrl: string): Promise<string[]> {
  return [...PAGES, await demoBookPage(baseUrl)];
}

/** Whether a gated category's median score is below its bar. */
const isBelowBar = (report: PageReport, id: Category) => report.scores[id] < (MIN_SCORES[id] ?? 0);

function printScoreTable(reports: PageReport[]) {
  const pageWidth = Math.max(4, ...reports.map((report) => report.page.length));
  const row = (first: string, cells: string[]) => [first.padEnd(pageWidth), ...cells.map((cell, i) => cell.padStart(CATEGORIES[i]!.length))].join("  ");
  console.log(row("page", [...CATEGORIES]));
  for (const report of reports) console.log(row(report.page, CATEGORIES.map((id) => String(report.scores[id]))));
}

/**
 * Where a failing audit points: element selectors, or resource URLs, a few of them. Some details hold
 * no list (a checklist's items are keyed by name): they point nowhere.
 */
function describeItems(audit: Result["audits"][string]): string[] {
  const items: unknown = (audit.details as { items?: unknown } | undefined)?.items;
  if (!Array.isArray(items)) return [];
  return (items as Record<string, unknown>[]).slice(0, MAX_ITEMS_SHOWN).flatMap((item) => {
    const node = item.node as { selector?: string; snippet?: string } | undefined;
    const where = node?.selector ?? node?.snippet ?? item.url;
    return typeof where === "string" ? [where] : [];
  });
}

/** The audits of a category that cost it points in the median run: "Title (display value)", each with where it points. */
export function failingAudits(report: PageReport, id: Category): Array<{ title: string; where: string[] }> {
  return (report.lhr.categories[id]?.auditRefs ?? []).flatMap((ref) => {
    const audit = report.lhr.audits[ref.id];
    if (!audit || audit.score === null || audit.score >= 0.9 || !SCORED_MODES.has(audit.scoreDisplayMode)) return [];
    return [{ title: `${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ""}`, where: describeItems(audit) }];
  });
}

function printFailingAudits(report: PageReport) {
  for (const id of CATEGORIES) {
    const category = report.lhr.categories[id];
    if (!category || !isBelowBar(report, id)) continue;
    console.log(`\n${report.page} — ${category.title} ${report.scores[id]}:`);
    for (const { title, where } of failingAudits(report, id)) {
      console.log(`  - ${title}`);
      for (const item of where) console.log(`      ${item}`);
    }
  }
}

/** The scores by page and category, for a benchmark suite to keep. */
function writeScores(file: string, reports: PageReport[]) {
  const scores = Object.fromEntries(reports.map((report) => [report.page, report.scores]));
  writeFileSync(file, `${JSON.stringify(scores, null, 2)}\n`);
}

const belowBar = (report: PageReport) => GATED_CATEGORIES.some((id) => isBelowBar(report, id));

async function main() {
  const { values } = parseArgs({ options: { json: { type: "string" }, runs: { type: "string", default: String(DEFAULT_RUNS) } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number of at least 1, not ${values.runs}`);
  const cleanup = new Cleanup();
  try {
    console.log("Building the browser app, starting Plume and publishing a few books…");
    const clientFolder = await buildClientInto(cleanup);
    const server = await startPlume(cleanup, clientFolder);
    await seedDemoCatalog(server.url);
    const reports = await auditPages(server.url, runs, console.log, await auditedPages(server.url));

    console.log(`\nLighthouse ${reports[0]!.lhr.lighthouseVersion}, mobile, simulated throttling, median scores of ${runs} run(s) per page:\n`);
    printScoreTable(reports);
    reports.forEach(printFailingAudits);
    if (values.json) writeScores(values.json, reports);
    if (reports.some(belowBar)) process.exitCode = 1;
  } finally {
    await cleanup.run();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
