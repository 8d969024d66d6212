import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReliabilityHarness } from "./crash-harness.ts";
import { SUITE_SEED as SEED, violationsOf } from "./report.ts";
import { FAULT_KINDS } from "./rpc-fault-proxy.ts";
import { serverOnlyKillRun } from "./server-only-kill.ts";

// A file apart from the crash runs (crash.api.test.ts), so the two run side by side; on PGlite, for
// the reasons given there.
describe("the real server under chain faults, and its own death", () => {
  let harness: ReliabilityHarness;
  beforeAll(async () => {
    harness = await ReliabilityHarness.start({ backend: { kind: "pglite" } });
  }, 180_000);
  afterAll(() => harness?.close());

  it.each(FAULT_KINDS.map((kind, index) => [kind, SEED + index] as const))("keeps every invariant when the chain answers with: %s", async (kind, seed) => {
    const report = await harness.faultRun(kind, seed);
    expect(violationsOf([report])).toEqual([]);
    expect(report.faults[kind]).toBeGreaterThan(0);
  }, 300_000);

  it("comes back at once when the embedded default's server alone is killed, leaving no chain behind", async () => {
    const report = await serverOnlyKillRun(2);
    expect(report.violations).toEqual([]);
    expect(report.kills).toBe(2);
    // Three starts of a server on a fresh folder (initdb included): 82 s beside the other suites one day, past 180 s the next.
  }, 420_000);
});
