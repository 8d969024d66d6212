import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { asc, eq, fillPlaceholders, isNull, sql } from "drizzle-orm";
import { catalogQuerySchema } from "../shared/book-schemas.ts";
import { type BookLanguage, CATALOG_PAGE_SIZE } from "../shared/books.ts";
import { addressedLanguage } from "../shared/page-meta.ts";
import { catalogPage, listCatalog, publicStatsQuery } from "../server/catalog/catalog-repository.ts";
import { DEFAULT_POOL_SIZE, type Db, openDatabase } from "../server/db/client.ts";
import { books, users } from "../server/db/schema.ts";
import { projectRoot } from "../server/paths.ts";
import { BARE_READY_LINE, type BareRoute, type BareRoutes } from "./baselines/bare-catalog.ts";
import { type CalibreBook, type CalibreSearch, calibreLibrary, calibreSearchRequest, calibreVersion, startCalibreServer } from "./baselines/calibre-server.ts";
import { type Benchmark, type BenchmarkOptions, type BenchmarkResult, type Budget, judged } from "./lib/benchmark.ts";
import { type LoadFigures, type LoadPlan, type LoadRequest, measureInRounds, warmUp } from "./lib/load.ts";
import { startPlumeServer } from "./lib/plume-server.ts";
import { type ReadyProcess, startReadyProcess } from "./lib/ready-process.ts";
import { FULL_SIZES, type SeedTarget } from "./seed.ts";
import type { SeedSizes } from "./seed/catalog-data.ts";
import { type KeptSeed, seedForRun } from "./seed/kept-seed.ts";

/**
 * The public catalog under load (50 connections) on the real server, PostgreSQL and embedded,
 * beside a bare node:http + pg server running the same SQL and calibre's content server on
 * the first 10,000 of the same books.
 */

const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/plume_bench";
const CACHE_DIR = join(projectRoot, "bench", ".cache");
const RESULTS_DIR = join(projectRoot, "bench", "results");
/** The quick run's seed (docs/performance.md, "The quick run"): calibre gets all of its books. */
const QUICK_SIZES: SeedSizes = { books: 2_000, users: 500, downloads: 20_000, seed: FULL_SIZES.seed };
const CALIBRE_BOOKS = 10_000;
const CONNECTIONS = 50;
const PLANS: Record<"full" | "quick", LoadPlan & { startupWarmupSeconds: number }> = {
  full: { connections: CONNECTIONS, rounds: 7, sliceSeconds: 2, warmupSeconds: 2, startupWarmupSeconds: 10 },
  // Each scenario's answers, checked on every target before it is measured, are its only warm-up.
  quick: { connections: CONNECTIONS, rounds: 1, sliceSeconds: 1, warmupSeconds: 0, startupWarmupSeconds: 1 },
};

const BUDGET = { throughputVsBare: 0.7, throughputVsCalibre: 3, p99Ms: 50 };
const CALIBRE_LANGUAGES: Record<BookLanguage, string> = { en: "eng", es: "spa", fr: "fra" };
/** What a browser sends; the compressed scenario asks for it, the others, like the bare server, leave it out. */
const BROWSER_ENCODINGS = { "Accept-Encoding": "gzip, deflate, br, zstd" };

type Target = "postgres" | "bare" | "calibre" | "pglite";

interface Scenario {
  name: string;
  /** The call as the client makes it (path and query). */
  path: string;
  headers?: Record<string, string>;
  /** The same question put to calibre's web API, when it has one. */
  calibre?: CalibreSearch;
  /** Calls made in turn instead of repeating one (the first is `path`). */
  rotation?: string[];
  /** The catalog budgets apply; the others are reported for information. */
  budgeted: boolean;
  note: string;
}

/** Half-way through the catalog, on a page boundary: what "load more" reaches after many clicks. */
const halfway = (count: number) => Math.floor(count / 2 / CATALOG_PAGE_SIZE) * CATALOG_PAGE_SIZE;

