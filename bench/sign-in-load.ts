import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { HTTP_TIMEOUTS } from "../server/http/harden-server.ts";
import { BOOK_FILE_MAX_BYTES } from "../shared/books.ts";
import { type Benchmark, type BenchmarkOptions, judged } from "./lib/benchmark.ts";
import { type DownloadPlan, MEGABYTE, compareDownloads } from "./lib/download-load.ts";
import { writeLargePdf } from "./lib/large-pdf.ts";
import { median } from "./lib/load.ts";
import { BEHIND_TLS_PROXY, BROWSER_ACCEPT_ENCODING, registerAccounts, uploadBook } from "./lib/plume-client.ts";
import { CACHE_DIR, startTransferServer } from "./lib/transfer-server.ts";

/**
 * A 50 MB download while 20 clients sign in without pause, against the same download on a quiet
 * server. Each password hash holds one of libuv's threads, the pool that also reads the book's file;
 * Plume bounds the hashes that run at once (docs/decisions/0021) so the download keeps its pace. The
 * abuse limits are lifted (as in every transfer benchmark), so the hashing queue alone is measured.
 * Quiet and loaded slices alternate, and the median of each is kept. Then a flood (signInFlood).
 */
const FILE_BYTES = BOOK_FILE_MAX_BYTES;
/**
 * The quick run signs 4 clients up, not 20 (each sign-up is a slow hash, and the server hashes at most two
 * at once, HASHES_AT_ONCE in server/accounts/passwords.ts): still more than it hashes at once, so its queue
 * stays full.
 */
const MODES = {
  full: { signingInClients: 20, plan: { rounds: 4, sliceSeconds: 4, warmupSeconds: 1 } },
  quick: { signingInClients: 4, plan: { rounds: 2, sliceSeconds: 1, warmupSeconds: 0.5 } },
} satisfies Record<string, { signingInClients: number; plan: DownloadPlan }>;
const BUDGET = { loadedVsQuiet: 0.5 };
const PASSWORD = "bench-password";

interface SignInCounts {
  answered: Record<number, number>;
  seconds: number;
}

