import { cpSync, existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { CATALOG_PAGE_SIZE } from "../shared/books.ts";
import { fixture } from "../test/helpers/book-fixtures.ts";
import { type Benchmark, type BenchmarkOptions, type BenchmarkResult, judged } from "./lib/benchmark.ts";
import { type LoadFigures, type LoadPlan, type LoadRequest, measureInRounds } from "./lib/load.ts";
import { BEHIND_TLS_PROXY, BROWSER_ACCEPT_ENCODING, registerAccounts, uploadBook } from "./lib/plume-client.ts";
import { startPlumeServer } from "./lib/plume-server.ts";
import { CACHE_DIR, RESULTS_DIR } from "./lib/transfer-server.ts";
import { seedForRun } from "./seed/kept-seed.ts";

/**
 * The catalog's search while the cover queue draws the first pages of N PDFs just published
 * (docs/decisions/0073), against the same search at rest, measured in the same run on the same server:
 * at rest on the seeded catalog, then again right after the N uploads, while their covers are drawn.
 * With the queue's defaults (its drawing process niced, the next cover waiting while requests are in
 * flight) and, in the full run, as it was before (COVER_NICENESS=0, COVER_PAUSE_MAX_SECONDS=0), each on
 * a copy of the same seeded database. On the embedded database, as `npm start` runs: the server then answers
 * its queries in its own process, the one the cover's drawing competes with. Each upload is the
 * fixture's real one-page PDF.
 */
const CONNECTIONS = 10;
const AUTHORS = 4;
const SEARCH = `/api/books?limit=${CATALOG_PAGE_SIZE}&offset=0&search=cafe`;
interface Mode {
  pdfs: number;
  catalogBooks: number;
  plan: Omit<LoadPlan, "connections">;
  /** The quick run measures the defaults alone: seeding the embedded database and starting a server take most of its time. */
  queues: Queue[];
}
const MODES: Record<"full" | "quick", Mode> = {
  full: { pdfs: 1_000, catalogBooks: 3_000, plan: { rounds: 3, sliceSeconds: 4, warmupSeconds: 3 }, queues: ["yielding", "as-before"] },
  quick: { pdfs: 20, catalogBooks: 500, plan: { rounds: 1, sliceSeconds: 2, warmupSeconds: 1 }, queues: ["yielding"] },
};
/** The search's p99 while covers are drawn, over its p99 at rest, in the same run. */
const DRAWING_VS_REST_P99 = 2;

const QUEUES = {
  yielding: { settings: {}, what: "the defaults: the drawing process at COVER_NICENESS=10, the next cover waiting while more than 2 requests are in flight" },
  "as-before": { settings: { COVER_NICENESS: "0", COVER_PAUSE_MAX_SECONDS: "0" }, what: "COVER_NICENESS=0 and COVER_PAUSE_MAX_SECONDS=0: one cover after another at the server's priority, as before" },
} as const;
type Queue = keyof typeof QUEUES;

interface QueueFigures {
  rest: LoadFigures;
  drawing: LoadFigures;
  uploadSeconds: number;
  /** Covers drawn (pages counted) when the uploads ended, and when the measurement under covers ended. */
  drawnAfterUploads: number;
  drawnAfterMeasurement: number;
}

/** Covers the queue has stored (each at three widths): the seeded catalog has none, and the embedded database is the server's alone. */
function coversDrawn(dataDir: string): number {
  const covers = join(dataDir, "uploads", "covers");
  return existsSync(covers) ? readdirSync(covers).filter((name) => name.endsWith("-600.webp")).length : 0;
}

/** Publishes `count` PDFs from `authors` at once, each author one upload after another. */
async function publishPdfs(baseUrl: string, authors: string[], count: number): Promise<void> {
  let next = 0;
  await Promise.all(
    authors.map(async (cookie) => {
      for (let index = next++; index < count; index = next++) {
        const answer = await uploadBook(baseUrl, cookie, { title: `Published at once ${index + 1}`, filePath: fixture("book.pdf") });
        if (answer.status !== 201) throw new Error(`Publishing PDF ${index + 1} answered ${answer.status}: ${answer.body}`);
      }
    }),
  );
}

async function measureQueue(queue: Queue, seeded: string, mode: Mode, log: (line: string) => void): Promise<QueueFigures> {
  const dataDir = join(CACHE_DIR, "cover-queue", queue);
  rmSync(dataDir, { recursive: true, force: true });
  cpSync(seeded, dataDir, { recursive: true });
  const server = await startPlumeServer({ kind: "pglite", dataDir }, {
    dataDir,
    logFile: join(RESULTS_DIR, `plume-cover-queue-${queue}.log`),
    settings: { TRUST_PROXY: "loopback", ...QUEUES[queue].settings },
  });
  try {
    const search: LoadRequest = { url: `${server.url}${SEARCH}`, headers: { ...BEHIND_TLS_PROXY, ...BROWSER_ACCEPT_ENCODING }, serverPid: server.pid };
    const authors = await registerAccounts(server.url, `author_${queue.replace("-", "_")}`, AUTHORS);
    const rest = (await measureInRounds({ search }, { connections: CONNECTIONS, ...mode.plan })).search!;
    log(`${queue}, at rest: p50 ${rest.p50Ms} ms, p99 ${rest.p99Ms} ms, ${rest.requestsPerSecond.toFixed(0)} req/s`);

    const uploadStarted = performance.now();
    await publishPdfs(server.url, authors, mode.pdfs);
    const uploadSeconds = (performance.now() - uploadStarted) / 1000;
    const drawnAfterUploads = coversDrawn(dataDir);
    log(`${queue}: ${mode.pdfs} PDFs published in ${uploadSeconds.toFixed(1)} s, ${drawnAfterUploads} covers drawn by then`);
    const drawing = (await measureInRounds({ search }, { connections: CONNECTIONS, ...mode.plan, warmupSeconds: 0 })).search!;
    const drawnAfterMeasurement = coversDrawn(dataDir);
    log(`${queue}, drawing covers: p50 ${drawing.p50Ms} ms, p99 ${drawing.p99Ms} ms, ${drawing.requestsPerSecond.toFixed(0)} req/s; ${drawnAfterMeasurement} covers drawn by its end`);
    if (drawnAfterMeasurement >= mode.pdfs) log(`${queue}: every cover was drawn before the measurement ended: part of it was at rest`);
    return { rest, drawing, uploadSeconds, drawnAfterUploads, drawnAfterMeasurement };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function run({ quick, log }: BenchmarkOptions) {
  const mode = MODES[quick ? "quick" : "full"];
  const seeded = join(CACHE_DIR, "cover-queue", "seeded");
  const sizes = { books: mode.catalogBooks, users: Math.ceil(mode.catalogBooks / 10), downloads: mode.catalogBooks, seed: 42 };
  await seedForRun({ kind: "pglite", dataDir: seeded }, sizes, { quick, cacheDir: join(CACHE_DIR, "cover-queue"), log: () => {} });
  const figures: Partial<Record<Queue, QueueFigures>> = {};
  for (const queue of mode.queues) figures[queue] = await measureQueue(queue, seeded, mode, log);
  const searched = `"cafe" over ${mode.catalogBooks.toLocaleString("en")} seeded books on the embedded database, ${CONNECTIONS} connections, median of ${mode.plan.rounds} × ${mode.plan.sliceSeconds} s${quick ? " (quick)" : ""}`;
  const published = `${mode.pdfs.toLocaleString("en")} PDFs`;
  const results: BenchmarkResult[] = mode.queues.flatMap((queue) => {
    const { rest, drawing, uploadSeconds, drawnAfterUploads, drawnAfterMeasurement } = figures[queue]!;
    const budgeted = queue === "yielding";
    return [
      judged({ name: `cover-queue.${queue}.search-at-rest.p99`, figure: rest.p99Ms, unit: "ms", peers: [], budgets: [], note: `${QUEUES[queue].what}; ${searched}, before the PDFs` }),
      judged({
        name: `cover-queue.${queue}.search-drawing.p99`,
        figure: drawing.p99Ms,
        unit: "ms",
        peers: [{ name: "at rest", figure: rest.p99Ms }],
        budgets: [],
        note: `right after ${published} were published, their covers being drawn: ${drawing.requestsPerSecond.toFixed(0)} req/s against ${rest.requestsPerSecond.toFixed(0)} at rest`,
      }),
      judged({
        name: `cover-queue.${queue}.search-drawing-vs-rest.p99`,
        figure: drawing.p99Ms / rest.p99Ms,
        unit: "× at rest",
        peers: [],
        budgets: budgeted ? [{ kind: "at-most", limit: DRAWING_VS_REST_P99 }] : [],
        note: budgeted ? "the queue's cost to the search, both measured on the same server in the same run" : "for comparison: not budgeted",
      }),
      judged({
        name: `cover-queue.${queue}.publish-time`,
        figure: uploadSeconds,
        unit: "s",
        peers: [],
        budgets: [],
        note: `${published} published by ${AUTHORS} authors at once, while the queue draws: ${drawnAfterUploads} covers drawn by their end`,
      }),
      judged({
        name: `cover-queue.${queue}.covers-drawn-while-searched`,
        figure: drawnAfterMeasurement - drawnAfterUploads,
        unit: "covers",
        peers: [],
        budgets: [],
        note: `during the searches (${mode.plan.rounds} × ${mode.plan.sliceSeconds} s and the pauses between): the queue's pace under load`,
      }),
    ];
  });
  return { results, context: { mode, connections: CONNECTIONS, authors: AUTHORS, search: SEARCH, queues: QUEUES, figures } };
}

export const benchmark: Benchmark = { name: "cover-queue", run };
