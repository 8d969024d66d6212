import { mkdirSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { ADMIN_PAGE_SIZE, type AdminPage } from "../shared/admin.ts";
import { type Benchmark, type BenchmarkOptions, type BenchmarkResult, judged } from "./lib/benchmark.ts";
import { type LoadPlan, type LoadRequest, measureInRounds } from "./lib/load.ts";
import { BEHIND_TLS_PROXY, BROWSER_ACCEPT_ENCODING } from "./lib/plume-client.ts";
import { startPlumeServer } from "./lib/plume-server.ts";
import { CACHE_DIR, RESULTS_DIR } from "./lib/transfer-server.ts";
import { BENCH_PASSWORD } from "./seed.ts";
import type { SeedSizes } from "./seed/catalog-data.ts";
import { keptSeed } from "./seed/kept-seed.ts";

/**
 * The admin's lists at the scale docs/decisions/0107 was built for: 10,000 accounts and 20,000 books
 * with their downloads and payments, each tab's first page, a search and a deep page, asked by a few
 * admins at once. The seed is the catalog's generator at these sizes, kept between runs (it is not
 * what is measured).
 */
const ADMIN_DATABASE_URL = process.env.BENCH_ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/plume_bench_admin";
const MODES = {
  full: { sizes: { books: 20_000, users: 10_000, downloads: 200_000, seed: 42 }, plan: { connections: 4, rounds: 3, sliceSeconds: 3, warmupSeconds: 1 } },
  quick: { sizes: { books: 2_000, users: 1_000, downloads: 20_000, seed: 42 }, plan: { connections: 4, rounds: 1, sliceSeconds: 1, warmupSeconds: 0.5 } },
} satisfies Record<string, { sizes: SeedSizes; plan: LoadPlan }>;
/** A tab's page answers within this, at its 99th percentile, with a few admins at work. */
const BUDGET = { p99Ms: 200 };

interface Scenario {
  name: string;
  path: string;
  note: string;
}

function scenariosFor(sizes: SeedSizes): Scenario[] {
  const lastUserPage = Math.ceil(sizes.users / ADMIN_PAGE_SIZE);
  const deepBookPage = Math.floor(sizes.books / ADMIN_PAGE_SIZE / 2);
  return [
    { name: "users", path: "/api/admin/users", note: "the users tab as it opens: the newest accounts, their books, downloads and PME" },
    { name: "users-search", path: "/api/admin/users?q=mar", note: 'a search of names, usernames and e-mails ("mar": many matches, accents and case aside)' },
    { name: "users-last-page", path: `/api/admin/users?page=${lastUserPage}`, note: `the last page (${lastUserPage})` },
    { name: "books-attention", path: "/api/admin/books", note: "the books tab as it opens: only what needs attention, decided in SQL" },
    { name: "books-deep-page", path: `/api/admin/books?show=all&page=${deepBookPage}`, note: `every book, page ${deepBookPage}` },
    { name: "books-search", path: "/api/admin/books?show=all&q=la", note: 'a search of titles and authors ("la": many matches)' },
  ];
}

/** Makes the seed's first account the admin (ADMIN_EMAIL, a verified address) and signs it in: its session's cookie. */
async function adminOf(url: string): Promise<{ email: string; username: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ email: string; username: string }>(
      "update users set email_verified_at = now() where id = (select id from users order by created_at, id limit 1) returning email, username",
    );
    return rows[0]!;
  } finally {
    await client.end();
  }
}

async function signIn(baseUrl: string, username: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...BEHIND_TLS_PROXY },
    body: JSON.stringify({ username, password: BENCH_PASSWORD }),
  });
  const cookie = response.headers.getSetCookie().find((header) => /^[^=]*plume\.sid=/.test(header));
  if (response.status !== 200 || !cookie) throw new Error(`Signing the admin in answered ${response.status}: ${await response.text()}`);
  return cookie.split(";")[0]!;
}

/** A scenario's answer, checked before it is measured: a full page (or what a search finds), never an error. */
async function answerSize(request: LoadRequest): Promise<{ rows: number; total: number; bytes: number }> {
  const response = await fetch(request.url, { headers: { ...request.headers, "Accept-Encoding": "identity" } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${request.url} answered ${response.status}: ${text.slice(0, 200)}`);
  const page = JSON.parse(text) as AdminPage<unknown>;
  return { rows: page.items.length, total: page.total, bytes: Buffer.byteLength(text) };
}

async function run({ quick, log }: BenchmarkOptions) {
  const { sizes, plan } = MODES[quick ? "quick" : "full"];
  mkdirSync(join(CACHE_DIR, "admin"), { recursive: true });
  const seed = await keptSeed({ kind: "postgres", url: ADMIN_DATABASE_URL }, sizes, { cacheDir: join(CACHE_DIR, "admin"), log });
  const admin = await adminOf(ADMIN_DATABASE_URL);
  const server = await startPlumeServer(
    { kind: "postgres", url: ADMIN_DATABASE_URL },
    { dataDir: join(CACHE_DIR, "admin", "plume-data"), logFile: join(RESULTS_DIR, "plume-admin.log"), settings: { TRUST_PROXY: "loopback", ADMIN_EMAIL: admin.email } },
  );
  const results: BenchmarkResult[] = [];
  const answers: Record<string, { rows: number; total: number; bytes: number }> = {};
  try {
    const cookie = await signIn(server.url, admin.username);
    for (const scenario of scenariosFor(sizes)) {
      const request: LoadRequest = { url: `${server.url}${scenario.path}`, headers: { Cookie: cookie, ...BEHIND_TLS_PROXY, ...BROWSER_ACCEPT_ENCODING }, serverPid: server.pid };
      const answer = await answerSize(request);
      answers[scenario.name] = answer;
      const figures = (await measureInRounds({ plume: request }, plan, (_target, measured) => log(`${scenario.name}: ${Math.round(measured.requestsPerSecond)} req/s, p50 ${measured.p50Ms} ms, p99 ${measured.p99Ms} ms`))).plume!;
      const shape = `${answer.rows} rows of ${answer.total}, ${(answer.bytes / 1024).toFixed(1)} KB; ${sizes.users.toLocaleString("en")} accounts, ${sizes.books.toLocaleString("en")} books; ${plan.connections} connections`;
      results.push(
        judged({ name: `admin.${scenario.name}.p99`, figure: figures.p99Ms, unit: "ms", peers: [], budgets: [{ kind: "at-most", limit: BUDGET.p99Ms }], note: `${scenario.note}: ${shape}` }),
        judged({ name: `admin.${scenario.name}.p50`, figure: figures.p50Ms, unit: "ms", peers: [], budgets: [], note: `${Math.round(figures.requestsPerSecond)} req/s` }),
      );
    }
  } finally {
    await server.stop();
  }
  return { results, context: { sizes, plan, seededAt: seed.seededAt, seedReused: seed.reused, answers } };
}

export const benchmark: Benchmark = { name: "admin", run };
