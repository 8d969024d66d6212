import type { BenchmarkResult, Budget } from "./benchmark.ts";

/** One benchmark's run: its peers were measured in this same run, so its ratios hold together. */
export interface BenchmarkEntry {
  name: string;
  startedAt: string;
  finishedAt: string;
  mode: "full" | "quick";
  machine: Record<string, string | number>;
  context: Record<string, unknown>;
  results: BenchmarkResult[];
}

/**
 * bench/results/latest.json: the latest run of every benchmark. `--only` runs some of them and
 * keeps the others' entries as they were (each says when it ran).
 */
export interface BenchReport {
  benchmarks: BenchmarkEntry[];
}

export const TABLE_START = "<!-- bench:start -->";
export const TABLE_END = "<!-- bench:end -->";

export function formatNumber(value: number): string {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

const withUnit = (value: number, unit: string) => `${formatNumber(value)} ${unit}`;

function describeBudget(budget: Budget, unit: string): string {
  switch (budget.kind) {
    case "at-most":
      return `≤ ${withUnit(budget.limit, unit)}`;
    case "at-least":
      return `≥ ${withUnit(budget.limit, unit)}`;
    case "ratio-at-least":
      return `≥ ${budget.ratio}× ${budget.peer}`;
  }
}

/** Each peer's figure and how ours compares with it: "bare 1,520 req/s (0.82×)". */
export function describePeers(result: BenchmarkResult): string {
  return result.peers
    .map((peer) => {
      const ratio = peer.figure > 0 ? ` (${formatNumber(result.figure / peer.figure)}×)` : "";
      return `${peer.name} ${withUnit(peer.figure, result.unit)}${ratio}`;
    })
    .join(" · ");
}

export const describeBudgets = (result: BenchmarkResult) => result.budgets.map((budget) => describeBudget(budget, result.unit)).join(", ");

const verdict = (met: boolean | null) => (met === null ? "—" : met ? "yes" : "**no**");

const escapeCell = (text: string) => text.replaceAll("|", "\\|");

const describeMachine = (machine: BenchmarkEntry["machine"]) =>
  Object.entries(machine)
    .map(([key, value]) => `${key} ${value}`)
    .join(", ");

/** The markdown that goes between the markers of docs/performance.md: one table per benchmark. */
const RATIOS_LINE = "Ratios are ours ÷ the peer's, both measured in the same run, one right after the other.";

function renderEntry(entry: BenchmarkEntry): string {
  const command = entry.mode === "quick" ? "npm run bench:quick" : "npm run bench";
  const lines = [
    `### ${entry.name}`,
    "",
    `Run of ${entry.startedAt} (\`${command}\`) on ${describeMachine(entry.machine)}.`,
    "",
    "| Figure | Measured | Peers (same run) | Budget | Met | Note |",
    "| --- | ---: | --- | --- | :---: | --- |",
  ];
  for (const result of entry.results) {
    const cells = [`\`${result.name}\``, withUnit(result.figure, result.unit), describePeers(result) || "—", describeBudgets(result) || "—", verdict(result.met), result.note ?? ""];
    lines.push(`| ${cells.map(escapeCell).join(" | ")} |`);
  }
  return lines.join("\n");
}

/** The table's section of each benchmark as a document has it, by name. */
export function markedSections(document: string): Map<string, string> {
  const start = document.indexOf(TABLE_START);
  const end = document.indexOf(TABLE_END);
  if (start === -1 || end < start) return new Map();
  const sections = document.slice(start + TABLE_START.length, end).split(/\n(?=### )/).slice(1);
  return new Map(sections.map((section) => [section.slice(4, section.indexOf("\n")).trim(), section.trimEnd()]));
}

/**
 * The table of every benchmark in `order`: from the report's entry, else the section the document
 * already had (`kept`), so that a benchmark whose entry is missing from latest.json keeps its figures.
 */
export function renderMarkdownSection(report: BenchReport, order: string[] = report.benchmarks.map((entry) => entry.name), kept = new Map<string, string>()): string {
  const sections = order.flatMap((name) => {
    const entry = report.benchmarks.find((candidate) => candidate.name === name);
    const section = entry ? renderEntry(entry) : kept.get(name);
    return section ? [section] : [];
  });
  return [RATIOS_LINE, ...sections].join("\n\n");
}

/** One line per figure for the terminal: the figure, its peers, its budget and the verdict. */
export function renderConsoleLines(results: BenchmarkResult[]): string[] {
  const nameWidth = Math.max(0, ...results.map((result) => result.name.length));
  return results.map((result) => {
    const parts = [result.name.padEnd(nameWidth), withUnit(result.figure, result.unit).padStart(14)];
    const peers = describePeers(result);
    if (peers) parts.push(`vs ${peers}`);
    if (result.budgets.length > 0) parts.push(`budget ${describeBudgets(result)}: ${result.met ? "met" : "MISSED"}`);
    return parts.join("  ");
  });
}

/**
 * How long each benchmark of the run took, and all of them: the line that tells whether
 * `npm run bench:quick` keeps to the time docs/performance.md promises.
 */
export function describeDurations(entries: BenchmarkEntry[]): string {
  const seconds = (entry: BenchmarkEntry) => (Date.parse(entry.finishedAt) - Date.parse(entry.startedAt)) / 1000;
  const total = entries.reduce((sum, entry) => sum + seconds(entry), 0);
  return `Took ${total.toFixed(0)} s: ${entries.map((entry) => `${entry.name} ${seconds(entry).toFixed(0)} s`).join(", ")}.`;
}

/** The document with everything between the two markers replaced by `section`. */
export function replaceMarkedSection(document: string, section: string): string {
  const start = document.indexOf(TABLE_START);
  const end = document.indexOf(TABLE_END);
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`The document needs ${TABLE_START} followed by ${TABLE_END} where the table goes`);
  }
  return `${document.slice(0, start + TABLE_START.length)}\n${section}\n${document.slice(end)}`;
}
