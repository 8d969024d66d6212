import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRASH_PHASES, ReliabilityHarness, type RunReport } from "./crash-harness.ts";
import { describeRun } from "./report.ts";
import { FAULT_KINDS } from "./rpc-fault-proxy.ts";
import { serverOnlyKillRun } from "./server-only-kill.ts";

const SEED = 20_261_121;
const RUNS_PER_PHASE = 2;

/** The violations of some runs, each with the seed that replays it; an empty list when all went well. */
const violationsOf = (reports: RunReport[]) => reports.filter((report) => report.violations.length > 0).map(describeRun);

// One backend only: a crash run costs 10–15 s here (two server starts, two dozen scrypt sign-ups),
// so running them twice would double the suite's longest file. PGlite is the one a SIGKILL can hurt
// (the embedded database lives in the killed process); `npm run reliability -- --postgres` covers PostgreSQL.
describe.skipIf(process.env.PLUME_TEST_BACKEND === "postgres")("the real server under crashes and chain faults", () => {
  let harness: ReliabilityHarness;
  beforeAll(async () => {
    harness = await ReliabilityHarness.start({ backend: { kind: "pglite" } });
  }, 180_000);
  afterAll(() => harness?.close());

  it(`keeps every invariant when killed during uploads, downloads and payouts (${RUNS_PER_PHASE} runs each)`, async () => {
    const reports: RunReport[] = [];
    for (const [index, phase] of CRASH_PHASES.flatMap((phase) => Array<typeof phase>(RUNS_PER_PHASE).fill(phase)).entries()) {
      reports.push(await harness.crashRun(SEED + index, phase));
    }
    expect(violationsOf(reports)).toEqual([]);
    for (const phase of CRASH_PHASES) expect(reports.some((report) => report.kills.some((kill) => kill.phase === phase))).toBe(true);
    expect(reports.reduce((sum, report) => sum + report.payments, 0)).toBeGreaterThan(0);
  }, 600_000);

  it.each(FAULT_KINDS.map((kind, index) => [kind, SEED + index] as const))("keeps every invariant when the chain answers with: %s", async (kind, seed) => {
    const report = await harness.faultRun(kind, seed);
    expect(violationsOf([report])).toEqual([]);
    expect(report.faults[kind]).toBeGreaterThan(0);
  }, 300_000);

  it("comes back at once when the embedded default's server alone is killed, leaving no chain behind", async () => {
    const report = await serverOnlyKillRun(2);
    expect(report.violations).toEqual([]);
    expect(report.kills).toBe(2);
  }, 180_000);
});
