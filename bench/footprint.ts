import { mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { projectRoot } from "../server/paths.ts";
import { type Benchmark, type BenchmarkOptions, type BenchmarkResult, judged } from "./lib/benchmark.ts";
import { MEGABYTE } from "./lib/download-load.ts";
import { writeLargePdf } from "./lib/large-pdf.ts";
import { cpuSecondsOf } from "./lib/load.ts";
import { registerAccounts, uploadBook } from "./lib/plume-client.ts";
import { type ProcessFootprint, processTree } from "./lib/process-tree.ts";
import { type ReadyProcess, startReadyProcess } from "./lib/ready-process.ts";
import { CACHE_DIR, RESULTS_DIR } from "./lib/transfer-server.ts";

/**
 * The embedded default as a newcomer runs it: `npm start` on an empty data folder (PGlite, files on
 * disk, the local Hardhat chain), one book published and a few pages read, then left alone. Every
 * process of the tree is measured at rest, on the first start and again after a restart on the same
 * data folder.
 */

const BUDGET = { restingMegabytes: 300 };
const BOOK_BYTES = 2 * MEGABYTE;
/** At rest: the tree spent at most this share of one core over a window (the payout worker's polls). */
const REST_WINDOW_MS = 2_000;
const REST_CPU_SHARE = 0.02;
/**
 * Time for what follows the last request (the cover, timers of a few seconds) before rest is sought. The
 * quick run gives it 3 s: the quiet window that follows still has to be found before anything is measured.
 */
const SETTLE_MS = { full: 10_000, quick: 3_000 };
const REST_LIMIT_MS = 60_000;

async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `npm start` in a data folder of its own, the chain on a free port; resolves once it says it is ready. */
async function npmStart(dataDir: string, logName: string): Promise<ReadyProcess> {
  return startReadyProcess({
    name: "npm start",
    command: "npm",
    args: ["start"],
    env: { DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: "0", LOCAL_CHAIN_PORT: String(await freePort()) },
    cwd: projectRoot,
    readyLine: /Plume is ready on https?:\/\/[^:\s]+:(\d+)/,
    logFile: join(RESULTS_DIR, logName),
    // A first start may build the browser app.
    startTimeoutMs: 300_000,
    ownProcessGroup: true,
  });
}

async function expectOk(response: Response, what: string): Promise<void> {
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  await response.arrayBuffer();
}

/** Publishes a PDF and waits until its first page became its cover; returns the book's id. */
async function publishBook(url: string, cookie: string, bookFile: string): Promise<number> {
  const upload = await uploadBook(url, cookie, { title: "A book at rest", filePath: bookFile });
  if (upload.status !== 201) throw new Error(`Publishing the book answered ${upload.status}: ${upload.body}`);
  const { id } = JSON.parse(upload.body) as { id: number };
  for (const started = Date.now(); Date.now() - started < 60_000; await sleep(250)) {
    const book = (await (await fetch(`${url}/api/books/${id}`)).json()) as { pageCount: number | null; coverImageUrl: string | null };
    if (book.pageCount !== null && book.coverImageUrl !== null) return id;
  }
  throw new Error(`Book ${id} got no cover from its first page within 60 s`);
}

/** The book the first start published, as the restarted server lists it. */
async function publishedBook(url: string): Promise<number> {
  const [book] = (await (await fetch(`${url}/api/books`)).json()) as Array<{ id: number }>;
  if (!book) throw new Error("After the restart the catalog is empty");
  return book.id;
}

/** What a reader does on a first visit: the home page, the catalog, the book's page, its cover, its download. */
async function readPages(url: string, cookie: string, bookId: number): Promise<void> {
  for (const path of ["/", "/catalog", `/books/${bookId}`, "/api/books?sort=newest", `/api/books/${bookId}`]) await expectOk(await fetch(`${url}${path}`), `GET ${path}`);
  const book = (await (await fetch(`${url}/api/books/${bookId}`)).json()) as { coverImageUrl: string };
  await expectOk(await fetch(`${url}${book.coverImageUrl}`), `GET ${book.coverImageUrl}`);
  await expectOk(await fetch(`${url}/api/books/${bookId}/download`, { method: "POST", headers: { Cookie: cookie } }), "The download");
}

/** Waits until the whole tree is idle: some seconds after the last request, then a quiet window. */
async function waitForRest(rootPid: number, settleMs: number): Promise<number> {
  await sleep(settleMs);
  const cpuOfTree = () => processTree(rootPid).reduce((total, process) => total + cpuSecondsOf(process.pid), 0);
  const started = Date.now();
  for (;;) {
    const before = cpuOfTree();
    await sleep(REST_WINDOW_MS);
    const share = (cpuOfTree() - before) / (REST_WINDOW_MS / 1000);
    if (share <= REST_CPU_SHARE) return (Date.now() - started + settleMs) / 1000;
    if (Date.now() - started > REST_LIMIT_MS) throw new Error(`The tree still used ${(share * 100).toFixed(0)}% of a core ${REST_LIMIT_MS / 1000} s after the last request`);
  }
}

/** Stops `npm start` as Ctrl-C does and checks that its whole tree ended (the chain ends just after the server). */
async function stopTree(plume: ReadyProcess): Promise<void> {
  const tree = processTree(plume.pid);
  await plume.stop();
  const running = () => tree.filter((process) => processTree(process.pid).some((found) => found.pid === process.pid && found.command.join(" ") === process.command.join(" ")));
  for (let waited = 0; running().length > 0 && waited < 10_000; waited += 250) await sleep(250);
  const left = running();
  if (left.length > 0) throw new Error(`npm start left processes running after it stopped: ${left.map((process) => `${process.pid} ${process.command.join(" ").slice(0, 80)}`).join("; ")}`);
}

/**
 * A short name for a process of the tree: npm runs the start script through a shell, which runs the
 * server; below it, the local chain and any other child by the script it runs.
 */
function roleOf(process: Pick<ProcessFootprint, "command">, index: number): string {
  const roles = ["npm", "shell", "server"];
  if (index < roles.length) return roles[index]!;
  return process.command.join(" ").includes("hardhat") ? "local chain" : (process.command.at(-1)?.split("/").at(-1) ?? "child");
}

/** npm's own process and its shell: what any `npm run` holds, not Plume's. */
const LAUNCHER_ROLES = new Set(["npm", "shell"]);

interface Resting {
  seconds: number;
  processes: Array<{ role: string; pid: number; rssMegabytes: number; pssMegabytes: number; command: string }>;
}

function measureTree(rootPid: number, restSeconds: number): Resting {
  const processes = processTree(rootPid).map((process, index) => ({
    role: roleOf(process, index),
    pid: process.pid,
    rssMegabytes: process.rssBytes / MEGABYTE,
    pssMegabytes: process.pssBytes / MEGABYTE,
    command: process.command.join(" ").slice(0, 200),
  }));
  return { seconds: restSeconds, processes };
}

const sumOf = (processes: Resting["processes"], pick: (process: Resting["processes"][0]) => number) => processes.reduce((total, process) => total + pick(process), 0);

function resultsFor(start: "first-start" | "restart", resting: Resting): BenchmarkResult[] {
  const plume = resting.processes.filter((process) => !LAUNCHER_ROLES.has(process.role));
  const describe = (processes: Resting["processes"]) => processes.map((process) => `${process.role} ${process.rssMegabytes.toFixed(0)}`).join(", ");
  const byRole = new Map<string, number>();
  for (const process of resting.processes) byRole.set(process.role, (byRole.get(process.role) ?? 0) + process.rssMegabytes);
  return [
    judged({
      name: `footprint.${start}.resident`,
      figure: sumOf(plume, (process) => process.rssMegabytes),
      unit: "MB",
      peers: [],
      budgets: [{ kind: "at-most", limit: BUDGET.restingMegabytes }],
      note: `RSS of Plume's processes under \`npm start\`, summed (MB): ${describe(plume)}; at rest ${resting.seconds.toFixed(0)} s after the last request`,
    }),
    judged({
      name: `footprint.${start}.resident-with-npm`,
      figure: sumOf(resting.processes, (process) => process.rssMegabytes),
      unit: "MB",
      peers: [],
      budgets: [],
      note: `the whole tree, npm's own process and its shell included: ${describe(resting.processes.filter((process) => LAUNCHER_ROLES.has(process.role)))}`,
    }),
    judged({
      name: `footprint.${start}.proportional`,
      figure: sumOf(plume, (process) => process.pssMegabytes),
      unit: "MB",
      peers: [],
      budgets: [],
      note: "PSS of Plume's processes summed: a page shared by n processes (the node executable's) counts 1/n",
    }),
    ...[...byRole]
      .filter(([role]) => !LAUNCHER_ROLES.has(role))
      .map(([role, megabytes]) => judged({ name: `footprint.${start}.${role.replaceAll(" ", "-")}`, figure: megabytes, unit: "MB", peers: [], budgets: [], note: "RSS" })),
  ];
}

async function run({ quick, log }: BenchmarkOptions) {
  const settleMs = SETTLE_MS[quick ? "quick" : "full"];
  const workDir = join(CACHE_DIR, "footprint");
  rmSync(workDir, { recursive: true, force: true });
  const dataDir = join(workDir, "data");
  mkdirSync(dataDir, { recursive: true });
  const bookFile = join(workDir, "book.pdf");
  writeLargePdf(bookFile, BOOK_BYTES);

  const measured: Partial<Record<"first-start" | "restart", Resting>> = {};
  for (const start of ["first-start", "restart"] as const) {
    const plume = await npmStart(dataDir, `plume-footprint-${start}.log`);
    try {
      const [cookie] = await registerAccounts(plume.url, start === "first-start" ? "author" : "reader", 1);
      const bookId = start === "first-start" ? await publishBook(plume.url, cookie!, bookFile) : await publishedBook(plume.url);
      await readPages(plume.url, cookie!, bookId);
      const resting = measureTree(plume.pid, await waitForRest(plume.pid, settleMs));
      measured[start] = resting;
      log(`${start}, at rest:`);
      for (const process of resting.processes) log(`  ${process.role.padEnd(12)} ${process.rssMegabytes.toFixed(0).padStart(4)} MB  ${process.command.slice(0, 100)}`);
    } finally {
      await stopTree(plume);
    }
  }
  return {
    results: [...resultsFor("first-start", measured["first-start"]!), ...resultsFor("restart", measured.restart!)],
    context: { bookBytes: BOOK_BYTES, settleMs, ...measured },
  };
}

export const benchmark: Benchmark = { name: "footprint", run };
