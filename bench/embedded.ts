import { cpSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { CATALOG_PAGE_SIZE } from "../shared/books.ts";
import { PGLITE_SHARED_BUFFERS } from "../server/db/pglite-shared-buffers.ts";
import { projectRoot } from "../server/paths.ts";
import { type Benchmark, type BenchmarkOptions, type BenchmarkResult, judged } from "./lib/benchmark.ts";
import { type LoadFigures, type LoadPlan, type LoadRequest, measureAtRate, measureInRounds, warmUp } from "./lib/load.ts";
import { BEHIND_TLS_PROXY, BROWSER_ACCEPT_ENCODING } from "./lib/plume-client.ts";
import { startPlumeServer } from "./lib/plume-server.ts";
import { processTree } from "./lib/process-tree.ts";
import type { ReadyProcess } from "./lib/ready-process.ts";
import { CACHE_DIR, RESULTS_DIR } from "./lib/transfer-server.ts";
import { seedForRun } from "./seed/kept-seed.ts";

/**
 * The price of the embedded default's footprint settings (docs/decisions/0045): the same server on
 * copies of the same seeded embedded database, once as `npm start` runs it (the node flags of
 * package.json's start script, PGLITE_SHARED_BUFFERS at its default) and once untuned (Node's own
 * defaults, PGlite's 128 MB of shared buffers), measured in the same run, round by round. The catalog's
 * first page, a search and a genre at 50 connections; the search offered at a fixed 200 requests a
 * second; each server's process tree at rest after the load.
 */

const CONNECTIONS = 50;
const OFFERED_RATE = 200;
const BUDGET = { throughputVsUntuned: 0.9, restingMegabytes: 300, p99AtRateMs: 100 };
const MEGABYTE = 1024 * 1024;

interface Mode {
  books: number;
  /** The full run also measures each half of the settings alone, to tell which costs what. */
  setups: Setup[];
  plan: Omit<LoadPlan, "connections">;
  rateSeconds: number;
}
const MODES: Record<"full" | "quick", Mode> = {
  full: { books: 3_000, setups: ["shipped", "untuned", "node-defaults", "large-buffers"], plan: { rounds: 5, sliceSeconds: 3, warmupSeconds: 3 }, rateSeconds: 10 },
  quick: { books: 1_000, setups: ["shipped", "untuned"], plan: { rounds: 1, sliceSeconds: 2, warmupSeconds: 1 }, rateSeconds: 3 },
};

/** The node flags `npm start` runs the server with, read from package.json so that they cannot drift apart. */
function shippedNodeFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")) as { scripts: Record<string, string> };
  const words = scripts.start!.split(/\s+/);
  if (words[0] !== "node") throw new Error(`package.json's start script does not run node: ${scripts.start}`);
  return words.slice(1).filter((word) => word.startsWith("--"));
}

const SHIPPED_NODE_FLAGS = shippedNodeFlags();

const SETUPS = {
  shipped: { nodeFlags: SHIPPED_NODE_FLAGS, settings: {}, what: `as npm start runs it: node ${SHIPPED_NODE_FLAGS.join(" ")}, PGLITE_SHARED_BUFFERS=${PGLITE_SHARED_BUFFERS}` },
  untuned: { nodeFlags: [], settings: { PGLITE_SHARED_BUFFERS: "128MB" }, what: "Node's own defaults, PGLITE_SHARED_BUFFERS=128MB (PGlite's)" },
  "node-defaults": { nodeFlags: [], settings: {}, what: `Node's own defaults, PGLITE_SHARED_BUFFERS=${PGLITE_SHARED_BUFFERS}` },
  "large-buffers": { nodeFlags: SHIPPED_NODE_FLAGS, settings: { PGLITE_SHARED_BUFFERS: "128MB" }, what: `node ${SHIPPED_NODE_FLAGS.join(" ")}, PGLITE_SHARED_BUFFERS=128MB` },
} as const;
type Setup = keyof typeof SETUPS;

const page = `/api/books?limit=${CATALOG_PAGE_SIZE}`;
const SCENARIOS = [
  { name: "first-page", path: `${page}&offset=0`, note: "the catalog's first page, newest first" },
  { name: "search", path: `${page}&offset=0&search=cafe`, note: "a search for \"cafe\", ranked by relevance" },
  { name: "genre", path: `${page}&offset=0&genre=novela&sort=downloads`, note: "one genre, most downloaded first" },
] as const;

const requestOf = (server: ReadyProcess, path: string): LoadRequest => ({ url: `${server.url}${path}`, headers: { ...BEHIND_TLS_PROXY, ...BROWSER_ACCEPT_ENCODING }, serverPid: server.pid });

/** What the server's process tree holds (proportional set sizes), in MB. */
const treeMegabytes = (server: ReadyProcess) => processTree(server.pid).reduce((sum, process) => sum + process.pssBytes, 0) / MEGABYTE;

