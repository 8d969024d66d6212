import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { runPacedLoad } from "./paced-load.ts";

/** One HTTP call to put under load, as a browser (or calibre's web app) would make it. */
export interface LoadRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /**
   * The process that answers (Linux /proc): to weigh the CPU it spends per request, and to wait,
   * after each slice, until it has finished what the slice left in flight.
   */
  serverPid?: number;
  /**
   * Paths to ask in turn instead of repeating the URL's (its host, the method and the headers
   * stay): the n-th request made with this LoadRequest, on whichever connection and in whichever
   * slice, asks path n (modulo their number). A turn may add headers of its own (another reader's
   * cookie).
   */
  rotation?: Array<string | { path: string; headers: Record<string, string> }>;
}

export interface LoadPlan {
  connections: number;
  /**
   * Each target is measured once per round, in turn, for `sliceSeconds`: noise that comes and goes
   * on a shared machine weighs on every target alike, and the median round is kept.
   */
  rounds: number;
  sliceSeconds: number;
  /** The same load, thrown away, before a target's first round (caches, pools, the JIT's latest paths); none when 0. */
  warmupSeconds: number;
}

export interface LoadFigures {
  /** Answered requests per second of the slice. */
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /**
   * CPU time the answering process spent per answered request (when its pid is known): it moves
   * less than throughput when other work shares the machine, though not to zero (the kernel's
   * loopback work lands on whichever process is sending).
   */
  cpuPerRequestUs?: number;
}

/** How far each request's rotation has gone: the next slice goes on where the last one stopped. */
const rotationTurns = new WeakMap<LoadRequest, number>();

function run(request: LoadRequest, connections: number, durationSeconds: number): Promise<autocannon.Result> {
  const { rotation } = request;
  return autocannon({
    url: request.url,
    method: request.method ?? "GET",
    headers: request.headers,
    body: request.body,
    connections,
    duration: durationSeconds,
    ...(rotation && {
      requests: [
        {
          setupRequest: (call) => {
            const turn = rotationTurns.get(request) ?? 0;
            rotationTurns.set(request, turn + 1);
            const next = rotation[turn % rotation.length]!;
            return typeof next === "string" ? { ...call, path: next } : { ...call, path: next.path, headers: { ...call.headers, ...next.headers } };
          },
        },
      ],
    }),
  });
}

/**
 * Keeps `connections` requests in flight for the slice and reads the throughput and latency. Any
 * error, timeout or non-2xx answer voids the figure: a server refusing (429) or failing (500)
 * fast would otherwise look quick.
 */
const CLOCK_TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());

/** User and system CPU seconds of a process so far (/proc/<pid>/stat fields 14 and 15). */
export function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

const SETTLE_WINDOW_MS = 200;
/** At most a clock tick in a window: the process is waiting, not working. */
const SETTLED_CPU_SECONDS = 1 / CLOCK_TICKS_PER_SECOND;
const SETTLE_LIMIT_MS = 5_000;

/**
 * When a slice ends, autocannon drops its connections, but the server still answers the requests
 * they had sent: up to 50 queued calls, which take a slow server (the embedded database answers
 * one at a time) most of a second. Measured at once, the next target would share the machine with
 * that backlog; so the next slice waits until the process has gone quiet.
 */
async function settle(pid: number | undefined): Promise<void> {
  if (pid === undefined) return;
  const deadline = Date.now() + SETTLE_LIMIT_MS;
  let cpu = cpuSecondsOf(pid);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_WINDOW_MS));
    const now = cpuSecondsOf(pid);
    if (now - cpu <= SETTLED_CPU_SECONDS) return;
    cpu = now;
  }
}

/** Any error, timeout or non-2xx answer voids the figure: a server refusing or failing fast would otherwise look quick. */
function refuseFailedLoad(request: LoadRequest, result: autocannon.Result): void {
  if (result.errors === 0 && result.timeouts === 0 && result.non2xx === 0) return;
  const statuses = JSON.stringify(result.statusCodeStats ?? {});
  throw new Error(`${request.method ?? "GET"} ${request.url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers (${statuses})`);
}

