import { fork } from "node:child_process";
import { readFile } from "node:fs/promises";
import { setPriority } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pLimit from "p-limit";
import { projectRoot } from "../paths.ts";

/**
 * Work on a file that may be hostile (a PDF's first page, a Word book's reading view) runs in a child
 * process, a "cage", never on the server's event loop (docs/decisions/0031, 0051): a crafted file can
 * only exhaust, loop or crash the child, which the server kills and reports as a CagedJobError.
 */

/** How a child program is started: the plain JavaScript Node runs, at hand or (a TypeScript child run from the sources) made at its first start. */
export interface CagedProgram {
  script: () => Promise<string>;
}

/** A child that is a plain script already: production's bundle of a cage, or a `.mjs` child. */
export const scriptAt = (path: string): CagedProgram => ({ script: () => Promise.resolve(path) });

export interface CageLimits {
  /** The whole job, process start included; past it the process is killed. */
  timeoutMs: number;
  /**
   * The CPU the child may spend, its threads together, read from /proc with its memory; past it the
   * process is killed. Unlike the time cap it does not shrink when others load the machine: a file
   * that passes it would pass it anywhere. Unset: the time cap alone.
   */
  cpuSeconds?: number;
  /** The child's JavaScript heap (`--max-old-space-size`). */
  heapMegabytes: number;
  /**
   * The child's resident memory, heap and buffers outside it (an unpacked zip) together, read every
   * USAGE_POLL_MS from /proc; past it the process is killed. Unset: the heap cap alone.
   */
  memoryMegabytes?: number;
  /**
   * The child's niceness (0, the server's own priority, to 19): above 0 the server's event loop and
   * its database get the CPU first whenever they want it, and the child takes what they leave.
   */
  niceness?: number;
}

/**
 * Why a caged job gave no answer: too long (by the clock, which a busy machine stretches), too much
 * CPU or memory, the process died, the job's own error (a bad file), or the caller stopped it (the
 * server is stopping: nothing about the file).
 */
export type CageFailure = "timeout" | "cpu" | "memory" | "crashed" | "failed" | "stopped";

