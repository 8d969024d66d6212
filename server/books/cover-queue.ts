import { listBooksLackingCover } from "./books-repository.ts";
import { type CoversDeps, fillBookById } from "./covers-service.ts";
import { logger } from "../system/logger.ts";

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
 */
export class CoverQueue {
  private readonly waiting: number[] = [];
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly deps: CoversDeps) {}

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

  /** No more books are taken; the one in hand finishes or fails on its own (its render process is capped). */
  stop(): void {
    this.stopped = true;
    this.waiting.length = 0;
  }

  private async drain(): Promise<void> {
    for (let bookId = this.waiting.shift(); bookId !== undefined && !this.stopped; bookId = this.waiting.shift()) {
      try {
        const outcome = await fillBookById(this.deps, bookId);
        // A PDF that pdf.js cannot open keeps the placeholder: said once here, never an error to the author.
        if (outcome.kind === "unreadable") logger.info({ component: "covers", bookId, reason: outcome.reason }, "no cover from its first page; the book keeps the placeholder");
      } catch (error) {
        if (!this.stopped) logger.warn({ component: "covers", bookId, error: (error as Error).message }, "a cover could not be made");
      }
    }
  }
}