function scenariosFor(sizes: SeedSizes, calibreBooks: number, halfwayBookId: number, searches: string[]): Scenario[] {
  const page = `/api/books?limit=${CATALOG_PAGE_SIZE}`;
  const newest: CalibreSearch = { query: "", sort: "timestamp", sortOrder: "desc", offset: 0 };
  const searchPath = (words: string) => `${page}&offset=0&search=${encodeURIComponent(words)}`;
  return [
    { name: "first-page", path: `${page}&offset=0`, calibre: newest, budgeted: true, note: "newest first" },
    {
      name: "search",
      path: `${page}&offset=0&search=cafe`,
      calibre: { ...newest, query: "cafe" },
      budgeted: true,
      note: "\"cafe\" finds \"café\"; Plume ranks by relevance, calibre has no ranking. Both keep a search's results until the catalog changes; the bare server ranks every time",
    },
    {
      name: "search-varied",
      path: searchPath(searches[0]!),
      rotation: searches.map(searchPath),
      budgeted: false,
      note:
        `${searches.length} different searches in turn, more than Plume remembers: each is asked for the first time, and runs its page's query alone (docs/decisions/0081). ` +
        "calibre is left out: a search it has not kept takes it about 300 ms, and the backlog of 50 would spill into the next slice",
    },
    {
      name: "genre-sort",
      path: `${page}&offset=0&genre=novela&sort=downloads`,
      calibre: { query: 'tags:"=novela"', sort: "rating", sortOrder: "desc", offset: 0 },
      budgeted: true,
      note: "calibre has no download count: it sorts by rating",
    },
    {
      name: "title-sort",
      path: `${page}&offset=0&sort=title&lang=es`,
      calibre: { query: "", sort: "sort", sortOrder: "asc", offset: 0 },
      budgeted: true,
      note: "titles A–Z as a Spanish reader orders them (ñ after n; accents, case and punctuation second: an ICU collation, docs/decisions/0046); calibre sorts by its title sort key",
    },
    {
      name: "deep-offset",
      path: `${page}&offset=${halfway(sizes.books)}`,
      calibre: { ...newest, offset: halfway(calibreBooks) },
      budgeted: true,
      note: `offset ${halfway(sizes.books)} (calibre ${halfway(calibreBooks)}): half-way through`,
    },
    {
      name: "deep-cursor",
      path: `${page}&after=${halfwayBookId}`,
      calibre: { ...newest, offset: halfway(calibreBooks) },
      budgeted: true,
      note: "the same page as the client asks for it: after the last book shown (calibre pages by offset only)",
    },
    {
      name: "first-page-compressed",
      path: `${page}&offset=0`,
      headers: BROWSER_ENCODINGS,
      calibre: newest,
      budgeted: false,
      note: "a browser's Accept-Encoding: Plume and calibre compress, the bare server does not",
    },
    { name: "public-stats", path: "/api/stats/public", budgeted: true, note: "the landing page's totals" },
  ];
}

/** The SQL Plume runs for a scenario, captured from the repository's own query builder. */
function bareRouteFor(db: Db, path: string): BareRoute {
  const url = new URL(path, "http://plume.invalid");
  if (url.pathname === "/api/stats/public") {
    const query = publicStatsQuery(db);
    return { ...query.toSQL(), fields: Object.keys(query._.selectedFields), answer: "row" };
  }
  const page = catalogPage({ ...catalogQuerySchema.parse(Object.fromEntries(url.searchParams)), readerLanguage: addressedLanguage(url.search), showExplicit: false });
  if (!page) throw new Error(`${path} searches for nothing: it makes no SQL`);
  const query = page.build(db);
  const { sql: text, params } = query.toSQL();
  return { sql: text, params: fillPlaceholders(params, page.values), fields: Object.keys(query._.selectedFields), answer: "books" };
}

const VARIED_SEARCHES = 1_000;

/**
 * Searches a reader could type, more than a server keeps results for (server/catalog/search-rankings.ts):
 * every word of four letters or more that at least 20 listed books contain (the most common first),
 * then pairs of them, until there are VARIED_SEARCHES.
 */
