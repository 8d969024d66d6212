import { describe, expect, it } from "vitest";
import { judged } from "./benchmark.ts";
import { type BenchReport, TABLE_END, TABLE_START, describeDurations, markedSections, renderConsoleLines, renderMarkdownSection, replaceMarkedSection } from "./report.ts";

const throughput = judged({
  name: "catalog.first-page.throughput",
  figure: 1_200,
  unit: "req/s",
  peers: [
    { name: "bare", figure: 1_600 },
    { name: "calibre", figure: 300 },
  ],
  budgets: [
    { kind: "ratio-at-least", peer: "bare", ratio: 0.7 },
    { kind: "ratio-at-least", peer: "calibre", ratio: 3 },
  ],
  note: "newest | first",
});
const p99 = judged({ name: "catalog.first-page.p99", figure: 62.5, unit: "ms", peers: [], budgets: [{ kind: "at-most", limit: 50 }] });
const seeding = judged({ name: "catalog.seed.postgres", figure: 21.8, unit: "s", peers: [], budgets: [] });

const report: BenchReport = {
  benchmarks: [
    {
      name: "catalog",
      startedAt: "2026-11-21T09:00:00.000Z",
      finishedAt: "2026-11-21T09:10:00.000Z",
      mode: "quick",
      machine: { cores: 2, node: "v20.20.2" },
      context: {},
      results: [throughput, p99, seeding],
    },
  ],
};

describe("budgets", () => {
  it("are met only when every one holds, and say nothing for a figure without one", () => {
    expect(throughput.met).toBe(true);
    expect(p99.met).toBe(false);
    expect(seeding.met).toBeNull();
    expect(judged({ ...throughput, peers: [{ name: "bare", figure: 2_000 }, { name: "calibre", figure: 300 }] }).met).toBe(false);
  });

  it("refuse to judge against a peer that was not measured", () => {
    expect(() => judged({ ...throughput, peers: [] })).toThrow('"bare", which was not measured');
  });
});

describe("the table", () => {
  it("puts every figure beside its peers, with the ratio, its budget and the verdict", () => {
    const table = renderMarkdownSection(report);
    expect(table).toContain("### catalog");
    expect(table).toContain("`npm run bench:quick`");
    expect(table).toContain("| `catalog.first-page.throughput` | 1,200 req/s | bare 1,600 req/s (0.75×) · calibre 300 req/s (4.00×) | ≥ 0.7× bare, ≥ 3× calibre | yes | newest \\| first |");
    expect(table).toContain("| `catalog.first-page.p99` | 62.5 ms | — | ≤ 50.0 ms | **no** |  |");
    expect(table).toContain("| `catalog.seed.postgres` | 21.8 s | — | — | — |  |");
  });

  it("keeps the section a document has for a benchmark the report has no entry of, in the benchmarks' order", () => {
    const document = `intro\n${TABLE_START}\nRatios…\n\n### word-epub\n\nRun of yesterday.\n\n| a | b |\n\n### catalog\n\nold\n${TABLE_END}\n`;
    expect([...markedSections(document).keys()]).toEqual(["word-epub", "catalog"]);
    const table = renderMarkdownSection(report, ["catalog", "word-epub", "browser"], markedSections(document));
    expect(table.indexOf("### catalog")).toBeLessThan(table.indexOf("### word-epub"));
    expect(table).toContain("### word-epub\n\nRun of yesterday.\n\n| a | b |");
    expect(table).not.toContain("\nold");
    expect(table).not.toContain("### browser");
  });

  it("replaces only what lies between the markers", () => {
    const document = `# Performance\n\nintro\n\n${TABLE_START}\nold table\n${TABLE_END}\n\nafter\n`;
    expect(replaceMarkedSection(document, "new table")).toBe(`# Performance\n\nintro\n\n${TABLE_START}\nnew table\n${TABLE_END}\n\nafter\n`);
    expect(() => replaceMarkedSection("# no markers", "table")).toThrow(TABLE_START);
  });

  it("prints one line per figure for the terminal", () => {
    const lines = renderConsoleLines([throughput, p99]);
    expect(lines[0]).toMatch(/catalog\.first-page\.throughput\s+1,200 req\/s {2}vs bare 1,600 req\/s \(0\.75×\) · calibre 300 req\/s \(4\.00×\) {2}budget ≥ 0\.7× bare, ≥ 3× calibre: met/);
    expect(lines[1]).toMatch(/budget ≤ 50\.0 ms: MISSED$/);
  });
});

describe("the run's duration", () => {
  it("gives each benchmark's time and their sum", () => {
    const downloads = { ...report.benchmarks[0]!, name: "downloads", startedAt: "2026-11-21T09:10:00.000Z", finishedAt: "2026-11-21T09:10:30.400Z" };
    expect(describeDurations([report.benchmarks[0]!, downloads])).toBe("Took 630 s: catalog 600 s, downloads 30 s.");
  });
});
