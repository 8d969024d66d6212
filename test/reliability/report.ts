import type { RunReport } from "./crash-harness.ts";
import { FAULT_KINDS, type FaultKind } from "./rpc-fault-proxy.ts";
import type { KillPhase } from "./supervised-server.ts";

const KILL_PHASES: KillPhase[] = ["upload", "download", "payout", "recovery"];

export interface Summary {
  runs: number;
  kills: number;
  killsByPhase: Record<KillPhase, number>;
  faults: number;
  faultsByKind: Record<FaultKind, number>;
  failedRounds: number;
  books: number;
  countedDownloads: number;
  payments: number;
  violations: number;
}

export function summarize(reports: RunReport[]): Summary {
  const killsByPhase = Object.fromEntries(KILL_PHASES.map((phase) => [phase, 0])) as Record<KillPhase, number>;
  const faultsByKind = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;
  for (const report of reports) {
    for (const kill of report.kills) killsByPhase[kill.phase] += 1;
    for (const [kind, count] of Object.entries(report.faults)) faultsByKind[kind as FaultKind] += count;
  }
  const total = (pick: (report: RunReport) => number) => reports.reduce((sum, report) => sum + pick(report), 0);
  return {
    runs: reports.length,
    kills: total((report) => report.kills.length),
    killsByPhase,
    faults: total((report) => Object.values(report.faults).reduce((sum, count) => sum + count, 0)),
    faultsByKind,
    failedRounds: total((report) => report.failedRounds),
    books: total((report) => report.books),
    countedDownloads: total((report) => report.countedDownloads),
    payments: total((report) => report.payments),
    violations: total((report) => report.violations.length),
  };
}

const counts = (record: Record<string, number>) =>
  Object.entries(record)
    .map(([name, count]) => `${name} ${count}`)
    .join(", ");

/** One line per run (seed first, so it can be replayed), then its violations. */
export function describeRun(report: RunReport): string {
  const what = report.mode === "crash" ? "crash" : `fault ${report.fault}`;
  const kills = report.kills.map((kill) => `${kill.phase} (${kill.point})`).join("; ") || "none";
  const faults = counts(report.faults) || "none";
  const line =
    `seed ${report.seed} ${what}: kills ${kills}; faults ${faults}; ${report.books} books, ${report.countedDownloads} counted downloads, ` +
    `${report.payments} payments; ${(report.durationMs / 1000).toFixed(1)} s — ${report.violations.length === 0 ? "ok" : `${report.violations.length} VIOLATIONS`}`;
  if (report.violations.length === 0) return line;
  const kept = report.dataDir ? `\n  data kept in ${report.dataDir}` : "";
  return `${line}\n${report.violations.map((violation) => `  - ${violation}`).join("\n")}\n  replay: ${report.replay}${kept}`;
}

export function describeSummary(summary: Summary, wallMs: number): string {
  return (
    `runs ${summary.runs}, kills ${summary.kills} (${counts(summary.killsByPhase)}), ` +
    `faults ${summary.faults} (${counts(summary.faultsByKind)}), failed payout rounds ${summary.failedRounds}, ` +
    `${summary.books} books, ${summary.countedDownloads} counted downloads, ${summary.payments} payments, ` +
    `violations ${summary.violations}, wall time ${(wallMs / 1000).toFixed(0)} s`
  );
}

/** The seed of the runs `npm test` makes (crash.api.test.ts, chain-faults.api.test.ts): the same runs every time. */
export const SUITE_SEED = 20_261_121;

/** The violations of some runs, each with the seed that replays it; an empty list when all went well. */
export const violationsOf = (reports: RunReport[]) => reports.filter((report) => report.violations.length > 0).map(describeRun);
