import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot } from "../paths.ts";
import { type CageLimits, type CagedAnswer, CagedJobError, cageLoad, runCaged, runCagedWhenIdle, scriptAt } from "./caged-job.ts";

/* The cage of hostile-file work (docs/decisions/0051): whatever the child does, the caller gets an answer or a CagedJobError, and the child is gone. */

const CHILD = scriptAt(join(projectRoot, "test", "helpers", "cage-child.mjs"));
const LIMITS: CageLimits = { timeoutMs: 10_000, heapMegabytes: 64, memoryMegabytes: 256 };
const folder = mkdtempSync(join(tmpdir(), "plume-cage-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface Job {
  behaviour: "answer" | "throw" | "loop" | "heap" | "buffers" | "crash";
  value?: number;
  pidFile?: string;
}

let jobs = 0;
/** Runs a job whose child writes its pid to a file; answers the outcome and that pid. */
async function caged(job: Job, limits: CageLimits = LIMITS) {
  const pidFile = join(folder, `pid-${(jobs += 1)}`);
  const outcome: { answer?: CagedAnswer<{ doubled: number }>; error?: unknown } = await runCaged<Job, { doubled: number }>(CHILD, { ...job, pidFile }, limits).then(
    (answer) => ({ answer }),
    (error: unknown) => ({ error }),
  );
  return { ...outcome, pid: Number(readFileSync(pidFile, "utf8")) };
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The child is reaped right after the parent settles: wait a moment for the kernel to say so. */
async function expectGone(pid: number) {
  await expect.poll(() => isRunning(pid), { timeout: 2000 }).toBe(false);
}

function expectFailure(error: unknown, failure: CagedJobError["failure"], message?: RegExp) {
  expect(error).toBeInstanceOf(CagedJobError);
  expect((error as CagedJobError).failure).toBe(failure);
  if (message) expect((error as CagedJobError).message).toMatch(message);
}

describe("runCaged", () => {
  it("answers the child's answer and its peak resident memory", async () => {
    const { answer, pid } = await caged({ behaviour: "answer", value: 21 });
    expect(answer?.answer).toEqual({ doubled: 42 });
    expect(answer!.maxRssBytes).toBeGreaterThan(10 * 2 ** 20);
    await expectGone(pid);
  });

  it("answers the job's own error (a bad file) as 'failed'", async () => {
    const { error } = await caged({ behaviour: "throw", value: 7 });
    expectFailure(error, "failed", /this file is not a book: 7/);
  });

  it("kills a child that never answers past the time cap", async () => {
    const started = performance.now();
    const { error, pid } = await caged({ behaviour: "loop" }, { ...LIMITS, timeoutMs: 1500 });
    expectFailure(error, "timeout", /no answer within 1500 ms/);
    expect(performance.now() - started).toBeLessThan(5000);
    await expectGone(pid);
  });

  it("kills a child past its CPU cap, whatever the clock allows", async () => {
    const { error, pid } = await caged({ behaviour: "loop" }, { ...LIMITS, timeoutMs: 60_000, cpuSeconds: 1 });
    expectFailure(error, "cpu", /more than 1 s of CPU/);
    await expectGone(pid);
  });

  it("ends a child that exhausts its heap as 'memory', long before the time cap", async () => {
    const { error, pid } = await caged({ behaviour: "heap" }, { ...LIMITS, timeoutMs: 60_000, memoryMegabytes: undefined });
    expectFailure(error, "memory");
    await expectGone(pid);
  });

  it("kills a child whose memory outside the heap passes the resident cap", async () => {
    const { error, pid } = await caged({ behaviour: "buffers" }, { ...LIMITS, timeoutMs: 60_000, memoryMegabytes: 200 });
    expectFailure(error, "memory", /resident memory over 200 MB/);
    await expectGone(pid);
  });

  it("answers a child that dies without a word as 'crashed'", async () => {
    const { error } = await caged({ behaviour: "crash" });
    expectFailure(error, "crashed", /exit 3/);
  });

  it("kills the child when its caller stops it, and starts none once stopped", async () => {
    const stopping = new AbortController();
    const pidFile = join(folder, "pid-stopped");
    const attempt = runCaged(CHILD, { behaviour: "loop", pidFile }, LIMITS, stopping.signal).catch((error: unknown) => error);
    await expect.poll(() => existsSync(pidFile)).toBe(true);
    stopping.abort();
    expectFailure(await attempt, "stopped");
    await expectGone(Number(readFileSync(pidFile, "utf8")));
    const started = cageLoad().started;
    expectFailure(await runCaged(CHILD, { behaviour: "answer", value: 1 }, LIMITS, stopping.signal).catch((error: unknown) => error), "stopped");
    expect(cageLoad().started).toBe(started);
  });

  it("runs one cage at a time, the others waiting their turn", async () => {
    const before = cageLoad().started;
    const seen: number[] = [];
    const watch = setInterval(() => seen.push(cageLoad().running), 5);
    const outcomes = await Promise.all([1, 2, 3].map((value) => caged({ behaviour: "answer", value })));
    clearInterval(watch);
    expect(outcomes.map(({ answer }) => answer?.answer.doubled)).toEqual([2, 4, 6]);
    expect(Math.max(...seen)).toBe(1);
    expect(cageLoad()).toMatchObject({ running: 0, waiting: 0, started: before + 3 });
  });

  it("starts background work only once no job runs or waits: readers' jobs asked for meanwhile go first", async () => {
    const finished: string[] = [];
    const track = (name: string, run: Promise<unknown>) => run.then(() => finished.push(name));
    const first = track("reader 1", caged({ behaviour: "answer", value: 1 }));
    const background = track("background", runCagedWhenIdle(CHILD, { behaviour: "answer", value: 2 }, LIMITS));
    // A reader who comes while the first job runs and the background one waits is served before it.
    await expect.poll(() => cageLoad().running).toBe(1);
    const second = track("reader 2", caged({ behaviour: "answer", value: 3 }));
    await Promise.all([first, background, second]);
    expect(finished).toEqual(["reader 1", "reader 2", "background"]);
  });
});
