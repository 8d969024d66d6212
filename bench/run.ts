// `npm run bench [-- --only catalog,…]` and `npm run bench:quick`: runs the benchmarks, writes
// bench/results/latest.json, regenerates the table of docs/performance.md and prints every figure
// beside its peers and budget. Benchmarks are not tests: `npm test` never runs them.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, release, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { projectRoot } from "../server/paths.ts";
import { benchmark as admin } from "./admin.ts";
import { benchmark as browser } from "./browser.ts";
import { benchmark as catalog } from "./catalog.ts";
import { benchmark as coverQueue } from "./cover-queue.ts";
import { benchmark as downloads } from "./downloads.ts";
import { benchmark as eReaderMail } from "./e-reader-mail.ts";
import { benchmark as embedded } from "./embedded.ts";
import { benchmark as epubReader } from "./epub-reader.ts";
import { benchmark as fingerprints } from "./fingerprints.ts";
import { benchmark as epubChecks } from "./epub-checks.ts";
import { benchmark as footprint } from "./footprint.ts";
import type { Benchmark } from "./lib/benchmark.ts";
import { type BenchReport, type BenchmarkEntry, describeDurations, renderConsoleLines, markedSections, renderMarkdownSection, replaceMarkedSection } from "./lib/report.ts";
import { benchmark as payouts } from "./payouts.ts";
import { benchmark as scaleOut } from "./scale-out.ts";
import { benchmark as signInLoad } from "./sign-in-load.ts";
import { benchmark as uploads } from "./uploads.ts";
import { benchmark as wordDocuments } from "./word-documents.ts";
import { benchmark as wordView } from "./word-view.ts";
import { benchmark as wordEpub } from "./word-epub.ts";

/** Every benchmark, in the order they run: a new one is a module exporting `benchmark`, added here. */
const BENCHMARKS: Benchmark[] = [catalog, embedded, downloads, eReaderMail, uploads, wordDocuments, epubChecks, fingerprints, signInLoad, wordView, wordEpub, coverQueue, browser, epubReader, payouts, scaleOut, admin, footprint];

const LATEST = join(projectRoot, "bench", "results", "latest.json");
const PERFORMANCE_DOC = join(projectRoot, "docs", "performance.md");

/** The machine, and how busy it was when the benchmark started (others' tests share it). */
function machine(): BenchmarkEntry["machine"] {
  return {
    "load average": loadavg()[0]!.toFixed(1),
    cores: cpus().length,
    cpu: cpus()[0]?.model.trim() ?? "unknown",
    memory: `${Math.round(totalmem() / 2 ** 30)} GiB`,
    os: `${process.platform} ${release()}`,
    node: process.version,
  };
}

function selectBenchmarks(only: string | undefined): Benchmark[] {
  if (!only) return BENCHMARKS;
  const names = only.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !BENCHMARKS.some((candidate) => candidate.name === name));
  if (unknown.length > 0) throw new Error(`Unknown benchmark ${unknown.join(", ")}; there are: ${BENCHMARKS.map((candidate) => candidate.name).join(", ")}`);
  return BENCHMARKS.filter((candidate) => names.includes(candidate.name));
}

const previousReport = (): BenchReport => (existsSync(LATEST) ? (JSON.parse(readFileSync(LATEST, "utf8")) as BenchReport) : { benchmarks: [] });

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { quick: { type: "boolean", default: false }, only: { type: "string" } } });
  const selected = selectBenchmarks(values.only);
  const mode = values.quick ? "quick" : "full";
  const entries: BenchmarkEntry[] = [];
  for (const benchmark of selected) {
    const startedAt = new Date().toISOString();
    const machineAtStart = machine();
    console.log(`\n== ${benchmark.name} (${mode})`);
    const { results, context } = await benchmark.run({ quick: values.quick, log: (line) => console.log(`   ${line}`) });
    entries.push({ name: benchmark.name, startedAt, finishedAt: new Date().toISOString(), mode, machine: machineAtStart, context, results });
  }

  // Benchmarks left out by --only keep their last run: each entry says when it ran.
  const kept = previousReport().benchmarks.filter((entry) => !entries.some((fresh) => fresh.name === entry.name));
  const report: BenchReport = { benchmarks: BENCHMARKS.flatMap((benchmark) => [...entries, ...kept].filter((entry) => entry.name === benchmark.name)) };
  mkdirSync(join(projectRoot, "bench", "results"), { recursive: true });
  writeFileSync(LATEST, `${JSON.stringify(report, null, 2)}\n`);
  const performanceDoc = readFileSync(PERFORMANCE_DOC, "utf8");
  const table = renderMarkdownSection(report, BENCHMARKS.map((benchmark) => benchmark.name), markedSections(performanceDoc));
  writeFileSync(PERFORMANCE_DOC, replaceMarkedSection(performanceDoc, table));

  const results = entries.flatMap((entry) => entry.results);
  console.log(`\n${renderConsoleLines(results).join("\n")}`);
  const missed = results.filter((result) => result.met === false);
  console.log(`\n${missed.length === 0 ? "Every budget met." : `${missed.length} budget(s) missed: ${missed.map((result) => result.name).join(", ")}`}`);
  console.log(describeDurations(entries));
  console.log(`Wrote ${LATEST} and the table of ${PERFORMANCE_DOC}.`);
}

main().catch((error: Error) => {
  console.error(`\nThe benchmark run failed: ${error.stack ?? error.message}`);
  process.exit(1);
});
