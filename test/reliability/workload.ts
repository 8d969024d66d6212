import { readFileSync } from "node:fs";
import { Wallet } from "ethers";
import { MILESTONE_STEP } from "../../shared/rewards.ts";
import { fixture } from "../helpers/book-fixtures.ts";
import type { RunState } from "./invariants.ts";
import { type PlumeApi, type Session, ServerUnreachableError, type UploadFile, UnexpectedStatusError } from "./plume-api.ts";
import type { SeededRandom } from "./seeded-random.ts";

export interface WorkloadHooks {
  /** Resolves when the server is up: at once, or once the restart that follows a kill is done. */
  serverReady(): Promise<void>;
  /** Each upload or download request as it starts: a crash test may kill the server then. */
  operationStarted(kind: "upload" | "download", index: number, total: number): void;
  /** Just before the authors still without a wallet connect one, which sends out their owed payments at once. */
  beforeLateWallets(milestonesOwed: number): void;
}

interface Author {
  session: Session;
  /** The author's own key: connecting proves the wallet with its signature. */
  wallet: Wallet;
  connectsLate: boolean;
  books: number;
}

/** The people every run draws its authors and readers from. */
export interface Population {
  admin: Session;
  authors: Session[];
  readers: Session[];
}

const MOST_AUTHORS = 3;
/** Enough readers to take a book past its first milestone, and a few more. */
const MOST_READERS = MILESTONE_STEP + 6;
const REGISTER_CONCURRENCY = 2;

/**
 * Signs everyone up once, over HTTP, on the database every run starts from a copy of: two dozen
 * memory-hard password hashes would otherwise cost each run seconds. Their sessions live in that
 * database, so they are signed in in every run.
 */
export async function registerPopulation(api: PlumeApi, adminEmail: string): Promise<Population> {
  const accounts = [
    { username: "admin", email: adminEmail },
    ...Array.from({ length: MOST_AUTHORS }, (_, index) => ({ username: `author_${index}`, email: `author_${index}@reliability.test` })),
    ...Array.from({ length: MOST_READERS }, (_, index) => ({ username: `reader_${index}`, email: `reader_${index}@reliability.test` })),
  ];
  const sessions: Session[] = [];
  await inPool(accounts, REGISTER_CONCURRENCY, async (account, index) => {
    sessions[index] = await api.register({ ...account, password: "reliable-pass" });
  });
  return { admin: sessions[0]!, authors: sessions.slice(1, MOST_AUTHORS + 1), readers: sessions.slice(MOST_AUTHORS + 1) };
}

