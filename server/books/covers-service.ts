import { inIdPages } from "../db/id-pages.ts";
import pLimit from "p-limit";
import { coverPaletteOf } from "../../shared/cover-palettes.ts";
import type { GenreKey } from "../../shared/genres.ts";
import type { Db } from "../db/client.ts";
import type { FileStore } from "../storage/file-store.ts";
import { type BookForCover, findBookForCover, listBooksLackingCover, lockLiveBook, updateBook } from "./books-repository.ts";
import { STORED_COVER_SIZES, removeCover, storeDrawnCover } from "./cover-images.ts";
import { BOOK_MIME_TYPES } from "./file-types.ts";
import { type DrawnCoverSource, type GeneratedCoverDrawing, type PdfRenderLimits, drawGeneratedCoverApart, readPdfFirstPage } from "./pdf-first-page.ts";
import { authorDisplayName } from "./present-book.ts";

/**
 * A cover for every book (docs/product.md#covers): a PDF's first page, drawn after its upload
 * commits, or its typographic cover when that page reads as a blank sheet on a card
 * (docs/decisions/0108-text-first-pdf-covers.md); a Word book's typographic cover, drawn with its
 * upload or title change.
 */

export interface CoversDeps {
  db: Db;
  store: FileStore;
  /** Each drawing process's limits; PDF_RENDER_LIMITS by default, the queue's own below the server's priority (docs/decisions/0073). */
  drawingLimits?: PdfRenderLimits;
}

/** What filling one book did, as the command prints it and the queue logs it. */
export type CoverOutcome =
  | { kind: "filled"; cover: "first-page" | "generated" | "kept"; pageCount: number | null }
  | { kind: "unreadable"; reason: string }
  | { kind: "gone" };

export interface GeneratedCoverText {
  title: string;
  /** The author's display name; null for an author without a name, whose cover shows none. */
  authorName: string | null;
  genre: GenreKey | null;
}

/**
 * Typographic covers drawn at once, each in a drawing process of its own (about 90 MB at its peak, and
 * a core for the half second it lives): two at most, so that twenty authors uploading at once wait
 * their turn for a few seconds instead of starting twenty processes (docs/decisions/0052).
 */
const COVER_DRAWINGS_AT_ONCE = 2;
/**
 * Past this many waiting, an upload does not wait for its cover (the cover queue draws it): a request
 * idle for 30 s is cut (server/http/harden-server.ts), and a cover is never worth an upload.
 */
const COVER_DRAWINGS_WAITING = 16;
const drawing = pLimit(COVER_DRAWINGS_AT_ONCE);

/** Whether a cover asked for now would wait behind too many others: the upload then leaves it to the queue. */
export const coverDrawingsBusy = () => drawing.activeCount + drawing.pendingCount >= COVER_DRAWINGS_AT_ONCE + COVER_DRAWINGS_WAITING;

/** The typographic cover's drawing: the book's text in its genre's colours, at the stored covers' shape. */
const typographicDrawingOf = ({ title, authorName, genre }: GeneratedCoverText): GeneratedCoverDrawing => ({
  title,
  authorName,
  palette: coverPaletteOf(genre),
  heightRatio: STORED_COVER_SIZES.heightRatio,
});

/**
 * Draws a book's typographic cover in the drawing process, never in the server's
 * (docs/decisions/0052-cover-drawing-apart-from-the-server.md), and stores it; returns its URL.
 */
export async function storeGeneratedCover(store: FileStore, text: GeneratedCoverText, limits?: PdfRenderLimits): Promise<string> {
  const drawn = await drawing(() => drawGeneratedCoverApart(typographicDrawingOf(text), STORED_COVER_SIZES, limits));
  return storeDrawnCover(store, drawn);
}

const coverTextOf = (book: BookForCover): GeneratedCoverText => ({
  title: book.title,
  authorName: authorDisplayName(book),
  genre: book.genre as GenreKey | null,
});

/**
 * Writes what was made for a book, if the book still wants it: the row is locked, and a cover made
 * while the author gave one (or deleted the book) is removed instead of kept. Files are written before
 * the transaction; if it fails they go, and a crash in between leaves only files that the start-up
 * sweep removes (server/books/orphan-files.ts): never a row pointing at a missing file.
 */
