// `npm run reliability -- [--runs N] [--seed S] [--mode crash|faults|server-kill|word-uploads|fuzz|all] [--phase upload|download|payout]
//   [--fault kind] [--fault-runs M] [--kills K] [--authors A] [--rounds R] [--fuzz-cases C] [--postgres] [--keep]`:
// N crash runs (SIGKILL at seeded points, restart, drain) and M runs of each chain fault, of the real
// server, each checked against the payment and file invariants. Run i uses seed S+i, so any run replays alone.
// Then K kills of the embedded default's server process alone (its own local chain), each restarted at once.
// Then R rounds of A authors uploading a Word book at the same instant (docs/decisions/0052).
// Then C fuzzed requests over every route (server/fuzz.api.test.ts, which `npm test` runs with fewer).
import { parseArgs } from "node:util";
import { CRASH_PHASES, type CrashPhase, type DatabaseBackend, ReliabilityHarness, type RunReport } from "../test/reliability/crash-harness.ts";
import { describeRun, describeSummary, summarize } from "../test/reliability/report.ts";
import { FAULT_KINDS, type FaultKind } from "../test/reliability/rpc-fault-proxy.ts";
import { serverOnlyKillRun } from "../test/reliability/server-only-kill.ts";
import { concurrentWordUploadsRun } from "../test/reliability/concurrent-word-uploads.ts";
import { fuzzRun } from "../test/reliability/fuzz-run.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "20" },
    seed: { type: "string" },
    mode: { type: "string", default: "all" },
    phase: { type: "string" },
    fault: { type: "string" },
    "fault-runs": { type: "string", default: "1" },
    kills: { type: "string", default: "5" },
    authors: { type: "string", default: "20" },
    rounds: { type: "string", default: "5" },
    "fuzz-cases": { type: "string", default: "40000" },
    postgres: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 0) fail("--runs must be a whole number");
const faultRuns = Number(values["fault-runs"]);
if (!Number.isInteger(faultRuns) || faultRuns < 0) fail("--fault-runs must be a whole number");
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
if (!Number.isInteger(seed) || seed < 0) fail("--seed must be a whole number");
const mode = values.mode!;
if (!["crash", "faults", "server-kill", "word-uploads", "fuzz", "all"].includes(mode)) fail("--mode must be crash, faults, server-kill, word-uploads, fuzz or all");
const kills = Number(values.kills);
if (!Number.isInteger(kills) || kills < 1) fail("--kills must be a whole number above 0");
const authors = Number(values.authors);
const rounds = Number(values.rounds);
if (!Number.isInteger(authors) || authors < 1 || !Number.isInteger(rounds) || rounds < 1) fail("--authors and --rounds must be whole numbers above 0");
const fuzzCases = Number(values["fuzz-cases"]);
if (!Number.isInteger(fuzzCases) || fuzzCases < 1) fail("--fuzz-cases must be a whole number above 0");
if (values.phase && !CRASH_PHASES.includes(values.phase as CrashPhase)) fail(`--phase must be one of ${CRASH_PHASES.join(", ")}`);
if (values.fault && !FAULT_KINDS.includes(values.fault as FaultKind)) fail(`--fault must be one of ${FAULT_KINDS.join(", ")}`);
const faultKinds = values.fault ? [values.fault as FaultKind] : [...FAULT_KINDS];
let backend: DatabaseBackend = { kind: "pglite" };
if (values.postgres) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) fail("--postgres needs TEST_DATABASE_URL (a PostgreSQL server URL where databases can be created)");
  backend = { kind: "postgres", serverUrl };
}

const started = Date.now();
console.log(`Reliability: seed ${seed}, mode ${mode}, ${backend.kind}`);
let serverKillViolations = 0;
if (mode === "server-kill" || mode === "all") {
  const report = await serverOnlyKillRun(kills, (line) => console.log(`[server only] ${line}`));
  serverKillViolations = report.violations.length;
  const restarts = report.restartMs.length > 0 ? `, back up in ${Math.min(...report.restartMs)}–${Math.max(...report.restartMs)} ms` : "";
  console.log(`[server only] ${report.kills} kills${restarts}; ${report.violations.length === 0 ? "no violation" : report.violations.join("; ")}`);
  if (mode === "server-kill") process.exit(serverKillViolations === 0 ? 0 : 1);
}
let wordUploadViolations = 0;
if (mode === "word-uploads" || mode === "all") {
  const report = await concurrentWordUploadsRun({ authors, rounds }, (line) => console.log(`[word uploads] ${line}`));
  wordUploadViolations = report.violations.length;
  console.log(`[word uploads] ${report.uploads} uploads, ${authors} at once; ${report.violations.length === 0 ? "no violation" : report.violations.join("; ")}`);
  if (mode === "word-uploads") process.exit(wordUploadViolations === 0 ? 0 : 1);
}
let fuzzFailed = false;
if (mode === "fuzz" || mode === "all") {
  fuzzFailed = !fuzzRun(fuzzCases, seed, backend);
  console.log(`[fuzz] ${fuzzCases} cases, seed ${seed}: ${fuzzFailed ? "FAILED (above)" : "no violation"}`);
  if (mode === "fuzz") process.exit(fuzzFailed ? 1 : 0);
}
const harness = await ReliabilityHarness.start({ backend, keepFailedRuns: values.keep });
const reports: RunReport[] = [];
try {
  if (mode === "crash" || mode === "all") {
    for (let index = 0; index < runs; index += 1) {
      const report = await harness.crashRun(seed + index, values.phase as CrashPhase | undefined);
      reports.push(report);
      console.log(`[${index + 1}/${runs}] ${describeRun(report)}`);
    }
  }
  if (mode === "faults" || mode === "all") {
    for (const [kindIndex, kind] of faultKinds.entries()) {
      for (let index = 0; index < faultRuns; index += 1) {
        const runSeed = seed + kindIndex * faultRuns + index;
        const report = await harness.faultRun(kind, runSeed);
        reports.push(report);
        console.log(`[${kind} ${index + 1}/${faultRuns}] ${describeRun(report)}`);
      }
    }
  }
} finally {
  await harness.close();
}
const summary = summarize(reports);
console.log(describeSummary(summary, Date.now() - started));
process.exit(summary.violations + serverKillViolations + wordUploadViolations === 0 && !fuzzFailed ? 0 : 1);
