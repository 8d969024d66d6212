import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { E_READER_MAIL_MAX_BYTES } from "../shared/e-reader-mail.ts";
import { projectRoot } from "../server/paths.ts";
import { type Benchmark, type BenchmarkOptions, type BenchmarkRun, judged } from "./lib/benchmark.ts";

/**
 * A book mailed to an e-reader (docs/decisions/0100): the largest book it takes (50 MB of random
 * bytes, which base64 makes a 68 MB message) written as the embedded default's .eml file, each run in
 * a process of its own. The figure is the memory the mail takes above the process at rest, beside the
 * writer that made the whole message in memory first (Plume's before it streamed).
 */

const CHILD = join(projectRoot, "bench", "lib", "mail-attachment-child.ts");
/** A server takes several sends at once: one must stay a small part of its memory. */
const BUDGET_PEAK_MB = 64;

interface ChildFigures {
  peakRssAboveRestMb: number;
  ms: number;
}

function runChild(mode: "streamed" | "buffered", file: string, outbox: string): Promise<ChildFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, mode, file, outbox], { cwd: projectRoot, stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(output.trim().split("\n").at(-1)!) as ChildFigures) : reject(new Error(`${mode} mail exited with ${code}`))));
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function run({ quick, log }: BenchmarkOptions): Promise<BenchmarkRun> {
  const folder = mkdtempSync(join(tmpdir(), "plume-bench-mail-"));
  try {
    const file = join(folder, "book.pdf");
    writeFileSync(file, randomBytes(E_READER_MAIL_MAX_BYTES));
    const rounds = quick ? 1 : 3;
    const figures: Record<"streamed" | "buffered", ChildFigures[]> = { streamed: [], buffered: [] };
    for (let round = 0; round < rounds; round += 1) {
      for (const mode of ["streamed", "buffered"] as const) {
        const outbox = join(folder, `outbox-${mode}-${round}`);
        figures[mode].push(await runChild(mode, file, outbox));
        rmSync(outbox, { recursive: true, force: true });
      }
      log(`round ${round + 1}: streamed ${JSON.stringify(figures.streamed.at(-1))}, buffered ${JSON.stringify(figures.buffered.at(-1))}`);
    }
    const peak = (mode: "streamed" | "buffered") => median(figures[mode].map((figure) => figure.peakRssAboveRestMb));
    const ms = (mode: "streamed" | "buffered") => median(figures[mode].map((figure) => figure.ms));
    const note = `a ${E_READER_MAIL_MAX_BYTES / 2 ** 20} MiB attachment written as an .eml file, median of ${rounds}; peer: the whole message made in memory, then written`;
    return {
      results: [
        judged({ name: "e-reader-mail.peak-memory", figure: peak("streamed"), unit: "MB", peers: [{ name: "buffered", figure: peak("buffered") }], budgets: [{ kind: "at-most", limit: BUDGET_PEAK_MB }], note }),
        judged({ name: "e-reader-mail.time", figure: ms("streamed"), unit: "ms", peers: [{ name: "buffered", figure: ms("buffered") }], budgets: [], note }),
      ],
      context: { attachmentBytes: E_READER_MAIL_MAX_BYTES, rounds },
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export const benchmark: Benchmark = { name: "e-reader-mail", run };
