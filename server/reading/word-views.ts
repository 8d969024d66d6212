import { readFile, rm, writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { WORD_VIEW_RETRY_SECONDS } from "../../shared/reading.ts";
import type { Book } from "../db/schema.ts";
import { derivedNamesOf } from "../books/book-files.ts";
import { setPageCountOfLiveBook } from "../books/books-repository.ts";
import { extensionOf } from "../books/file-types.ts";
import type { WordViewSettings } from "../config.ts";
import type { Db } from "../db/client.ts";
import { HttpError, bookViewPreparing, bookViewUnavailable, notFound, serverBusy } from "../http/errors.ts";
import type { FileStore } from "../storage/file-store.ts";
import { CAGES_AT_ONCE, CagedJobError, bundledChild, runCaged } from "../system/caged-job.ts";
import { logger } from "../system/logger.ts";
import type { WordViewAnswer, WordViewJob } from "./word-view-process.ts";

/**
 * Raised when the conversion itself changes (mammoth, word-extractor, the sanitizer or the pages): a
 * server of a newer converter tries again the books an older one could not convert. Views already
 * made are kept: the book's file never changes (docs/decisions/0051).
 */
export const WORD_CONVERTER_VERSION = 1;

/** Books waiting for a conversion in this process, beyond the one converting: past it a new one is refused (503). */
export const WORD_VIEWS_WAITING = 16;

const WORD_VIEW_PROCESS = bundledChild("server/reading/word-view-process.ts", import.meta.url.endsWith(".ts"));

/** What a conversion came to: the view's pages, or a file that cannot be shown. */
type Outcome = { kind: "ready"; pageCount: number } | { kind: "failed" };

/** What is kept of a failed conversion, so that it is not tried again on every call. */
interface FailureRecord {
  converterVersion: number;
  failure: string;
  reason: string;
  at: string;
}

export type WordBook = Pick<Book, "id" | "filePath" | "pageCount">;

/**
 * Word books' reading views (docs/product.md#reading): made once per stored file in a cage
 * (server/system/caged-job.ts), stored gzipped beside the book through the FileStore, the page count
 * put in the book's row. A book is converted at its first opening in the browser (or again when a
 * restore dropped its view); a conversion that fails is remembered as a file of its own.
 */
export class WordViews {
  private readonly converting = new Map<string, Promise<Outcome>>();
  /** Conversions asked for in the background, until they have started (or were found not needed). */
  private readonly starting = new Set<Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(
    private readonly deps: { db: Db; store: FileStore; settings: WordViewSettings },
    private readonly waitingBound = WORD_VIEWS_WAITING,
  ) {}

  /**
   * The page count of the book's stored view, made first if need be. A view not ready within the
   * wait is a 503 "being prepared" with Retry-After; a book that cannot be converted, a 422.
   */
  async pageCountOf(book: WordBook, waitMs = this.deps.settings.waitMs): Promise<number> {
    if (book.pageCount !== null && (await this.deps.store.has("views", derivedNamesOf(book.filePath).view))) return book.pageCount;
    const outcome = await this.outcomeWithin(book, waitMs);
    if (!outcome) throw bookViewPreparing(WORD_VIEW_RETRY_SECONDS);
    if (outcome.kind === "failed") throw bookViewUnavailable();
    return outcome.pageCount;
  }

  /** Starts making a book's view if it has none (at its opening), answering nothing: its reader asks for it next. */
  prepare(book: WordBook): void {
    const starting = this.outcomeWithin(book, 0).then(
      () => undefined,
      (error: unknown) => {
        if (!(error instanceof HttpError && error.status === 503)) {
          logger.warn({ component: "word-views", bookId: book.id, err: error }, "a reading view could not be started");
        }
      },
    );
    this.starting.add(starting);
    void starting.finally(() => this.starting.delete(starting));
  }

  /** No more conversions start, and the one running is killed: the server is stopping (nothing is remembered of it). */
  stop(): void {
    this.stopping.abort();
  }

  /** Settles once every conversion asked for so far has ended (tests wait on it). */
  async idle(): Promise<void> {
    while (this.starting.size > 0 || this.converting.size > 0) await Promise.allSettled([...this.starting, ...this.converting.values()]);
  }

  /** A remembered failure, a conversion's outcome within `waitMs`, or null while it runs on. */
  private async outcomeWithin(book: WordBook, waitMs: number): Promise<Outcome | null> {
    const { store } = this.deps;
    const running = this.converting.get(book.filePath);
    if (!running) {
      if (await this.failedBefore(book)) return { kind: "failed" };
      if (!(await store.has("books", book.filePath))) throw notFound("The file of this book is missing.");
    }
    const conversion = running ?? this.start(book);
    if (waitMs <= 0) return null;
    const waited = new AbortController();
    try {
      return await Promise.race([conversion, sleep(waitMs, null, { signal: waited.signal })]);
    } finally {
      waited.abort();
    }
  }

  private async failedBefore(book: WordBook): Promise<boolean> {
    const { store } = this.deps;
    const name = derivedNamesOf(book.filePath).failure;
    if (!(await store.has("views", name))) return false;
    const record = await store.withLocalFile("views", name, async (path) => JSON.parse(await readFile(path, "utf8")) as FailureRecord);
    return record.converterVersion >= WORD_CONVERTER_VERSION;
  }

  private start(book: WordBook): Promise<Outcome> {
    const running = this.converting.get(book.filePath);
    if (running) return running;
    if (this.stopping.signal.aborted) throw serverBusy("The server is stopping. Try again in a few seconds.", WORD_VIEW_RETRY_SECONDS);
    if (this.converting.size >= CAGES_AT_ONCE + this.waitingBound) {
      throw serverBusy("Too many books are being prepared for reading right now. Try again in a minute.", 60);
    }
    const conversion = this.convert(book).finally(() => this.converting.delete(book.filePath));
    this.converting.set(book.filePath, conversion);
    // Its readers may all have stopped waiting: an error is logged here whoever still listens.
    conversion.catch((error: unknown) => {
      if (error instanceof HttpError && error.status === 503) logger.warn({ component: "word-views", bookId: book.id, reason: error.message }, "a reading view was put off");
      else logger.error({ component: "word-views", bookId: book.id, err: error }, "a reading view could not be stored");
    });
    return conversion;
  }

  private async convert(book: WordBook): Promise<Outcome> {
    const { db, store, settings } = this.deps;
    const names = derivedNamesOf(book.filePath);
    const outputPath = store.temp.newPath();
    const started = performance.now();
    try {
      const kind = extensionOf(book.filePath) === "docx" ? "docx" : "doc";
      let made;
      try {
        made = await store.withLocalFile("books", book.filePath, (path) =>
          runCaged<WordViewJob, WordViewAnswer>(WORD_VIEW_PROCESS, { path, kind, outputPath }, settings.limits, this.stopping.signal),
        );
      } catch (error) {
        if (!(error instanceof CagedJobError)) throw error;
        if (error.failure === "stopped") throw serverBusy("The server is stopping. Try again in a few seconds.", WORD_VIEW_RETRY_SECONDS);
        // Past the clock's cap but not the CPU's: the machine was busy, which says nothing of the file.
        if (error.failure === "timeout") throw serverBusy("The server is too busy to prepare this book now. Try again in a minute.", 60);
        await this.rememberFailure(names.failure, error);
        logger.warn({ component: "word-views", bookId: book.id, failure: error.failure, reason: error.message }, "a Word book cannot be shown in the browser");
        return { kind: "failed" };
      }
      const { pageCount } = made.answer;
      await store.keepAs(outputPath, "views", names.view);
      // A record an older converter left is no longer the book's.
      await store.remove("views", names.failure);
      // A book deleted meanwhile keeps no view (the sweep would remove it at the next start otherwise).
      if (!(await setPageCountOfLiveBook(db, book.id, pageCount))) await store.remove("views", names.view);
      logger.info(
        {
          component: "word-views",
          bookId: book.id,
          pageCount,
          ms: Math.round(performance.now() - started),
          cpuSeconds: Math.round(made.cpuSeconds * 10) / 10,
          maxRssMegabytes: Math.round(made.maxRssBytes / 2 ** 20),
        },
        "reading view made",
      );
      return { kind: "ready", pageCount };
    } finally {
      await rm(outputPath, { force: true });
    }
  }

  private async rememberFailure(name: string, error: CagedJobError): Promise<void> {
    const record: FailureRecord = { converterVersion: WORD_CONVERTER_VERSION, failure: error.failure, reason: error.message, at: new Date().toISOString() };
    const path = this.deps.store.temp.newPath();
    await writeFile(path, JSON.stringify(record));
    await this.deps.store.keepAs(path, "views", name);
  }
}
