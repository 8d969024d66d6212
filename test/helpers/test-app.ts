import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Express, RequestHandler } from "express";
import type { Logger } from "pino";
import request from "supertest";
import { type App, createApp } from "../../server/app.ts";
import { type ChainSettings, RATE_LIMIT_DEFAULTS, loadConfig } from "../../server/config.ts";
import type { Database } from "../../server/db/client.ts";
import { users } from "../../server/db/schema.ts";
import { siteOriginOf } from "../../server/http/site-origin.ts";
import { PmeChain } from "../../server/chain/pme-chain.ts";
import { DiskStore } from "../../server/storage/disk-store.ts";
import type { FileStore } from "../../server/storage/file-store.ts";
import { logger as serverLogger } from "../../server/system/logger.ts";
import { openTestDatabase } from "./test-database.ts";

export const TEST_ADMIN_EMAIL = "admin@plume.test";
/**
 * The test app's PUBLIC_URL: supertest's requests name the server's ephemeral address as their Host,
 * which no link may start with (docs/decisions/0053). PUBLIC_URL="" gives the development default,
 * the address the server listens on (http://localhost:PORT).
 */
export const TEST_ORIGIN = "http://plume.test";
export const TEST_SESSION_SECRET = "test-secret-".padEnd(40, "x");
/** Chain settings for API tests that never reach a chain (the payout tests start a real one). */
export const TEST_CHAIN: ChainSettings = {
  rpcUrl: "http://127.0.0.1:9",
  publicRpcUrl: "http://127.0.0.1:9",
  chainId: 31337,
  chainName: null,
  tokenAddress: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  batchPayerAddress: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
  payoutPrivateKey: `0x${"1".repeat(64)}`,
  confirmations: 1,
  explorerUrl: null,
};

/** Suites that play many people from one machine lift the abuse limits; the limit tests set their own. */
export const LIFTED_RATE_LIMITS: Record<string, string> = Object.fromEntries(
  Object.keys(RATE_LIMIT_DEFAULTS).map((name) => [name, "1000000"]),
);

/** Throwaway test accounts are hashed cheaply (docs/decisions/0027); the password tests and the benchmarks keep the standard cost. */
export const TEST_PASSWORD_HASHING = { PASSWORD_HASH_COST: "test" } as const;

export interface TestApp<Store extends FileStore = DiskStore> {
  app: Express;
  database: Database;
  store: Store;
  uploadsDir: string;
  /** Where the app writes its mail, as .eml files, when the test sets no SMTP_URL (server/mail/mailer.ts). */
  mailDir: string;
  /**
   * Settles once the PDFs uploaded so far have their first page and page count, or were found
   * unreadable, and the Word books' EPUBs queued by then are made (docs/decisions/0096): the files the
   * uploads' background work stores, which a test of what an upload leaves must not count.
   */
  coversDone(): Promise<void>;
  /** One round of digest mails at `now`, as the server's worker runs them every minute (docs/product.md#follows); answers how many went out. */
  digestRound(now: Date): Promise<number>;
  /** Settles once the Word books' reading views started so far are made, or found impossible (docs/decisions/0051). */
  wordViewsDone(): Promise<void>;
  /** Settles once the Word books' EPUBs queued so far are made, or found impossible (docs/decisions/0096). */
  epubsDone(): Promise<void>;
  /**
   * Another server process on the same database and files, with its own settings (the test's
   * defaults otherwise): a restart, or a second instance behind a load balancer. The caller closes it.
   */
  anotherProcess(env?: Record<string, string>): App;
  /**
   * Marks the account of this address as having proven it, as its link would (docs/product.md#accounts):
   * test tooling for the many suites whose admin is only their setting; server/accounts/email-verification.api.test.ts
   * proves the admin's address through the real link.
   */
  proveEmail(email: string): Promise<void>;
  close(): Promise<void>;
}

/** A line per request of every suite would bury what a failing test prints; a test of the log passes its own. */
const quietRequests = serverLogger.child({}, { level: "warn" });

/**
 * Test suites run side by side on a busy machine: a Word view's or a cover's child below their
 * priority would wait behind all of them (docs/decisions/0051, 0073), so tests run it at theirs; and
 * the cover queue does not wait for a quiet moment, which a busy machine's event loop may never have
 * (the pause's own tests turn it on).
 */
export const TEST_BACKGROUND_WORK = { WORD_VIEW_NICENESS: "0", COVER_NICENESS: "0", COVER_PAUSE_MAX_SECONDS: "0" } as const;

/**
 * Most suites play several authors uploading the one fixture, and would see each other's uploads as
 * copies: the copy checks are off but in the suites that test them (server/books/copies.api.test.ts),
 * which pass COPY_CHECKS=true.
 */
