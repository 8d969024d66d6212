import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRASH_PHASES, ReliabilityHarness, type RunReport } from "./crash-harness.ts";
import { SUITE_SEED as SEED, violationsOf } from "./report.ts";

const RUNS_PER_PHASE = 2;

// One backend only: a crash run costs 10–15 s here (two server starts, two dozen scrypt sign-ups),
// so running them twice would double the suite's longest file. PGlite is the one a SIGKILL can hurt
// (the embedded database lives in the killed process); `npm run reliability -- --postgres` covers PostgreSQL.
// The chain faults and the server-only kill are chain-faults.api.test.ts, which runs beside this file.
describe.skipIf(process.env.PLUME_TEST_BACKEND === "postgres")("the real server under crashes", () => {
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
});
