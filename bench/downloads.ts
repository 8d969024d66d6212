import { mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { BOOK_FILE_MAX_BYTES } from "../shared/books.ts";
import { calibreDownloadUrl, calibreLibraryWithBook } from "./baselines/calibre-download.ts";
import { calibreVersion, startCalibreServer } from "./baselines/calibre-server.ts";
import { ACCEL_REDIRECT_LOCATION, nginxVersion, startNginx, startNginxInFront } from "./baselines/nginx.ts";
import { type Benchmark, type BenchmarkOptions, type BenchmarkResult, judged } from "./lib/benchmark.ts";
import { type DownloadCall, type DownloadFigures, type DownloadPlan, type DownloadTarget, MEGABYTE, compareDownloads } from "./lib/download-load.ts";
import { writeLargePdf } from "./lib/large-pdf.ts";
import { BEHIND_TLS_PROXY, BROWSER_ACCEPT_ENCODING, registerAccounts, uploadBook } from "./lib/plume-client.ts";
import { type MemoryFigures, sampleMemory } from "./lib/process-memory.ts";
import type { ReadyProcess } from "./lib/ready-process.ts";
import { CACHE_DIR, RESULTS_DIR, coversDrawn, startAnotherTransferServer, startTransferServer } from "./lib/transfer-server.ts";

/**
 * One large book downloaded over and over by 8 then 32 signed-in readers at once, each on a
 * connection of their own, from the real server (the download call, counted in the database), from
 * the real server behind nginx as docs/deploy.md sets it up with DOWNLOADS_ACCEL_REDIRECT (Plume
 * decides and counts, nginx sends the bytes: docs/decisions/0078), from nginx serving the very file
 * Plume stored, and from calibre's content server (its own copy).
 */

/**
 * The quick run keeps the book's size (a smaller one would weigh each download's bookkeeping more and
 * tell another story) but signs in 8 readers only, each sign-up costing a deliberately slow password
 * hash, and measures one round of 1 s per target.
 */
const FILE_BYTES = BOOK_FILE_MAX_BYTES;
const MODES = {
  full: { clientCounts: [8, 32], plan: { rounds: 4, sliceSeconds: 3, warmupSeconds: 1 } },
  quick: { clientCounts: [8], plan: { rounds: 1, sliceSeconds: 1, warmupSeconds: 0.5 } },
} satisfies Record<string, { clientCounts: number[]; plan: DownloadPlan }>;
const BUDGET = { throughputVsNginx: 0.8, behindNginxVsNginx: 1.0 };

type Target = "plume" | "plume-nginx" | "nginx" | "calibre";
const TARGETS: Target[] = ["plume", "plume-nginx", "nginx", "calibre"];

interface Measured {
  downloads: Record<Target, DownloadFigures>;
  /** The Plume server's resident memory from the first round to the last (the peers are not sampled). */
  memory: MemoryFigures;
}

const megabytes = (bytes: number) => bytes / MEGABYTE;

/** A server's process and its children (nginx's workers), from /proc. */
function withChildren(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return [pid, ...(children ? children.split(" ").map(Number) : [])];
}

function resultsFor(clients: number, { downloads, memory }: Measured, modeNote: string): BenchmarkResult[] {
  const prefix = `downloads.${clients}-clients`;
  const throughputOf = (target: Target) => downloads[target].megabytesPerSecond;
  const cpuOf = (target: Target) => downloads[target].cpuSecondsPerGigabyte;
  return [
    judged({
      name: `${prefix}.throughput`,
      figure: throughputOf("plume"),
      unit: "MB/s",
      peers: [
        { name: "nginx", figure: throughputOf("nginx") },
        { name: "calibre", figure: throughputOf("calibre") },
      ],
      budgets: [{ kind: "ratio-at-least", peer: "nginx", ratio: BUDGET.throughputVsNginx }],
      note: `${clients} signed-in readers, one connection each; ${modeNote}`,
    }),
    judged({
      name: `${prefix}.cpu-per-gb`,
      figure: cpuOf("plume"),
      unit: "CPU s/GB",
      peers: [
        { name: "nginx", figure: cpuOf("nginx") },
        { name: "calibre", figure: cpuOf("calibre") },
      ],
      budgets: [],
      note: "CPU time of the serving processes per GB sent (nginx: master and workers): steadier than throughput on a busy machine",
    }),
    judged({
      name: `${prefix}.behind-nginx.throughput`,
      figure: throughputOf("plume-nginx"),
      unit: "MB/s",
      peers: [
        { name: "nginx", figure: throughputOf("nginx") },
        { name: "plume", figure: throughputOf("plume") },
      ],
      budgets: [{ kind: "ratio-at-least", peer: "nginx", ratio: BUDGET.behindNginxVsNginx }],
      note: `the same download call through nginx with DOWNLOADS_ACCEL_REDIRECT: Plume decides and counts, nginx sends the file (sendfile); ${modeNote}`,
    }),
    judged({
      name: `${prefix}.behind-nginx.cpu-per-gb`,
      figure: cpuOf("plume-nginx"),
      unit: "CPU s/GB",
      peers: [
        { name: "nginx", figure: cpuOf("nginx") },
        { name: "plume", figure: cpuOf("plume") },
      ],
      budgets: [],
      note: "CPU time of Plume's process and nginx's (master and workers) per GB sent",
    }),
    judged({
      name: `${prefix}.memory-peak`,
      figure: megabytes(memory.peakBytes),
      unit: "MB",
      peers: [],
      budgets: [],
      note: `Plume's resident memory at its highest (${megabytes(memory.beforeBytes).toFixed(0)} MB before)`,
    }),
    judged({ name: `${prefix}.memory-growth`, figure: megabytes(memory.growthBytes), unit: "MB", peers: [], budgets: [], note: "peak − before" }),
  ];
}

async function run({ quick, log }: BenchmarkOptions) {
  const { clientCounts, plan } = MODES[quick ? "quick" : "full"];
  const modeNote = `${megabytes(FILE_BYTES)} MB PDF, ${plan.rounds * plan.sliceSeconds} s measured per target${quick ? " (quick)" : ""}`;
  const [nginxRelease, calibreRelease] = await Promise.all([nginxVersion(), calibreVersion()]);
  const versions = { nginx: nginxRelease, calibre: calibreRelease };
  const workDir = join(CACHE_DIR, "downloads");
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(join(workDir, "nginx"), { recursive: true });
  const bookFile = join(workDir, "book.pdf");
  writeLargePdf(bookFile, FILE_BYTES);

  const started: ReadyProcess[] = [];
  const measured: Record<number, Measured> = {};
  try {
    // calibre (its library, then its server) starts beside Plume; whichever started is stopped even when the other failed.
    const [calibreStart, plumeStart] = await Promise.allSettled([
      calibreLibraryWithBook(bookFile, join(workDir, "calibre")).then(async (bookId) => ({
        bookId,
        server: await startCalibreServer(join(workDir, "calibre"), join(RESULTS_DIR, "calibre-downloads.log")),
      })),
      startTransferServer("downloads"),
    ]);
    if (calibreStart.status === "fulfilled") started.push(calibreStart.value.server);
    if (plumeStart.status === "fulfilled") started.push(plumeStart.value.server);
    if (calibreStart.status === "rejected") throw calibreStart.reason;
    if (plumeStart.status === "rejected") throw plumeStart.reason;
    const { bookId: calibreBookId, server: calibre } = calibreStart.value;
    const plume = plumeStart.value;
    const [[author], readers] = await Promise.all([registerAccounts(plume.server.url, "author", 1), registerAccounts(plume.server.url, "reader", Math.max(...clientCounts))]);
    const upload = await uploadBook(plume.server.url, author!, { title: "A large book", filePath: bookFile });
    if (upload.status !== 201) throw new Error(`Publishing the book answered ${upload.status}: ${upload.body}`);
    const bookId = (JSON.parse(upload.body) as { id: number }).id;
    // Its first page is drawn by a child process of Plume's: measured downloads must not include that work.
    await coversDrawn();
    const stored = readdirSync(join(plume.uploadsDir, "books"));
    if (stored.length !== 1) throw new Error(`Plume stored ${stored.length} book files, not the one published`);
    log(`published a ${megabytes(FILE_BYTES)} MB book (id ${bookId}); ${readers.length} readers signed in`);

    const nginx = await startNginx(join(plume.uploadsDir, "books"), `/${stored[0]}`, { scratch: join(workDir, "nginx"), logFile: join(RESULTS_DIR, "nginx-downloads.log") });
    started.push(nginx);
    const accelerated = await startAnotherTransferServer("downloads", "downloads-accel", { DOWNLOADS_ACCEL_REDIRECT: ACCEL_REDIRECT_LOCATION });
    started.push(accelerated.server);
    mkdirSync(join(workDir, "nginx-in-front"), { recursive: true });
    const inFront = await startNginxInFront(accelerated.server.url, accelerated.uploadsDir, { scratch: join(workDir, "nginx-in-front"), logFile: join(RESULTS_DIR, "nginx-in-front-downloads.log") });
    started.push(inFront);
    const calibreUrl = await calibreDownloadUrl(calibre.url, calibreBookId, "PDF");
    const callsFor = (target: Target, clients: number): DownloadCall[] => {
      if (target === "plume" || target === "plume-nginx") {
        return readers.slice(0, clients).map((cookie) => ({
          url: `${target === "plume" ? plume.server.url : inFront.url}/api/books/${bookId}/download`,
          method: "POST",
          headers: { Cookie: cookie, ...(target === "plume" ? BEHIND_TLS_PROXY : {}), ...BROWSER_ACCEPT_ENCODING },
        }));
      }
      const url = target === "nginx" ? `${nginx.url}/${stored[0]}` : calibreUrl;
      return Array.from({ length: clients }, () => ({ url, method: "GET", headers: { ...BROWSER_ACCEPT_ENCODING } }));
    };
    const servers: Record<Target, ReadyProcess[]> = { plume: [plume.server], "plume-nginx": [accelerated.server, inFront], nginx: [nginx], calibre: [calibre] };
    const targetsFor = (clients: number) =>
      Object.fromEntries(
        TARGETS.map((target) => [target, { calls: callsFor(target, clients), processIds: servers[target].flatMap((server) => withChildren(server.pid)) }]),
      ) as Record<Target, DownloadTarget>;

    for (const clients of clientCounts) {
      const memory = sampleMemory(plume.server.pid);
      const downloads = await compareDownloads(targetsFor(clients), FILE_BYTES, plan);
      measured[clients] = { downloads, memory: memory.stop() };
      for (const target of TARGETS) {
        const figures = downloads[target];
        log(`${clients} clients on ${target}: ${figures.megabytesPerSecond.toFixed(0)} MB/s, ${figures.cpuSecondsPerGigabyte.toFixed(2)} CPU s/GB, ${figures.completed} whole downloads`);
      }
    }
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }

  return {
    results: clientCounts.flatMap((clients) => resultsFor(clients, measured[clients]!, modeNote)),
    context: { fileBytes: FILE_BYTES, plan, clientCounts, versions, measured },
  };
}

export const benchmark: Benchmark = { name: "downloads", run };
