import { readFileSync } from "node:fs";
import { fixture } from "../test/helpers/book-fixtures.ts";
import { nginxVersion } from "../test/helpers/nginx.ts";
import { PlumeApi, type Session } from "../test/reliability/plume-api.ts";
import { Cluster } from "../test/scale-out/cluster.ts";
import { HANDOVER_LIMIT_MS, HANDOVER_SETTINGS, payoutHandover } from "../test/scale-out/payout-handover.ts";
import { type Benchmark, type BenchmarkOptions, type BenchmarkResult, judged } from "./lib/benchmark.ts";
import { type LoadFigures, type LoadPlan, measureInRounds } from "./lib/load.ts";
import { bundledServerScript } from "./lib/server-bundle.ts";

/**
 * Three Plume processes behind nginx on one PostgreSQL database and one bucket (test/scale-out,
 * docs/decisions/0044): how long the cluster takes to start, what nginx serves through three
 * processes against one, and how long payouts stop when the sender is killed or frozen, with the
 * payments owed, paid and paid twice. `npm run scale-out` runs this one alone.
 */

/** A server where the benchmark creates, then drops, a database of its own. */
const POSTGRES_URL = process.env.BENCH_SCALE_OUT_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const PLANS: Record<"full" | "quick", LoadPlan> = {
  full: { connections: 32, rounds: 3, sliceSeconds: 4, warmupSeconds: 2 },
  quick: { connections: 16, rounds: 1, sliceSeconds: 1, warmupSeconds: 0.5 },
};
const CATALOG_BOOKS = 6;
const READERS = 8;
const PASSWORD = "scale-out-bench";

type Target = "three" | "one";

function throughput(name: string, figures: Partial<Record<Target, LoadFigures>>, note: string): BenchmarkResult {
  return judged({
    name,
    figure: figures.three!.requestsPerSecond,
    unit: "req/s",
    peers: [{ name: "one-process", figure: figures.one!.requestsPerSecond }],
    budgets: [],
    note,
  });
}

