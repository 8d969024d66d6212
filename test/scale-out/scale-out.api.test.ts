import { existsSync, readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { committedMigrations } from "../../server/db/migration-journal.ts";
import { SENDER_LEASE_TTL_MS } from "../../server/rewards/payout-worker.ts";
import { fixture } from "../helpers/book-fixtures.ts";
import { NGINX_PATH, nginxInstalled } from "../helpers/nginx.ts";
import { PlumeApi, type UploadFile } from "../reliability/plume-api.ts";
import { Cluster } from "./cluster.ts";
import { HANDOVER_LIMIT_MS, HANDOVER_SETTINGS, payoutHandover } from "./payout-handover.ts";

const postgresUrl = process.env.TEST_DATABASE_URL;
// The system project (vitest.config.ts) runs it once; without TEST_DATABASE_URL it says why it skips.
const missing = !postgresUrl
  ? "PostgreSQL: set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test"
  : !nginxInstalled()
    ? `nginx at ${NGINX_PATH}: apt-get install -y nginx`
    : null;

// The reporter shows a skipped file's count, not its reason: said once here.
if (missing) console.warn(`The scale-out test is skipped: it needs ${missing}.`);

const RESET_LIMIT = 5;
const PASSWORD = "scale-out-pass";
const book: UploadFile = { name: "book.pdf", type: "application/pdf", bytes: readFileSync(fixture("book.pdf")) };
const cover: UploadFile = { name: "cover.jpg", type: "image/jpeg", bytes: readFileSync(fixture("cover.jpg")) };

describe.skipIf(missing)(`three Plume processes behind nginx on one database and one bucket${missing ? ` (skipped: needs ${missing})` : ""}`, () => {
  let cluster: Cluster;
  /** Which member answered each call made through nginx, in order. */
  const answeredBy: number[] = [];
  let api: PlumeApi;
  const direct = (member: number) => new PlumeApi(() => cluster.members[member]!.url);

  beforeAll(async () => {
    cluster = await Cluster.start({ postgresUrl: postgresUrl!, settings: { ...HANDOVER_SETTINGS, RATE_LIMIT_PASSWORD_RESET_PER_IP: String(RESET_LIMIT) } });
    api = new PlumeApi(() => cluster.url, { onAnswer: (response) => answeredBy.push(cluster.memberOf(response)) });
  }, 120_000);
  afterAll(() => cluster?.close());
  // A member's 500 says only its request id: what the member logged tells why.
  beforeEach(({ onTestFailed }) =>
    onTestFailed(() => {
      for (const member of cluster?.members ?? []) if (member.errors.length > 0) console.error(`Member ${member.index} logged:\n${member.errors.join("\n")}`);
    }),
  );

  it("migrates the empty database once though all three start on it together, and each is ready", async () => {
    const applied = await cluster.db.select({ hash: sql<string>`hash` }).from(sql`drizzle.__drizzle_migrations`);
    expect(applied).toHaveLength(committedMigrations().length);
    expect(new Set(applied.map((row) => row.hash)).size).toBe(applied.length);
    for (const member of cluster.members) expect((await fetch(`${member.url}/readyz`)).status).toBe(200);
  });

  it("serves a reader signed in on one process from another, and a book uploaded through one from every one", async () => {
    const author = await api.register({ username: "scale_author", email: "scale_author@scale-out.test", password: PASSWORD });
    const bookId = await api.uploadBook(author, { title: "One bucket for all", file: book, cover });
    await api.register({ username: "scale_reader", email: "scale_reader@scale-out.test", password: PASSWORD });
    const reader = await api.signIn("scale_reader", PASSWORD);
    const signedInOn = answeredBy.at(-1)!;
    // Round robin: the next call goes to another process, which has only the cookie and the shared session store.
    const served = await api.download(reader, bookId);
    expect(answeredBy.at(-1)).not.toBe(signedInOn);
    expect(served.equals(book.bytes)).toBe(true);
    for (const member of cluster.members) expect((await direct(member.index).download(reader, bookId)).equals(book.bytes)).toBe(true);
    expect(new Set(answeredBy)).toEqual(new Set(cluster.members.map((member) => member.index)));
  });

  it("trips an abuse limit at the same request through nginx as on one process: the count is shared", async () => {
    const ask = async (client: PlumeApi) => {
      const statuses: number[] = [];
      for (let attempt = 0; attempt <= RESET_LIMIT; attempt += 1) statuses.push(await client.askPasswordReset("nobody@scale-out.test"));
      return statuses;
    };
    const answersBefore = answeredBy.length;
    const throughNginx = await ask(new PlumeApi(() => cluster.url, { headers: { "X-Forwarded-For": "203.0.113.10" }, onAnswer: (response) => answeredBy.push(cluster.memberOf(response)) }));
    const onOne = await ask(new PlumeApi(() => cluster.members[0]!.url, { headers: { "X-Forwarded-For": "203.0.113.11" } }));
    expect(onOne).toEqual([...Array<number>(RESET_LIMIT).fill(202), 429]);
    expect(throughNginx).toEqual(onOne);
    // Every process took its share of them.
    expect(new Set(answeredBy.slice(answersBefore)).size).toBe(cluster.members.length);
  });

  it("answers a catalog search the same from every process, also right after one of them changed the catalog", async () => {
    const author = await api.register({ username: "scale_lighthouse", email: "scale_lighthouse@scale-out.test", password: PASSWORD });
    for (const title of ["The lighthouse keeper", "Lighthouse at dawn"]) await api.uploadBook(author, { title, file: book, cover });
    const everywhere = () => Promise.all(cluster.members.map((member) => direct(member.index).search("lighthouse")));
    const before = await everywhere();
    expect(before[0]).toHaveLength(2);
    for (const found of before) expect(found).toEqual(before[0]);
    // Each process now keeps this search's ranking; one of them adds a match, the others must not answer from theirs.
    const added = await direct(1).uploadBook(author, { title: "Lighthouse, a third", file: book, cover });
    const after = await everywhere();
    expect(after[0]).toHaveLength(3);
    expect(after[0]).toContain(added);
    for (const found of after) expect(found).toEqual(after[0]);
  });

  it(`has one payout sender at a time, and a sender killed with SIGKILL hands over within ${HANDOVER_LIMIT_MS / 1000} s with nothing paid twice or lost`, async () => {
    const report = await payoutHandover(cluster);
    expect(report.violations).toEqual([]);
    expect(report.sendersWhileAllRan).toEqual([report.leaseHolderWhileAllRan]);
    // No sender came back after another had sent: turns only pass on.
    expect(new Set(report.senders).size).toBe(report.senders.length);
    expect(report.killed.leaseMovedMs).toBeLessThanOrEqual(HANDOVER_LIMIT_MS);
    expect(report.killed.paidMs).toBeLessThanOrEqual(HANDOVER_LIMIT_MS);
    // A frozen sender's pid lives: no one takes its lease before it runs out, and someone does soon after.
    expect(report.frozen.leaseLeftMs).toBeGreaterThan(0);
    expect(report.frozen.leaseLeftMs).toBeLessThanOrEqual(SENDER_LEASE_TTL_MS);
    expect(report.frozen.leaseMovedMs).toBeGreaterThanOrEqual(report.frozen.leaseLeftMs);
    expect(report.frozen.leaseMovedMs).toBeLessThanOrEqual(HANDOVER_LIMIT_MS);
    expect(report.frozen.paidMs).toBeLessThanOrEqual(HANDOVER_LIMIT_MS);
    expect(report.payments).toEqual({ owed: 6, paid: 6, transfers: 6, duplicates: 0, lost: 0 });
  }, 120_000);

  it("stops the last process cleanly and leaves no process, database or folder behind", async () => {
    const { members, url, databaseUrl } = cluster;
    expect(await cluster.close()).toEqual([]);
    expect(members.every((member) => !member.server.running && !existsSync(member.dataDir))).toBe(true);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    const server = new pg.Client({ connectionString: postgresUrl });
    await server.connect();
    try {
      const { rows } = await server.query("select 1 from pg_database where datname = $1", [new URL(databaseUrl).pathname.slice(1)]);
      expect(rows).toEqual([]);
    } finally {
      await server.end();
    }
  }, 60_000);
});
