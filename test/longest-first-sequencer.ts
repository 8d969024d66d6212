import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Files that take minutes, longest first. Vitest orders files by the timings of earlier runs, and a
 * fresh clone (CI) has none: it fell back to file size, and the crash test, a small file, started
 * last and ran alone for minutes after everything else had finished.
 */
const LONGEST = [
  "test/reliability/crash.api.test.ts",
  "server/fuzz.api.test.ts",
  "test/reliability/chain-faults.api.test.ts",
  "server/rewards/payout-worker.api.test.ts",
  "server/security/rate-limits.api.test.ts",
];

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = LONGEST.findIndex((path) => file.moduleId.endsWith(path));
      return index === -1 ? LONGEST.length : index;
    };
    return sorted.map((file, order) => ({ file, order })).sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order).map(({ file }) => file);
  }
}
