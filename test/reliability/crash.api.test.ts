import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRASH_PHASES, ReliabilityHarness, type RunReport } from "./crash-harness.ts";
import { SUITE_SEED as SEED, violationsOf } from "./report.ts";

// On PGlite, once (the system project runs each scenario once): a crash run costs 10–15 s here (two
// server starts, two dozen scrypt sign-ups), and PGlite is the database a SIGKILL can hurt (it lives in
// the killed process); `npm run reliability -- --postgres` covers PostgreSQL. The chain faults and the
// server-only kill are chain-faults.api.test.ts, which runs beside this file.
describe("the real server under crashes", () => {
  let harness: ReliabilityHarness;
  beforeAll(async () => {
    harness = await ReliabilityHarness.start({ backend: { kind: "pglite" } });
  }, 180_000);
  afterAll(() => harness?.close());

  // One seeded run per phase: each phase's kill and recovery is checked on every `npm test`; the soak
  // (hundreds of runs) is `npm run reliability` (docs/reliability.md#crash-and-chain-fault-harness).
  it("keeps every invariant when killed during an upload, a download and a payout", async () => {
    const reports: RunReport[] = [];
    for (const [index, phase] of CRASH_PHASES.entries()) {
      reports.push(await harness.crashRun(SEED + index, phase));
    }
    expect(violationsOf(reports)).toEqual([]);
    for (const phase of CRASH_PHASES) expect(reports.some((report) => report.kills.some((kill) => kill.phase === phase))).toBe(true);
    expect(reports.reduce((sum, report) => sum + report.payments, 0)).toBeGreaterThan(0);
  }, 600_000);
});