async function keepIfStillWanted(
  { db, store }: CoversDeps,
  bookId: number,
  made: { cover: { url: string; source: DrawnCoverSource } | null; pageCount: number | null },
): Promise<{ coverKept: boolean; gone: boolean }> {
  let outcome: { coverKept: boolean; gone: boolean };
  try {
    outcome = await db.transaction(async (tx) => {
      const book = await lockLiveBook(tx, bookId);
      if (!book) return { coverKept: false, gone: true };
      const kept = book.coverImageUrl === null ? made.cover : null;
      const pageCount = book.pageCount ?? made.pageCount;
      if (!kept && pageCount === book.pageCount) return { coverKept: false, gone: false };
      await updateBook(tx, bookId, { pageCount, ...(kept ? { coverImageUrl: kept.url, coverSource: kept.source } : {}) });
      return { coverKept: kept !== null, gone: false };
    });
  } catch (error) {
    await removeCover(store, made.cover?.url ?? null);
    throw error;
  }
  if (!outcome.coverKept) await removeCover(store, made.cover?.url ?? null);
  return outcome;
}

/**
 * Reads a PDF book's page count and, when it has no cover, draws its cover: its first page, or its
 * typographic cover when that page does not work as a cover on a card (drawn, judged and encoded in
 * the render process: sharp is not loaded for it). A PDF that pdf.js cannot open keeps the
 * placeholder: the outcome says why, and nothing is stored.
 */
export async function fillPdfBook(deps: CoversDeps, book: BookForCover): Promise<CoverOutcome> {
  const wanted = book.coverImageUrl === null ? { sizes: STORED_COVER_SIZES, typographic: typographicDrawingOf(coverTextOf(book)) } : null;
  let firstPage;
  try {
    firstPage = await deps.store.withLocalFile("books", book.filePath, (path) => readPdfFirstPage(path, wanted, deps.drawingLimits));
  } catch (error) {
    return { kind: "unreadable", reason: (error as Error).message };
  }
  const { pageCount, cover } = firstPage;
  const stored = cover && { url: await storeDrawnCover(deps.store, cover.widths), source: cover.source };
  const { coverKept, gone } = await keepIfStillWanted(deps, book.id, { cover: stored, pageCount });
  if (gone) return { kind: "gone" };
  return { kind: "filled", cover: coverKept && stored ? stored.source : "kept", pageCount };
}

/** Draws a Word book's typographic cover when it has none (a book uploaded before covers were made). */
export async function fillWordBook(deps: CoversDeps, book: BookForCover): Promise<CoverOutcome> {
  if (book.coverImageUrl !== null) return { kind: "filled", cover: "kept", pageCount: null };
  const coverUrl = await storeGeneratedCover(deps.store, coverTextOf(book), deps.drawingLimits);
  const { coverKept, gone } = await keepIfStillWanted(deps, book.id, { cover: { url: coverUrl, source: "generated" }, pageCount: null });
  if (gone) return { kind: "gone" };
  return { kind: "filled", cover: coverKept ? "generated" : "kept", pageCount: null };
}

/** Fills what a book lacks: its cover, and a PDF's page count. */
export async function fillBook(deps: CoversDeps, book: BookForCover): Promise<CoverOutcome> {
  return book.mimeType === BOOK_MIME_TYPES.pdf ? fillPdfBook(deps, book) : fillWordBook(deps, book);
}

/** Fills a book by id, as it is now (the queue's step: the book may have changed or gone since it was queued). */
export async function fillBookById(deps: CoversDeps, bookId: number): Promise<CoverOutcome> {
  const book = await findBookForCover(deps.db, bookId);
  return book ? fillBook(deps, book) : { kind: "gone" };
}

export interface FillTally {
  seen: number;
  covers: number;
  pageCounts: number;
  unreadable: number;
}

const FILL_BATCH = 50;

/**
 * Fills every live book lacking a cover or (a PDF) a page count, oldest first, one at a time: what
 * `npm run covers:fill` does for books uploaded before covers were made. Each book is committed on its
 * own, so an interrupted run keeps what it did and the next run goes on from there.
 */
export async function fillBooksLackingCover(
  deps: CoversDeps,
  report: (bookId: number, title: string, outcome: CoverOutcome) => void,
): Promise<FillTally> {
  const tally: FillTally = { seen: 0, covers: 0, pageCounts: 0, unreadable: 0 };
  for await (const batch of inIdPages((page) => listBooksLackingCover(deps.db, page), FILL_BATCH)) {
    for (const book of batch) {
      const outcome = await fillBook(deps, book);
      tally.seen += 1;
      if (outcome.kind === "unreadable") tally.unreadable += 1;
      if (outcome.kind === "filled") {
        if (outcome.cover !== "kept") tally.covers += 1;
        if (outcome.pageCount !== null && book.pageCount === null) tally.pageCounts += 1;
      }
      report(book.id, book.title, outcome);
    }
  }
  return tally;
}