/** Clients that sign in again and again, each as soon as its last answer came, until stopped. */
function signInWithoutPause(baseUrl: string, usernames: string[]) {
  let stopping = false;
  const answered: Record<number, number> = {};
  const started = performance.now();
  const client = async (username: string) => {
    while (!stopping) {
      const response = await fetch(`${baseUrl}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...BEHIND_TLS_PROXY },
        body: JSON.stringify({ username, password: PASSWORD }),
      });
      await response.arrayBuffer();
      answered[response.status] = (answered[response.status] ?? 0) + 1;
    }
  };
  const clients = Promise.all(usernames.map(client));
  return {
    async stop(): Promise<SignInCounts> {
      stopping = true;
      await clients;
      return { answered, seconds: (performance.now() - started) / 1000 };
    },
  };
}

/**
 * A flood: FLOOD_REQUESTS wrong-password sign-ins sent at once, each waiting until the server's idle
 * timeout and a little more. Every one must get an answer, 401 or 503 server_busy, well before that
 * timeout would close its connection (docs/decisions/0054).
 */
const FLOOD_REQUESTS = 300;
const FLOOD_WAIT_MS = HTTP_TIMEOUTS.idleMs + 10_000;

async function signInFlood(baseUrl: string, username: string) {
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: FLOOD_REQUESTS }, async () => {
      try {
        const response = await fetch(`${baseUrl}/api/auth/login`, {
          method: "POST",
          headers: { "Content-Type": "application/json", ...BEHIND_TLS_PROXY },
          body: JSON.stringify({ username, password: "not-the-password" }),
          signal: AbortSignal.timeout(FLOOD_WAIT_MS),
        });
        await response.arrayBuffer();
        return { status: response.status, seconds: (performance.now() - started) / 1000 };
      } catch {
        return { status: 0, seconds: (performance.now() - started) / 1000 };
      }
    }),
  );
  const answered: Record<number, number> = {};
  for (const { status } of answers) answered[status] = (answered[status] ?? 0) + 1;
  return { answered, unanswered: answered[0] ?? 0, slowestSeconds: Math.max(...answers.filter(({ status }) => status !== 0).map(({ seconds }) => seconds)) };
}

async function run({ quick, log }: BenchmarkOptions) {
  const { signingInClients, plan } = MODES[quick ? "quick" : "full"];
  const workDir = join(CACHE_DIR, "sign-in-load");
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const bookFile = join(workDir, "book.pdf");
  writeLargePdf(bookFile, FILE_BYTES);

  const plume = await startTransferServer("sign-in-load");
  const quiet: number[] = [];
  const loaded: number[] = [];
  const signIns: SignInCounts[] = [];
  let flood: Awaited<ReturnType<typeof signInFlood>> | undefined;
  try {
    const baseUrl = plume.server.url;
    const [[author], [reader]] = await Promise.all([registerAccounts(baseUrl, "author", 1), registerAccounts(baseUrl, "reader", 1)]);
    await registerAccounts(baseUrl, "signer", signingInClients);
    const upload = await uploadBook(baseUrl, author!, { title: "A large book", filePath: bookFile });
    if (upload.status !== 201) throw new Error(`Publishing the book answered ${upload.status}: ${upload.body}`);
    const bookId = (JSON.parse(upload.body) as { id: number }).id;
    const download = {
      plume: {
        calls: [{ url: `${baseUrl}/api/books/${bookId}/download`, method: "POST" as const, headers: { Cookie: reader!, ...BEHIND_TLS_PROXY, ...BROWSER_ACCEPT_ENCODING } }],
        processIds: [plume.server.pid],
      },
    };
    const slice = { rounds: 1, sliceSeconds: plan.sliceSeconds, warmupSeconds: plan.warmupSeconds };
    const usernames = Array.from({ length: signingInClients }, (_, index) => `signer_${index + 1}`);

    for (let round = 0; round < plan.rounds; round += 1) {
      quiet.push((await compareDownloads(download, FILE_BYTES, slice)).plume.megabytesPerSecond);
      const load = signInWithoutPause(baseUrl, usernames);
      try {
        loaded.push((await compareDownloads(download, FILE_BYTES, slice)).plume.megabytesPerSecond);
      } finally {
        signIns.push(await load.stop());
      }
      log(`round ${round + 1}: quiet ${quiet.at(-1)!.toFixed(0)} MB/s, with sign-ins ${loaded.at(-1)!.toFixed(0)} MB/s, answers ${JSON.stringify(signIns.at(-1)!.answered)}`);
    }
    flood = await signInFlood(baseUrl, usernames[0]!);
    log(`flood of ${FLOOD_REQUESTS}: answers ${JSON.stringify(flood.answered)}, the slowest after ${flood.slowestSeconds.toFixed(1)} s`);
  } finally {
    await plume.server.stop();
  }

  const quietFigure = median(quiet);
  const loadedFigure = median(loaded);
  const signInsPerSecond = median(signIns.map(({ answered, seconds }) => (answered[200] ?? 0) / seconds));
  const note = `1 reader, ${FILE_BYTES / MEGABYTE} MB PDF, ${signingInClients} clients signing in without pause; ${plan.rounds} × ${plan.sliceSeconds} s${quick ? " (quick)" : ""}`;
  return {
    results: [
      judged({
        name: "sign-in-load.download-kept",
        figure: loadedFigure / quietFigure,
        unit: "× quiet",
        peers: [],
        budgets: [{ kind: "at-least", limit: BUDGET.loadedVsQuiet }],
        note: `${loadedFigure.toFixed(0)} of ${quietFigure.toFixed(0)} MB/s; ${note}`,
      }),
      judged({ name: "sign-in-load.sign-ins", figure: signInsPerSecond, unit: "sign-ins/s", peers: [], budgets: [], note: "successful sign-ins per second during the loaded slices" }),
      judged({
        name: "sign-in-load.flood-unanswered",
        figure: flood!.unanswered,
        unit: "requests",
        peers: [],
        budgets: [{ kind: "at-most", limit: 0 }],
        note: `of ${FLOOD_REQUESTS} wrong-password sign-ins sent at once: ${JSON.stringify(flood!.answered)}`,
      }),
      judged({
        name: "sign-in-load.flood-slowest-answer",
        figure: flood!.slowestSeconds,
        unit: "s",
        peers: [],
        budgets: [{ kind: "at-most", limit: HTTP_TIMEOUTS.idleMs / 1000 }],
        note: "the last answer of the flood; the server's idle timeout closes a silent connection at 30 s",
      }),
    ],
    context: { plan, signingInClients, quiet, loaded, signIns, flood },
  };
}

export const benchmark: Benchmark = { name: "sign-in-load", run };
