import { listBooksLackingCover } from "./books-repository.ts";
import { type CoversDeps, fillBookById } from "./covers-service.ts";
import { logger } from "../system/logger.ts";
import type { RequestPressure } from "../system/request-pressure.ts";
import { BackgroundBookQueue, RESUME_WINDOW_MS } from "../system/background-book-queue.ts";

/**
 * PDF books get their cover drawn and their pages counted here, after their upload committed, one at
 * a time (docs/decisions/0031-covers-for-every-book.md): their first page, or their typographic cover
 * when that page reads as a blank sheet on a card (docs/decisions/0108-text-first-pdf-covers.md). The
 * upload answers at once with the placeholder cover, and however many authors upload at once, one PDF
 * is open at a time. A Word book whose typographic cover could not be drawn with its upload or edit
 * gets it here too (docs/decisions/0052). At start the queue takes up the recent books that still lack
 * a cover or (a PDF) page count; older books are `npm run covers:fill`'s.
 *
 * It is background work and yields to requests (docs/decisions/0073): its drawing process runs below
 * the server's priority (`COVER_NICENESS`, in `deps.drawingLimits`), and the next book waits while the
 * server is busy answering, up to `COVER_PAUSE_MAX_SECONDS`. One book at a time: on a 2-core machine
 * its one drawing process leaves the other core to the server.
 */
export class CoverQueue extends BackgroundBookQueue {
  constructor(
    private readonly deps: CoversDeps,
    pressure: RequestPressure,
    /** Told of each book done: a Word book's EPUB carries its cover (docs/decisions/0096). */
    private readonly afterBook: (bookId: number) => void = () => {},
  ) {
    super(pressure, { component: "covers", failed: "a cover could not be made" });
  }

  /** Queues the recent books a previous process left without cover or (a PDF) page count. */
  resume(now = new Date()): Promise<void> {
    const uploadedSince = new Date(now.getTime() - RESUME_WINDOW_MS);
    return this.resumeFrom((page) => listBooksLackingCover(this.deps.db, { ...page, uploadedSince }));
  }

  protected async work(bookId: number): Promise<void> {
    const outcome = await fillBookById(this.deps, bookId);
    // A PDF that pdf.js cannot open keeps the placeholder: said once here, never an error to the author.
    if (outcome.kind === "unreadable") logger.info({ component: "covers", bookId, reason: outcome.reason }, "no cover from its first page; the book keeps the placeholder");
    else this.afterBook(bookId);
  }
}