async function run({ quick, log }: BenchmarkOptions) {
  const mode = MODES[quick ? "quick" : "full"];
  const seeded = join(CACHE_DIR, "embedded", "seeded");
  const sizes = { books: mode.books, users: Math.ceil(mode.books / 10), downloads: mode.books * 10, seed: 42 };
  await seedForRun({ kind: "pglite", dataDir: seeded }, sizes, { quick, cacheDir: join(CACHE_DIR, "embedded"), log: () => {} });

  const servers: Partial<Record<Setup, ReadyProcess>> = {};
  try {
    for (const setup of mode.setups) {
      const dataDir = join(CACHE_DIR, "embedded", setup);
      rmSync(dataDir, { recursive: true, force: true });
      cpSync(seeded, dataDir, { recursive: true });
      servers[setup] = await startPlumeServer(
        { kind: "pglite", dataDir },
        { dataDir, logFile: join(RESULTS_DIR, `plume-embedded-${setup}.log`), nodeFlags: [...SETUPS[setup].nodeFlags], settings: { TRUST_PROXY: "loopback", ...SETUPS[setup].settings } },
      );
    }
    const started = mode.setups.map((setup) => [setup, servers[setup]!] as const);
    const requestsFor = (path: string) => Object.fromEntries(started.map(([setup, server]) => [setup, requestOf(server, path)])) as Partial<Record<Setup, LoadRequest>>;
    await warmUp(SCENARIOS.flatMap((scenario) => Object.values(requestsFor(scenario.path))), CONNECTIONS, mode.plan.warmupSeconds);

    const saturated: Record<string, Partial<Record<Setup, LoadFigures>>> = {};
    for (const scenario of SCENARIOS) {
      saturated[scenario.name] = await measureInRounds(requestsFor(scenario.path), { connections: CONNECTIONS, ...mode.plan }, (setup, figures) =>
        log(`${scenario.name}, ${setup}: ${figures.requestsPerSecond.toFixed(0)} req/s, p99 ${figures.p99Ms} ms`),
      );
    }
    const search = SCENARIOS.find((scenario) => scenario.name === "search")!;
    const atRate: Partial<Record<Setup, LoadFigures>> = {};
    for (const setup of mode.setups) {
      atRate[setup] = await measureAtRate(requestOf(servers[setup]!, search.path), { connections: CONNECTIONS, rate: OFFERED_RATE, seconds: mode.rateSeconds });
      log(`search at ${OFFERED_RATE} req/s, ${setup}: ${atRate[setup].requestsPerSecond.toFixed(0)} answered a second, p50 ${atRate[setup].p50Ms} ms, p99 ${atRate[setup].p99Ms} ms`);
    }
    // At rest: what the load left behind once the collector and the database have had a moment.
    await sleep(3_000);
    const resting = Object.fromEntries(started.map(([setup, server]) => [setup, treeMegabytes(server)])) as Partial<Record<Setup, number>>;
    log(`at rest after the load: ${started.map(([setup]) => `${setup} ${resting[setup]!.toFixed(0)} MB`).join(", ")}`);
    /** The other setups measured, as peers of the shipped one. */
    const peersOf = (figureOf: (setup: Setup) => number) => mode.setups.filter((setup) => setup !== "shipped").map((setup) => ({ name: setup, figure: figureOf(setup) }));

    const catalog = `${mode.books.toLocaleString("en")} seeded books on the embedded database${quick ? " (quick)" : ""}`;
    const results: BenchmarkResult[] = SCENARIOS.flatMap((scenario) => {
      const figures = saturated[scenario.name]!;
      return [
        judged({
          name: `embedded.${scenario.name}.throughput`,
          figure: figures.shipped!.requestsPerSecond,
          unit: "req/s",
          peers: peersOf((setup) => figures[setup]!.requestsPerSecond),
          budgets: [{ kind: "ratio-at-least", peer: "untuned", ratio: BUDGET.throughputVsUntuned }],
          note: `${scenario.note}; ${catalog}, ${CONNECTIONS} connections, median of ${mode.plan.rounds} × ${mode.plan.sliceSeconds} s; ${mode.setups.map((setup) => `${setup}: ${SETUPS[setup].what}`).join("; ")}`,
        }),
        judged({ name: `embedded.${scenario.name}.p99`, figure: figures.shipped!.p99Ms, unit: "ms", peers: peersOf((setup) => figures[setup]!.p99Ms), budgets: [] }),
      ];
    });
    results.push(
      judged({
        name: `embedded.search-at-${OFFERED_RATE}.p99`,
        figure: atRate.shipped!.p99Ms,
        unit: "ms",
        peers: peersOf((setup) => atRate[setup]!.p99Ms),
        budgets: [{ kind: "at-most", limit: BUDGET.p99AtRateMs }],
        note: `the search offered at ${OFFERED_RATE} req/s for ${mode.rateSeconds} s over ${CONNECTIONS} connections: ${atRate.shipped!.requestsPerSecond.toFixed(0)} answered a second (untuned ${atRate.untuned!.requestsPerSecond.toFixed(0)}); ${catalog}`,
      }),
      judged({
        name: "embedded.resting-memory",
        figure: resting.shipped!,
        unit: "MB",
        peers: peersOf((setup) => resting[setup]!),
        budgets: [{ kind: "at-most", limit: BUDGET.restingMegabytes }],
        note: "the server's process tree (proportional set sizes) 3 s after the load; no chain in this tree, which npm start adds",
      }),
    );
    return { results, context: { sizes, mode, setups: SETUPS, saturated, atRate, resting } };
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
}

export const benchmark: Benchmark = { name: "embedded", run };
