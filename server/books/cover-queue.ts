import { listBooksLackingCover } from "./books-repository.ts";
import { type CoversDeps, fillBookById } from "./covers-service.ts";
import { logger } from "../system/logger.ts";
import type { RequestPressure } from "../system/request-pressure.ts";

/** At start the queue takes up books uploaded this recently that still lack their cover (or a PDF, its page count). */
const RESUME_WINDOW_MS = 24 * 60 * 60 * 1000;
const RESUME_BATCH = 100;

/**
 * PDF books get their first page drawn and their pages counted here, after their upload committed,
 * one at a time (docs/decisions/0031-covers-for-every-book.md): the upload answers at once with the
 * placeholder cover, and however many authors upload at once, one PDF is open at a time. A Word book
 * whose typographic cover could not be drawn with its upload or edit gets it here too
 * (docs/decisions/0052). Nothing is kept in memory that a restart would lose: at start, the queue
 * takes up the recent books that still lack a cover or (a PDF) page count; older books are
 * `npm run covers:fill`'s.
 *
 * It is background work and yields to requests (docs/decisions/0073): its drawing process runs below
 * the server's priority (`COVER_NICENESS`, in `deps.drawingLimits`), and the next book waits while the
 * server is busy answering, up to `COVER_PAUSE_MAX_SECONDS`. One book at a time: on a 2-core machine
 * its one drawing process leaves the other core to the server.
 */
export class CoverQueue {
  private readonly waiting: number[] = [];
  private running: Promise<void> | null = null;
  private readonly stopping = new AbortController();

  constructor(
    private readonly deps: CoversDeps,
    private readonly pressure: RequestPressure,
    /** Told of each book done: a Word book's EPUB carries its cover (docs/decisions/0096). */
    private readonly afterBook: (bookId: number) => void = () => {},
  ) {}

  private get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  /** Queues a book just uploaded (its row committed). */
  add(bookId: number): void {
    if (this.stopped || this.waiting.includes(bookId)) return;
    this.waiting.push(bookId);
    this.running ??= this.drain().finally(() => (this.running = null));
  }

  /** Queues the recent books a previous process left without cover or (a PDF) page count. */
  async resume(now = new Date()): Promise<void> {
    const uploadedSince = new Date(now.getTime() - RESUME_WINDOW_MS);
    let afterId = 0;
    for (;;) {
      const books = await listBooksLackingCover(this.deps.db, { afterId, limit: RESUME_BATCH, uploadedSince });
      books.forEach((book) => this.add(book.id));
      if (books.length < RESUME_BATCH) return;
      afterId = books.at(-1)!.id;
    }
  }

  /** Settles once every queued book is done (tests wait on it). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * No more books are taken; settles once the one in hand is done (its drawing process is capped), so
   * that a shutdown closes the database after its row is written, not between its files and its row.
   */
  stop(): Promise<void> {
    this.stopping.abort();
    this.waiting.length = 0;
    return this.idle();
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0 && !this.stopped) {
      const { waitedMs, gaveUpOn } = await this.pressure.quietTurn(this.stopping.signal);
      const bookId = this.waiting.shift();
      if (bookId === undefined || this.stopped) return;
      if (gaveUpOn) logger.debug({ component: "covers", bookId, waitedMs, busy: gaveUpOn }, "the server stayed busy: drawing the next cover all the same");
      try {
        const outcome = await fillBookById(this.deps, bookId);
        // A PDF that pdf.js cannot open keeps the placeholder: said once here, never an error to the author.
        if (outcome.kind === "unreadable") logger.info({ component: "covers", bookId, reason: outcome.reason }, "no cover from its first page; the book keeps the placeholder");
        else this.afterBook(bookId);
      } catch (error) {
        if (!this.stopped) logger.warn({ component: "covers", bookId, error: (error as Error).message }, "a cover could not be made");
      }
    }
  }
}