async function variedSearches(db: Db): Promise<string[]> {
  const listed = "select search_vector from books where is_published and deleted_at is null";
  const found = (await db.execute(
    sql`select word from ts_stat(${listed}) where length(word) >= 4 and ndoc >= 20 order by ndoc desc, word`,
  )) as unknown as { rows: Array<{ word: string }> };
  const words = found.rows.map((row) => row.word);
  const searches = [...words];
  for (let step = 1; searches.length < VARIED_SEARCHES && step < words.length; step += 1) {
    for (let index = 0; index < words.length && searches.length < VARIED_SEARCHES; index += step + 1) searches.push(`${words[index]} ${words[(index + step) % words.length]}`);
  }
  if (searches.length < VARIED_SEARCHES) throw new Error(`The seed gives only ${searches.length} different searches`);
  return searches;
}

/** The book "load more" would name to reach the page at `offset`: the last one of the page before. */
async function lastBookBefore(db: Db, offset: number): Promise<number> {
  const [book] = await listCatalog(db, { ...catalogQuerySchema.parse({ limit: "1", offset: String(offset - 1) }), showExplicit: false });
  if (!book) throw new Error(`The catalog has no book at position ${offset}`);
  return book.id;
}

/** The first listed books of the seed, with their authors' names, as calibre's library gets them. */
async function calibreBooksOf(db: Db, count: number): Promise<CalibreBook[]> {
  const rows = await db
    .select({
      title: books.title,
      description: books.description,
      genre: books.genre,
      language: books.language,
      createdAt: books.createdAt,
      author: sql<string>`concat_ws(' ', ${users.firstName}, ${users.lastName})`,
    })
    .from(books)
    .innerJoin(users, eq(users.id, books.authorId))
    .where(isNull(books.deletedAt))
    .orderBy(asc(books.id))
    .limit(count);
  return rows.map((row) => ({
    title: row.title,
    authors: [row.author],
    comments: row.description ?? "",
    tags: row.genre ? [row.genre] : [],
    languages: [CALIBRE_LANGUAGES[row.language as BookLanguage]],
    timestamp: row.createdAt.toISOString(),
  }));
}