export class CagedJobError extends Error {
  override name = "CagedJobError";
  constructor(
    readonly failure: CageFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface CagedAnswer<Answer> {
  answer: Answer;
  /** The child's peak resident memory. */
  maxRssBytes: number;
  /** The CPU time the child spent, user and system. */
  cpuSeconds: number;
}

/**
 * One cage at a time in this process, whatever asks for it: the server holds at most one hostile
 * file's worth of memory beside its own, and keeps the other core (docs/decisions/0051).
 */
export const CAGES_AT_ONCE = 1;
const cages = pLimit(CAGES_AT_ONCE);
const USAGE_POLL_MS = 100;
const STDERR_KEPT_CHARS = 2000;

let started = 0;

/**
 * The folder below the project root that the bundle's sources were laid out in, which esbuild's
 * `define` writes into the bundle: "dist" for production (scripts/build-server.mjs), another for the
 * benchmarks' own bundle (bench/lib/server-bundle.ts). Never read when run from the sources.
 */
declare const SERVER_BUNDLE_FOLDER: string;

/** Cages running, waiting and started so far in this process (tests and benchmarks). */
export const cageLoad = () => ({ running: cages.activeCount, waiting: cages.pendingCount, started });

/**
 * A TypeScript child: in production the bundle's own file, an entry of its own below the bundle's folder;
 * run from the sources (tests, `npm run dev`), bundled once per process at its first start, never run
 * through tsx's loader (server/system/child-bundle.ts, docs/decisions/0113).
 */
export function bundledChild(sourcePath: string, fromSource: boolean): CagedProgram {
  if (!fromSource) return scriptAt(join(projectRoot, SERVER_BUNDLE_FOLDER, sourcePath.replace(/\.ts$/, ".js")));
  let bundled: Promise<string> | undefined;
  return {
    script: () =>
      (bundled ??= import("./child-bundle.ts")
        .then(({ bundleChildSources }) => bundleChildSources(sourcePath))
        // A failed build (a syntax error being written) is tried again at the next start.
        .catch((error: unknown) => {
          bundled = undefined;
          throw error;
        })),
  };
}

/** Runs `job` in a new process of `program` within `limits`, once a cage is free; `signal` kills it, or drops it unstarted. */
export function runCaged<Job, Answer>(program: CagedProgram, job: Job, limits: CageLimits, signal?: AbortSignal): Promise<CagedAnswer<Answer>> {
  return cages(() => {
    if (signal?.aborted) return Promise.reject(new CagedJobError("stopped", "stopped before it started"));
    return runNow<Job, Answer>(program, job, limits, signal);
  });
}

const IDLE_POLL_MS = 250;

/**
 * Runs background work (a Word book's EPUB, docs/decisions/0096) once the cage is free and no one
 * waits for it: a reader's job then waits behind at most the one background job already started.
 */
export async function runCagedWhenIdle<Job, Answer>(program: CagedProgram, job: Job, limits: CageLimits, signal?: AbortSignal): Promise<CagedAnswer<Answer>> {
  while (cages.activeCount + cages.pendingCount > 0 && !signal?.aborted) await sleep(IDLE_POLL_MS);
  return runCaged(program, job, limits, signal);
}

/**
 * Runs `job` in a new process of `program` within `limits` at once, beside any cage: for native work on
 * trusted input that must stay out of the server's process but must not wait behind a hostile file
 * (a typographic cover, drawn from the author's text; docs/decisions/0052). The caller bounds how many.
 */
export function runApart<Job, Answer>(program: CagedProgram, job: Job, limits: CageLimits): Promise<CagedAnswer<Answer>> {
  return runNow<Job, Answer>(program, job, limits, undefined);
}

type Message<Answer> = CagedAnswer<Answer> | { error: string };

/** Linux's USER_HZ, the unit of /proc's CPU times: 100 on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * Resident memory in bytes and CPU seconds (user and system, every thread) of a process; null where
 * /proc cannot tell (not Linux, or the process is gone).
 */
async function usageOf(pid: number): Promise<{ residentBytes: number; cpuSeconds: number } | null> {
  const [status, stat] = await Promise.all([readFile(`/proc/${pid}/status`, "utf8"), readFile(`/proc/${pid}/stat`, "utf8")]).catch(() => [null, null]);
  const kib = status?.match(/^VmRSS:\s+(\d+) kB/m)?.[1];
  // Fields 14 and 15, counted after the command name's closing parenthesis (a name may hold spaces).
  const ticks = stat?.slice(stat.lastIndexOf(")") + 2).split(" ");
  if (kib === undefined || !ticks) return null;
  return { residentBytes: Number(kib) * 1024, cpuSeconds: (Number(ticks[11]) + Number(ticks[12])) / CLOCK_TICKS_PER_SECOND };
}

async function runNow<Job, Answer>(program: CagedProgram, job: Job, limits: CageLimits, signal: AbortSignal | undefined): Promise<CagedAnswer<Answer>> {
  const script = await program.script();
  if (signal?.aborted) throw new CagedJobError("stopped", "stopped before it started");
  started += 1;
  return new Promise((resolve, reject) => {
    const child = fork(script, {
      execArgv: [`--max-old-space-size=${limits.heapMegabytes}`],
      serialization: "advanced",
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    if (limits.niceness && child.pid !== undefined) {
      try {
        setPriority(child.pid, limits.niceness);
      } catch {
        // A system that refuses it runs the child at the server's priority: still capped.
      }
    }
    let settled = false;
    let stderr = "";
    let usagePoll: NodeJS.Timeout | undefined;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(usagePoll);
      signal?.removeEventListener("abort", stop);
      if (child.exitCode === null) child.kill("SIGKILL");
      outcome();
    };
    const fail = (failure: CageFailure, why: string) => settle(() => reject(new CagedJobError(failure, why)));
    const timer = setTimeout(() => fail("timeout", `no answer within ${limits.timeoutMs} ms`), limits.timeoutMs);
    const stop = () => fail("stopped", "stopped by the server");
    signal?.addEventListener("abort", stop);
    if ((limits.memoryMegabytes !== undefined || limits.cpuSeconds !== undefined) && child.pid !== undefined) {
      const memoryCap = (limits.memoryMegabytes ?? Infinity) * 1024 * 1024;
      const cpuCap = limits.cpuSeconds ?? Infinity;
      const pid = child.pid;
      usagePoll = setInterval(() => {
        void usageOf(pid).then((usage) => {
          if (usage === null) clearInterval(usagePoll);
          else if (usage.residentBytes > memoryCap) fail("memory", `resident memory over ${limits.memoryMegabytes} MB`);
          else if (usage.cpuSeconds > cpuCap) fail("cpu", `more than ${limits.cpuSeconds} s of CPU`);
        });
      }, USAGE_POLL_MS);
    }
    child.stderr!.on("data", (chunk: Buffer) => {
      if (stderr.length < STDERR_KEPT_CHARS) stderr += chunk.toString("utf8");
    });
    child.on("message", (message: Message<Answer>) => {
      if ("error" in message) return fail("failed", message.error);
      settle(() => resolve(message));
    });
    child.on("error", (error) => fail("crashed", error.message));
    // "close", not "exit": the answer may still be on its way through the IPC channel when the process has exited.
    child.on("close", (code, signal) => {
      const lastLine = stderr.trim().split("\n").at(-1);
      const why = `the process ended (${signal ?? `exit ${code}`}) without an answer${lastLine ? `: ${lastLine}` : ""}`;
      fail(/heap out of memory|Allocation failed/i.test(stderr) ? "memory" : "crashed", why);
    });
    child.send(job as object);
  });
}