const FIXTURE_FILES: Array<[string, string]> = [
  ["book.pdf", "application/pdf"],
  ["book.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
  ["book.doc", "application/msword"],
];
const FIXTURE_COVERS: Array<[string, string]> = [
  ["cover.jpg", "image/jpeg"],
  ["cover.png", "image/png"],
  ["cover.webp", "image/webp"],
];
const load = ([name, type]: [string, string]): UploadFile => ({ name, type, bytes: readFileSync(fixture(name)) });

const UPLOAD_CONCURRENCY = 2;
const DOWNLOAD_CONCURRENCY = 4;
/** A call cut by a kill is tried again (as a person clicks again) at most this often. */
const MAX_RETRIES = 5;

async function inPool<T>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A seeded day of Plume traffic over HTTP, by some of the population: authors upload books (most
 * with covers) and connect wallets, readers download so that milestones are crossed. It records
 * every write the server acknowledged, and every answer it did not expect (a 5xx above all).
 */
export class Workload {
  readonly acknowledged: RunState["acknowledged"];
  readonly unexpected: string[] = [];
  private readonly authors: Author[];
  private readonly readers: Session[];
  private readonly bookFiles = FIXTURE_FILES.map(load);
  private readonly covers = FIXTURE_COVERS.map(load);

  constructor(
    private readonly api: PlumeApi,
    private readonly random: SeededRandom,
    private readonly hooks: WorkloadHooks,
    private readonly population: Population,
    shape: { lateWalletsOnly: boolean },
  ) {
    const everyone = [population.admin, ...population.authors, ...population.readers];
    this.acknowledged = { users: everyone.map((session) => session.userId), books: [], downloads: [], wallets: [] };
    this.authors = population.authors.slice(0, random.int(2, MOST_AUTHORS)).map((session) => ({
      session,
      wallet: new Wallet(`0x${random.hex(32)}`),
      connectsLate: shape.lateWalletsOnly || random.chance(0.5),
      books: random.int(1, 2),
    }));
    this.readers = population.readers.slice(0, random.int(MILESTONE_STEP + 1, MOST_READERS));
  }

  async run(): Promise<void> {
    await this.connectWallets(this.authors.filter((author) => !author.connectsLate));
    await this.uploadBooks();
    const books = await this.liveBooks();
    await this.downloadBooks(books);
    this.hooks.beforeLateWallets(this.milestonesAcknowledged());
    await this.connectWallets(this.authors.filter((author) => author.connectsLate));
  }

  /**
   * Calls the server, waiting out a restart; a call cut by a kill is made again once the server is
   * back, as a person would click again. Only an answered call is `done`.
   */
  private async attempt<T>(call: () => Promise<T>): Promise<{ done: true; value: T } | { done: false }> {
    for (let attempt = 0; attempt <= MAX_RETRIES; attempt += 1) {
      await this.hooks.serverReady();
      try {
        return { done: true, value: await call() };
      } catch (error) {
        if (error instanceof UnexpectedStatusError) {
          this.unexpected.push(error.message);
          return { done: false };
        }
        if (!(error instanceof ServerUnreachableError)) throw error;
      }
    }
    this.unexpected.push(`the server stayed unreachable after ${MAX_RETRIES} tries`);
    return { done: false };
  }

  private async connectWallets(authors: Author[]): Promise<void> {
    for (const author of authors) {
      const connected = await this.attempt(() => this.api.connectWallet(author.session, author.wallet));
      if (connected.done) this.acknowledged.wallets.push({ userId: author.session.userId, address: author.wallet.address });
    }
  }

  private async uploadBooks(): Promise<void> {
    const uploads = this.random.shuffle(
      this.authors.flatMap((author) =>
        Array.from({ length: author.books }, (_, index) => ({
          author,
          title: `${author.session.username} book ${index + 1}`,
          file: this.random.pick(this.bookFiles),
          cover: this.random.chance(0.75) ? this.random.pick(this.covers) : null,
        })),
      ),
    );
    await inPool(uploads, UPLOAD_CONCURRENCY, async (upload, index) => {
      this.hooks.operationStarted("upload", index, uploads.length);
      // An upload cut by a kill is sent again: the first try may have been stored or not.
      const uploaded = await this.attempt(() => this.api.uploadBook(upload.author.session, upload));
      if (uploaded.done) this.acknowledged.books.push(uploaded.value);
    });
  }

  /** The books the server has, whatever the uploads cut by a kill became. */
  private async liveBooks(): Promise<Array<{ id: number; author: Author }>> {
    const books: Array<{ id: number; author: Author }> = [];
    for (const author of this.authors) {
      const listed = await this.attempt(() => this.api.authorBookIds(author.session.userId));
      for (const id of listed.done ? listed.value : []) books.push({ id, author });
    }
    return books.sort((a, b) => a.id - b.id);
  }

  /**
   * The first book gets enough readers for a milestone, the others any number; some readers
   * download twice and some authors their own book (both logged, never counted).
   */
  private async downloadBooks(books: Array<{ id: number; author: Author }>): Promise<void> {
    const downloads: Array<{ bookId: number; reader: Session }> = [];
    books.forEach((book, index) => {
      const audience = this.random.shuffle(this.readers).slice(0, this.random.int(index === 0 ? MILESTONE_STEP : 0, this.readers.length));
      for (const reader of audience) {
        downloads.push({ bookId: book.id, reader });
        if (this.random.chance(0.1)) downloads.push({ bookId: book.id, reader });
      }
      if (this.random.chance(0.3)) downloads.push({ bookId: book.id, reader: book.author.session });
    });
    const ordered = this.random.shuffle(downloads);
    await inPool(ordered, DOWNLOAD_CONCURRENCY, async ({ bookId, reader }, index) => {
      this.hooks.operationStarted("download", index, ordered.length);
      const served = await this.attempt(() => this.api.download(reader, bookId));
      if (served.done) this.acknowledged.downloads.push({ bookId, readerId: reader.userId });
    });
  }

  /** The milestones the served downloads reached: distinct readers of each book, its author not counted. */
  private milestonesAcknowledged(): number {
    const authors = new Set(this.authors.map((author) => author.session.userId));
    const readersByBook = new Map<number, Set<string>>();
    for (const { bookId, readerId } of this.acknowledged.downloads) {
      if (!authors.has(readerId)) readersByBook.set(bookId, (readersByBook.get(bookId) ?? new Set()).add(readerId));
    }
    return [...readersByBook.values()].reduce((sum, readers) => sum + Math.floor(readers.size / MILESTONE_STEP), 0);
  }

  /** Waits until no payment of any author is pending; returns what is still pending at the deadline. */
  async waitForPayouts(timeoutMs: number): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    let pending: string[] = [];
    while (Date.now() < deadline) {
      pending = [];
      for (const author of this.authors) {
        const listed = await this.attempt(() => this.api.payments(author.session));
        if (!listed.done) {
          pending.push(`${author.session.username}'s payments could not be read`);
          continue;
        }
        for (const payment of listed.value) if (payment.status === "pending") pending.push(`payment ${payment.id} (${author.session.username})`);
      }
      if (pending.length === 0) return [];
      await sleep(300);
    }
    return [`still pending after ${timeoutMs / 1000} s: ${pending.join(", ")}`];
  }

  /** The admin's reconciliation of ledger and chain, and the failed-payment queue, must both be clean. */
  async adminReconciliation(): Promise<string[]> {
    const read = await this.attempt(() => this.api.paymentDiagnostics(this.population.admin));
    if (!read.done) return ["the admin payment diagnostics could not be read"];
    const { reconciliation, queue } = read.value;
    const violations = queue.failed.map((payment) => `admin queue: payment ${payment.id} failed (${payment.lastError})`);
    if (!reconciliation.available) return [...violations, `admin reconciliation unavailable: ${reconciliation.reason}`];
    if (reconciliation.transfersWithoutPayment.length > 0 || reconciliation.paymentsWithoutTransfer.length > 0) {
      violations.push(`admin reconciliation differs: ${JSON.stringify(reconciliation)}`);
    }
    return violations;
  }
}
