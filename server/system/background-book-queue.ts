import { inIdPages } from "../db/id-pages.ts";
import { logger } from "./logger.ts";
import type { RequestPressure } from "./request-pressure.ts";

/** At start a queue takes up the books changed this recently that still need its work; older ones are their fill command's. */
export const RESUME_WINDOW_MS = 24 * 60 * 60 * 1000;
const RESUME_BATCH = 100;

/**
 * Work on books done in the background after their upload or edit committed (a cover drawn, an EPUB
 * made): one book at a time, each once the server is quiet (docs/decisions/0073), so that however many
 * authors upload at once, one file is worked on. Nothing is kept in memory that a restart would lose:
 * `resume` takes up, from the database, what a previous process left.
 */
export abstract class BackgroundBookQueue {
  private readonly waiting: number[] = [];
  private running: Promise<void> | null = null;
  /** A resume still listing its books: idle waits for it too, or a book it finds late would be worked on after "idle". */
  private resuming: Promise<void> | null = null;
  protected readonly stopping = new AbortController();

  constructor(
    private readonly pressure: RequestPressure,
    /** The log's component, and what is said when a book's work fails. */
    private readonly log: { component: string; failed: string },
  ) {}

  protected get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  /** The book's work; a book that needs none by its turn is passed over. Throwing is logged, never the queue's end. */
  protected abstract work(bookId: number, signal: AbortSignal): Promise<void>;

  /** Queues a book whose upload or edit committed. */
  add(bookId: number): void {
    if (this.stopped || this.waiting.includes(bookId)) return;
    this.waiting.push(bookId);
    this.running ??= this.drain().finally(() => (this.running = null));
  }

  /** Queues every book `list` finds, in pages of ids. */
  protected resumeFrom(list: (page: { afterId: number; limit: number }) => Promise<{ id: number }[]>): Promise<void> {
    const resuming = (async () => {
      for await (const books of inIdPages(list, RESUME_BATCH)) books.forEach((book) => this.add(book.id));
    })();
    this.resuming = resuming.finally(() => (this.resuming = null)).catch(() => undefined);
    return resuming;
  }

  /** Settles once every queued book is done (tests wait on it). */
  async idle(): Promise<void> {
    while (this.resuming ?? this.running) await (this.resuming ?? this.running);
  }

  /**
   * No more books are taken; settles once the one in hand is done or stopped (its process is capped),
   * so that a shutdown closes the database after its row is written, not between its files and its row.
   */
  stop(): Promise<void> {
    this.stopping.abort();
    this.waiting.length = 0;
    return this.idle();
  }

  private async drain(): Promise<void> {
    const { signal } = this.stopping;
    const { component, failed } = this.log;
    while (this.waiting.length > 0 && !this.stopped) {
      const { waitedMs, gaveUpOn } = await this.pressure.quietTurn(signal);
      const bookId = this.waiting.shift();
      if (bookId === undefined || this.stopped) return;
      if (gaveUpOn) logger.debug({ component, bookId, waitedMs, busy: gaveUpOn }, "the server stayed busy: taking the next book all the same");
      try {
        await this.work(bookId, signal);
      } catch (error) {
        if (!this.stopped) logger.warn({ component, bookId, error: (error as Error).message }, failed);
      }
    }
  }
}