async function run({ quick, log }: BenchmarkOptions) {
  const plan = PLANS[quick ? "quick" : "full"];
  const cluster = await Cluster.start({ postgresUrl: POSTGRES_URL, settings: HANDOVER_SETTINGS, nodeArgs: [await bundledServerScript("api")] });
  try {
    const { startTimes } = cluster;
    log(`cluster up in ${(startTimes.totalMs / 1000).toFixed(1)} s (chain, bucket, database ${(startTimes.dependenciesMs / 1000).toFixed(1)} s; 3 processes ${(startTimes.processesMs / 1000).toFixed(1)} s; nginx ${(startTimes.nginxMs / 1000).toFixed(1)} s)`);
    const api = new PlumeApi(() => cluster.url);
    const author = await api.register({ username: "bench_author", email: "bench_author@scale-out.test", password: PASSWORD });
    const file = { name: "book.pdf", type: "application/pdf", bytes: readFileSync(fixture("book.pdf")) };
    const cover = { name: "cover.jpg", type: "image/jpeg", bytes: readFileSync(fixture("cover.jpg")) };
    const books: number[] = [];
    for (let index = 0; index < CATALOG_BOOKS; index += 1) books.push(await api.uploadBook(author, { title: `Scaling story ${index + 1}`, file, cover }));
    const readers: Session[] = [];
    for (let index = 0; index < READERS; index += 1) {
      readers.push(await api.register({ username: `bench_reader_${index}`, email: `bench_reader_${index}@scale-out.test`, password: PASSWORD }));
    }
    const onlyOne = await cluster.balance([0]);

    // A download locks its book's row while it is counted, and its reader's abuse-limit row: one
    // reader downloading one book over and over waits on itself. The calls go round books and readers.
    const downloads = readers.flatMap((reader) => books.map((bookId) => ({ path: `/api/books/${bookId}/download`, headers: { Cookie: reader.cookie } })));
    const paths = { catalog: "/api/books?search=scaling", download: downloads[0]!.path };
    const catalog = await measureInRounds<Target>({ three: { url: `${cluster.url}${paths.catalog}` }, one: { url: `${onlyOne.url}${paths.catalog}` } }, plan, (target, figures) =>
      log(`catalog search through nginx, ${target === "three" ? "3 processes" : "1 process"}: ${Math.round(figures.requestsPerSecond)} req/s`),
    );
    const download = { method: "POST" as const, rotation: downloads };
    const downloaded = await measureInRounds<Target>(
      { three: { ...download, url: `${cluster.url}${paths.download}` }, one: { ...download, url: `${onlyOne.url}${paths.download}` } },
      plan,
      (target, figures) => log(`download through nginx, ${target === "three" ? "3 processes" : "1 process"}: ${Math.round(figures.requestsPerSecond)} req/s`),
    );

    const handover = await payoutHandover(cluster, log);
    if (handover.violations.length > 0) log(`INVARIANTS BROKEN: ${handover.violations.join("; ")}`);
    const { payments } = handover;
    const paymentsNote = `${payments.owed} owed, ${payments.paid} paid, ${payments.transfers} transfers on the chain, ${payments.lost} lost; invariants: ${handover.violations.length === 0 ? "all kept" : `${handover.violations.length} broken`}`;
    const cores = `${plan.connections} connections; the machine's cores, PostgreSQL, the bucket (s3rver) and the load generator are shared by all processes`;
    const results: BenchmarkResult[] = [
      judged({
        name: "scale-out.start",
        figure: startTimes.totalMs / 1000,
        unit: "s",
        peers: [],
        budgets: [],
        note: `chain, bucket and database ${(startTimes.dependenciesMs / 1000).toFixed(1)} s; 3 processes at once on the empty database (each migrates under the lock) ${(startTimes.processesMs / 1000).toFixed(1)} s; nginx ${(startTimes.nginxMs / 1000).toFixed(1)} s`,
      }),
      throughput("scale-out.catalog-search.throughput", catalog, `a ranked search through nginx to 3 processes, beside nginx to 1; ${cores}`),
      throughput("scale-out.download.throughput", downloaded, `signed-in readers' downloads (${READERS} readers, ${CATALOG_BOOKS} books of 38 KB in the bucket, each download logged and committed) through nginx to 3 processes, beside nginx to 1; ${cores}`),
      judged({
        name: "scale-out.handover.sigkill",
        figure: handover.killed.paidMs / 1000,
        unit: "s",
        peers: [],
        budgets: [{ kind: "at-most", limit: HANDOVER_LIMIT_MS / 1000 }],
        note: `the sender killed the instant the node took its batch, to every payment owed completed by another process (the lease moved after ${(handover.killed.leaseMovedMs / 1000).toFixed(1)} s: a dead process of this host)`,
      }),
      judged({
        name: "scale-out.handover.frozen",
        figure: handover.frozen.paidMs / 1000,
        unit: "s",
        peers: [],
        budgets: [{ kind: "at-most", limit: HANDOVER_LIMIT_MS / 1000 }],
        note: `the next sender frozen (SIGSTOP: its pid lives, as a hung process or a host cut off), to every payment owed completed by another (its lease had ${(handover.frozen.leaseLeftMs / 1000).toFixed(1)} s left; it moved after ${(handover.frozen.leaseMovedMs / 1000).toFixed(1)} s)`,
      }),
      judged({ name: "scale-out.payments.paid-twice", figure: payments.duplicates, unit: "payments", peers: [], budgets: [{ kind: "at-most", limit: 0 }], note: paymentsNote }),
      judged({ name: "scale-out.payments.lost", figure: payments.lost, unit: "payments", peers: [], budgets: [{ kind: "at-most", limit: 0 }], note: paymentsNote }),
    ];
    return {
      results,
      context: {
        nginx: await nginxVersion(),
        processes: cluster.members.length,
        plan,
        startTimes,
        handover: { senders: handover.senders, killed: handover.killed, frozen: handover.frozen, payments, violations: handover.violations },
      },
    };
  } finally {
    const unclean = await cluster.close();
    if (unclean.length > 0) log(`the cluster did not stop cleanly: ${unclean.join("; ")}`);
  }
}

export const benchmark: Benchmark = { name: "scale-out", run };