export const TEST_COPY_CHECKS = { COPY_CHECKS: "false" } as const;

function testConfig(env: Record<string, string>) {
  const settings = { NODE_ENV: "test", ADMIN_EMAIL: TEST_ADMIN_EMAIL, PUBLIC_URL: TEST_ORIGIN, ...LIFTED_RATE_LIMITS, ...TEST_BACKGROUND_WORK, ...TEST_COPY_CHECKS, ...env };
  // A test of production's settings gets production's hashing with them.
  return loadConfig(settings.NODE_ENV === "test" ? { ...TEST_PASSWORD_HASHING, ...settings } : settings);
}

/**
 * The real app on a fresh database, with test settings layered over the defaults; with `client`, it
 * also serves a browser app (serveBuiltClient of a built folder) as `npm start` does.
 */
interface TestAppOptions {
  client?: RequestHandler[];
  logger?: Logger;
  /** The requests the app's server would be answering, which its background work yields to (docs/decisions/0073); none by default. */
  requestsInFlight?: () => number;
}

export async function createTestApp(env?: Record<string, string>, options?: TestAppOptions): Promise<TestApp>;
/** The same on another store (a bucket's), which the caller closes. */
export async function createTestApp<Store extends FileStore>(env: Record<string, string>, options: TestAppOptions & { store: Store }): Promise<TestApp<Store>>;
export async function createTestApp(
  env: Record<string, string> = {},
  { client, logger = quietRequests, requestsInFlight, store: given }: TestAppOptions & { store?: FileStore } = {},
): Promise<TestApp<FileStore>> {
  const database = await openTestDatabase();
  const uploadsDir = mkdtempSync(join(tmpdir(), "plume-uploads-"));
  // Mail without SMTP_URL is written under DATA_DIR/mail: a throwaway folder, never the checkout's ./data.
  const dataDir = mkdtempSync(join(tmpdir(), "plume-data-"));
  const store = given ?? new DiskStore(uploadsDir);
  const payoutChain = new PmeChain(TEST_CHAIN);
  const appWith = (settings: Record<string, string>) => {
    const config = testConfig({ DATA_DIR: dataDir, ...settings });
    // No port is listened on (supertest picks its own): the configured one stands for it, as PORT would in development.
    // Digest rounds run when a test says, at the moment it names (server/follows/digest-worker.ts): never on their own timer.
    return createApp({ config, origin: siteOriginOf(config, config.port), db: database.db, store, chain: TEST_CHAIN, payoutChain, sessionSecret: TEST_SESSION_SECRET, client, logger, requestsInFlight, digests: false });
  };
  const { app, close, coverQueue, epubQueue, wordViews, digestRound } = appWith(env);
  return {
    app,
    database,
    store,
    uploadsDir,
    mailDir: join(dataDir, "mail"),
    coversDone: async () => {
      await coverQueue.idle();
      await epubQueue.idle();
    },
    wordViewsDone: () => wordViews.idle(),
    digestRound,
    epubsDone: () => epubQueue.idle(),
    anotherProcess: (settings = {}) => appWith(settings),
    async proveEmail(email) {
      const proven = await database.db
        .update(users)
        .set({ emailVerifiedAt: new Date() })
        .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
        .returning({ id: users.id });
      if (proven.length !== 1) throw new Error(`No account has the address ${email}`);
    },
    async close() {
      close();
      payoutChain.destroy();
      await database.close();
      rmSync(uploadsDir, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let accountCounter = 0;

/** Registration input for a new, unique account. */
/**
 * The account a request's session is signed in to, or null: GET /api/auth/user answers 200 either
 * way (docs/decisions/0067), so a test of signing in or out reads the body, never the status alone.
 */
export async function sessionAccount(test: request.Test): Promise<{ id: string; [field: string]: unknown } | null> {
  return (await test.expect(200)).body as { id: string } | null;
}

export function newAccount(overrides: Record<string, string> = {}) {
  accountCounter += 1;
  const username = `reader_${process.pid}_${accountCounter}`;
  return {
    firstName: "Ana",
    lastName: "García",
    username,
    email: `${username}@example.test`,
    password: "secret-pass",
    confirmPassword: "secret-pass",
    ...overrides,
  };
}

/** A signed-in agent (it keeps the session cookie) for a newly registered account. */
export async function signedInAgent(app: Express, overrides: Record<string, string> = {}) {
  const agent = request.agent(app);
  const account = newAccount(overrides);
  const response = await agent.post("/api/auth/register").send(account).expect(201);
  return { agent, account, user: response.body as { id: string } };
}