async function answerOf(request: LoadRequest): Promise<unknown> {
  const response = await fetch(request.url, { method: request.method ?? "GET", headers: request.headers, body: request.body });
  if (!response.ok) throw new Error(`${request.method ?? "GET"} ${request.url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

interface Servers {
  postgres: ReadyProcess;
  bare: ReadyProcess;
  calibre: ReadyProcess;
  pglite: ReadyProcess;
}

function requestsFor(scenario: Scenario, servers: Servers): Partial<Record<Target, LoadRequest>> {
  const plume = (server: ReadyProcess): LoadRequest => ({
    url: `${server.url}${scenario.path}`,
    headers: scenario.headers,
    serverPid: server.pid,
    rotation: scenario.rotation,
  });
  const calibre = (search: CalibreSearch): LoadRequest => ({
    ...calibreSearchRequest(servers.calibre.url, search, CATALOG_PAGE_SIZE),
    headers: { ...scenario.headers, "Content-Type": "application/json" },
    serverPid: servers.calibre.pid,
  });
  return {
    postgres: plume(servers.postgres),
    bare: plume(servers.bare),
    ...(scenario.calibre ? { calibre: calibre(scenario.calibre) } : {}),
    // Its CPU includes the embedded database's: not comparable, so not reported (the pid lets the next slice wait for its backlog).
    pglite: plume(servers.pglite),
  };
}

/**
 * Before any figure: the bare server must answer exactly what Plume answers (same SQL, same JSON),
 * the embedded database the same books as PostgreSQL, and calibre a full page.
 */
async function checkAnswers(scenario: Scenario, requests: Partial<Record<Target, LoadRequest>>): Promise<void> {
  const plume = await answerOf(requests.postgres!);
  if (!isDeepStrictEqual(await answerOf(requests.bare!), plume)) throw new Error(`${scenario.name}: the bare server answers differently from Plume`);
  if (!isDeepStrictEqual(await answerOf(requests.pglite!), plume)) throw new Error(`${scenario.name}: Plume on PGlite answers differently from PostgreSQL`);
  if (Array.isArray(plume) && plume.length !== CATALOG_PAGE_SIZE) throw new Error(`${scenario.name}: Plume answered ${plume.length} books, not a full page`);
  if (requests.calibre) {
    const { metadata } = (await answerOf(requests.calibre)) as { metadata: Record<string, unknown> };
    if (Object.keys(metadata).length !== CATALOG_PAGE_SIZE) throw new Error(`${scenario.name}: calibre answered ${Object.keys(metadata).length} books, not a full page`);
  }
}

function resultsFor(scenario: Scenario, figures: Partial<Record<Target, LoadFigures>>): BenchmarkResult[] {
  const ours = figures.postgres!;
  const peersBy = (metric: (figure: LoadFigures) => number) =>
    (["bare", "calibre"] as const).flatMap((name) => (figures[name] ? [{ name, figure: metric(figures[name]) }] : []));
  const throughputBudgets: Budget[] = scenario.budgeted
    ? [
        { kind: "ratio-at-least", peer: "bare", ratio: BUDGET.throughputVsBare },
        ...(figures.calibre ? [{ kind: "ratio-at-least", peer: "calibre", ratio: BUDGET.throughputVsCalibre } as const] : []),
      ]
    : [];
  const prefix = `catalog.${scenario.name}`;
  const pglite = figures.pglite!;
  return [
    judged({ name: `${prefix}.throughput`, figure: ours.requestsPerSecond, unit: "req/s", peers: peersBy((figure) => figure.requestsPerSecond), budgets: throughputBudgets, note: scenario.note }),
    judged({ name: `${prefix}.p50`, figure: ours.p50Ms, unit: "ms", peers: peersBy((figure) => figure.p50Ms), budgets: [] }),
    judged({ name: `${prefix}.p99`, figure: ours.p99Ms, unit: "ms", peers: peersBy((figure) => figure.p99Ms), budgets: scenario.budgeted ? [{ kind: "at-most", limit: BUDGET.p99Ms }] : [] }),
    judged({
      name: `${prefix}.cpu-per-request`,
      figure: ours.cpuPerRequestUs!,
      unit: "µs",
      peers: peersBy((figure) => figure.cpuPerRequestUs!),
      budgets: [],
      note: "CPU of the answering process per request, the database's not counted: steadier than throughput on a busy machine",
    }),
    judged({ name: `${prefix}.pglite.throughput`, figure: pglite.requestsPerSecond, unit: "req/s", peers: [{ name: "postgres", figure: ours.requestsPerSecond }], budgets: [], note: "one connection: reported, not budgeted" }),
    judged({ name: `${prefix}.pglite.p99`, figure: pglite.p99Ms, unit: "ms", peers: [{ name: "postgres", figure: ours.p99Ms }], budgets: [] }),
  ];
}

async function run({ quick, log }: BenchmarkOptions) {
  const sizes = quick ? QUICK_SIZES : FULL_SIZES;
  const plan = PLANS[quick ? "quick" : "full"];
  const calibre = await calibreVersion();
  mkdirSync(CACHE_DIR, { recursive: true });
  mkdirSync(RESULTS_DIR, { recursive: true });

  log(`seeding PostgreSQL (${BENCH_DATABASE_URL}) and PGlite with ${JSON.stringify(sizes)}`);
  // The full run seeds afresh and times it; the quick run copies in a seed of the same content when there is one.
  const seed = (target: SeedTarget) => seedForRun(target, sizes, { quick, cacheDir: CACHE_DIR, log });
  const seeds: Record<"postgres" | "pglite", KeptSeed> = {
    postgres: await seed({ kind: "postgres", url: BENCH_DATABASE_URL }),
    pglite: await seed({ kind: "pglite", dataDir: join(CACHE_DIR, "pglite") }),
  };
  for (const kind of ["postgres", "pglite"] as const) if (seeds[kind].reused) log(`${kind}: the seed made ${seeds[kind].seededAt} copied in`);

  const database = await openDatabase({ kind: "postgres", url: BENCH_DATABASE_URL, poolSize: 1 });
  let calibreBooks: CalibreBook[];
  let postgresVersion: string;
  const routes: BareRoutes = {};
  let scenarios: Scenario[];
  try {
    scenarios = scenariosFor(sizes, Math.min(CALIBRE_BOOKS, sizes.books), await lastBookBefore(database.db, halfway(sizes.books)), await variedSearches(database.db));
    for (const scenario of scenarios) {
      for (const path of scenario.rotation ?? [scenario.path]) routes[path] = bareRouteFor(database.db, path);
    }
    calibreBooks = await calibreBooksOf(database.db, CALIBRE_BOOKS);
    const version = (await database.db.execute(sql`select current_setting('server_version') as version`)) as unknown as { rows: Array<{ version: string }> };
    postgresVersion = version.rows[0]!.version;
  } finally {
    await database.close();
  }
  const library = await calibreLibrary(calibreBooks, CACHE_DIR);
  log(library.buildMs === null ? `calibre library of ${calibreBooks.length} books reused from ${library.folder}` : `calibre library of ${calibreBooks.length} books built in ${library.buildMs} ms`);
  const routesFile = join(RESULTS_DIR, "bare-routes.json");
  writeFileSync(routesFile, JSON.stringify(routes, null, 2));

  const starting = await Promise.allSettled([
    startPlumeServer({ kind: "postgres", url: BENCH_DATABASE_URL }, { dataDir: join(CACHE_DIR, "plume-postgres"), logFile: join(RESULTS_DIR, "plume-postgres.log") }),
    startReadyProcess({
      name: "bare catalog",
      command: process.execPath,
      args: ["--import", "tsx", join(projectRoot, "bench", "baselines", "bare-catalog.ts"), routesFile],
      env: { DATABASE_URL: BENCH_DATABASE_URL, POOL_SIZE: String(DEFAULT_POOL_SIZE) },
      cwd: projectRoot,
      readyLine: BARE_READY_LINE,
      logFile: join(RESULTS_DIR, "bare-catalog.log"),
    }),
    startCalibreServer(library.folder, join(RESULTS_DIR, "calibre-server.log")),
    startPlumeServer({ kind: "pglite", dataDir: join(CACHE_DIR, "pglite") }, { dataDir: join(CACHE_DIR, "pglite"), logFile: join(RESULTS_DIR, "plume-pglite.log") }),
  ]);
  const running = starting.flatMap((start) => (start.status === "fulfilled" ? [start.value] : []));
  const figures: Record<string, Partial<Record<Target, LoadFigures>>> = {};
  try {
    const failed = starting.find((start) => start.status === "rejected");
    if (failed) throw failed.reason;
    const [postgres, bare, calibreServer, pglite] = running as [ReadyProcess, ReadyProcess, ReadyProcess, ReadyProcess];
    const servers: Servers = { postgres, bare, calibre: calibreServer, pglite };
    await warmUp(Object.values(requestsFor(scenarios[0]!, servers)), plan.connections, plan.startupWarmupSeconds);
    for (const scenario of scenarios) {
      const requests = requestsFor(scenario, servers);
      await checkAnswers(scenario, requests);
      figures[scenario.name] = await measureInRounds(requests, plan, (target, measured) =>
        log(`${scenario.name} on ${target}: ${Math.round(measured.requestsPerSecond)} req/s, p50 ${measured.p50Ms} ms, p99 ${measured.p99Ms} ms`),
      );
    }
  } finally {
    await Promise.all(running.map((server) => server.stop()));
  }

  const seedResults = (["postgres", "pglite"] as const).map((kind) => {
    const { report, seededAt, reused } = seeds[kind];
    const reuse = reused ? `; timed when made (${seededAt}), copied in since: same sizes, migrations and seed code` : "";
    return judged({
      name: `catalog.seed.${kind}`,
      figure: report.timingsMs.total / 1000,
      unit: "s",
      peers: [],
      budgets: [],
      note: `${sizes.books} books, ${sizes.users} users, ${sizes.downloads} downloads, ${report.rows.payments} payments${reuse}`,
    });
  });
  return {
    results: [...scenarios.flatMap((scenario) => resultsFor(scenario, figures[scenario.name]!)), ...seedResults],
    context: {
      sizes,
      plan,
      poolSize: DEFAULT_POOL_SIZE,
      postgres: postgresVersion,
      calibre,
      calibreBooks: calibreBooks.length,
      calibreLibraryBuildMs: library.buildMs,
      seeds,
      scenarios,
      figures,
    },
  };
}

export const benchmark: Benchmark = { name: "catalog", run };