const figuresOf = (result: autocannon.Result): LoadFigures => ({ requestsPerSecond: result.requests.total / result.duration, p50Ms: result.latency.p50, p99Ms: result.latency.p99 });

async function measureSlice(request: LoadRequest, connections: number, seconds: number): Promise<LoadFigures> {
  const cpuBefore = request.serverPid === undefined ? 0 : cpuSecondsOf(request.serverPid);
  const result = await run(request, connections, seconds);
  const cpuSpent = request.serverPid === undefined ? undefined : cpuSecondsOf(request.serverPid) - cpuBefore;
  await settle(request.serverPid);
  refuseFailedLoad(request, result);
  const figures: LoadFigures = figuresOf(result);
  if (cpuSpent !== undefined) figures.cpuPerRequestUs = (cpuSpent * 1e6) / result.requests.total;
  return figures;
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Each figure is the median of its rounds. */
function medianOf(rounds: LoadFigures[]): LoadFigures {
  const figures: LoadFigures = {
    requestsPerSecond: median(rounds.map((round) => round.requestsPerSecond)),
    p50Ms: median(rounds.map((round) => round.p50Ms)),
    p99Ms: median(rounds.map((round) => round.p99Ms)),
  };
  const cpu = rounds.flatMap((round) => (round.cpuPerRequestUs === undefined ? [] : [round.cpuPerRequestUs]));
  if (cpu.length > 0) figures.cpuPerRequestUs = median(cpu);
  return figures;
}

/**
 * The request offered at a fixed rate (requests per second, over all connections, evenly spaced)
 * rather than as fast as answers come back: latency at a load a site expects, not at saturation.
 * Latency counts from when each request was due, so a server that falls behind is also seen in
 * fewer requests answered (bench/lib/paced-load.ts).
 */
export async function measureAtRate(request: LoadRequest, { connections, rate, seconds }: { connections: number; rate: number; seconds: number }): Promise<LoadFigures & { offered: number }> {
  const cpuBefore = request.serverPid === undefined ? 0 : cpuSecondsOf(request.serverPid);
  const paced = await runPacedLoad({ url: request.url, headers: request.headers, rate, seconds, connections });
  const cpuSpent = request.serverPid === undefined ? undefined : cpuSecondsOf(request.serverPid) - cpuBefore;
  await settle(request.serverPid);
  const figures: LoadFigures & { offered: number } = { offered: paced.offered, requestsPerSecond: paced.requestsPerSecond, p50Ms: paced.p50Ms, p99Ms: paced.p99Ms };
  if (cpuSpent !== undefined) figures.cpuPerRequestUs = (cpuSpent * 1e6) / (rate * seconds);
  return figures;
}

/** The same load, thrown away: a server just started compiles as it serves, so its first seconds are not its speed. */
export async function warmUp(requests: LoadRequest[], connections: number, seconds: number): Promise<void> {
  for (const request of requests) {
    await run(request, connections, seconds);
    await settle(request.serverPid);
  }
}

/**
 * Measures the targets' calls under the same load, interleaved round by round; `onSlice` hears
 * each slice as it ends (progress lines).
 */
export async function measureInRounds<Target extends string>(
  requests: Partial<Record<Target, LoadRequest>>,
  plan: LoadPlan,
  onSlice: (target: Target, figures: LoadFigures) => void = () => {},
): Promise<Partial<Record<Target, LoadFigures>>> {
  const targets = Object.entries(requests) as Array<[Target, LoadRequest]>;
  if (plan.warmupSeconds > 0) await warmUp(targets.map(([, request]) => request), plan.connections, plan.warmupSeconds);
  const slices = new Map<Target, LoadFigures[]>(targets.map(([target]) => [target, []]));
  for (let round = 0; round < plan.rounds; round += 1) {
    for (const [target, request] of targets) {
      const figures = await measureSlice(request, plan.connections, plan.sliceSeconds);
      slices.get(target)!.push(figures);
      onSlice(target, figures);
    }
  }
  return Object.fromEntries([...slices].map(([target, rounds]) => [target, medianOf(rounds)])) as Partial<Record<Target, LoadFigures>>;
}
