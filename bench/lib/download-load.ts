import { Agent, type ClientRequest, type IncomingMessage, request } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { cpuSecondsOf, median } from "./load.ts";

export const MEGABYTE = 1024 * 1024;
const MEGABYTES_PER_GIGABYTE = 1024;

/** One reader's download call, as their client makes it (a cookie for Plume, a plain GET for the peers). */
export interface DownloadCall {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
}

/** A server under download load. */
export interface DownloadTarget {
  /** One call per client. */
  calls: DownloadCall[];
  /** The processes that serve (nginx: its master and workers), whose CPU time is weighed per GB sent. */
  processIds: number[];
}

export interface DownloadPlan {
  /** Each target is measured once per round, in turn: noise that comes and goes weighs on all alike; the median round is kept. */
  rounds: number;
  /** Measured seconds per target and round, after `warmupSeconds` of the same load that are thrown away. */
  sliceSeconds: number;
  warmupSeconds: number;
}

export interface DownloadFigures {
  /** Bytes that arrived while measured, in MB (2^20 bytes, as the app's limits count them) per second: the median round's. */
  megabytesPerSecond: number;
  /** CPU seconds the target's processes spent per GB sent, the median round's: steadier than throughput on a busy machine. */
  cpuSecondsPerGigabyte: number;
  /** Downloads that finished while measured, all rounds together. */
  completed: number;
}

interface Slice {
  megabytes: number;
  seconds: number;
  cpuSeconds: number;
  completed: number;
}

const cpuSecondsOfAll = (processIds: number[]) => processIds.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);

const bodyOf = (response: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    response.on("data", (chunk: Buffer) => chunks.push(chunk));
    response.on("close", () => resolve(Buffer.concat(chunks).toString("utf8").slice(0, 300)));
  });

/**
 * Every call is a client on a keep-alive connection of its own, downloading the file again and
 * again and throwing the bytes away as they come: the figure is the bytes that arrived during the
 * measured seconds. A download that is not a whole, uncompressed 200 voids the figure, so a server
 * that fails fast cannot look quick.
 */
async function measureSlice({ calls, processIds }: DownloadTarget, expectedBytes: number, slice: { seconds: number; warmupSeconds: number }): Promise<Slice> {
  let measuring = false;
  let stopping = false;
  let measuredBytes = 0;
  let completed = 0;
  const inFlight = new Set<ClientRequest>();

  const downloadOnce = (call: DownloadCall, agent: Agent) =>
    new Promise<void>((resolve, reject) => {
      const fail = (error: Error) => (stopping ? resolve() : reject(error));
      const download = request(call.url, { method: call.method, headers: call.headers, agent });
      inFlight.add(download);
      download.on("close", () => inFlight.delete(download));
      download.on("error", fail);
      download.on("response", (response) => {
        const encoding = response.headers["content-encoding"] ?? "identity";
        if (response.statusCode !== 200 || encoding !== "identity") {
          void bodyOf(response).then((body) => fail(new Error(`${call.method} ${call.url} answered ${response.statusCode} (${encoding}): ${body}`)));
          return;
        }
        let received = 0;
        response.on("error", fail);
        response.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (measuring) measuredBytes += chunk.length;
        });
        response.on("close", () => {
          if (received !== expectedBytes) return fail(new Error(`${call.method} ${call.url} sent ${received} of ${expectedBytes} bytes`));
          if (measuring) completed += 1;
          resolve();
        });
      });
      download.end();
    });

  const client = async (call: DownloadCall) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      while (!stopping) await downloadOnce(call, agent);
    } finally {
      agent.destroy();
    }
  };

  const stop = () => {
    stopping = true;
    for (const download of inFlight) download.destroy();
  };
  const clients = Promise.all(calls.map(client)).catch((error: Error) => {
    stop();
    throw error;
  });
  // A client's failure ends the run at once, warm-up or not.
  const timeline = (async () => {
    await sleep(slice.warmupSeconds * 1000);
    measuring = true;
    const started = performance.now();
    const cpuBefore = cpuSecondsOfAll(processIds);
    await sleep(slice.seconds * 1000);
    measuring = false;
    const cpuSeconds = cpuSecondsOfAll(processIds) - cpuBefore;
    const seconds = (performance.now() - started) / 1000;
    stop();
    return { seconds, cpuSeconds };
  })();
  const [{ seconds, cpuSeconds }] = await Promise.all([timeline, clients]);
  return { megabytes: measuredBytes / MEGABYTE, seconds, cpuSeconds, completed };
}

/**
 * Measures every target (all downloading the same file) round after round, the targets in turn;
 * each figure is the median of its rounds.
 */
export async function compareDownloads<Target extends string>(
  targets: Record<Target, DownloadTarget>,
  expectedBytes: number,
  plan: DownloadPlan,
): Promise<Record<Target, DownloadFigures>> {
  const names = Object.keys(targets) as Target[];
  const slices = new Map<Target, Slice[]>(names.map((name) => [name, []]));
  for (let round = 0; round < plan.rounds; round += 1) {
    for (const name of names) {
      slices.get(name)!.push(await measureSlice(targets[name], expectedBytes, { seconds: plan.sliceSeconds, warmupSeconds: plan.warmupSeconds }));
    }
  }
  const figuresOf = (rounds: Slice[]): DownloadFigures => ({
    megabytesPerSecond: median(rounds.map((round) => round.megabytes / round.seconds)),
    cpuSecondsPerGigabyte: median(rounds.map((round) => round.cpuSeconds / (round.megabytes / MEGABYTES_PER_GIGABYTE))),
    completed: rounds.reduce((sum, round) => sum + round.completed, 0),
  });
  return Object.fromEntries([...slices].map(([name, rounds]) => [name, figuresOf(rounds)])) as Record<Target, DownloadFigures>;
}
