import type { ReaderFormat, SavedPosition } from "../../shared/reading.ts";

/**
 * Places translated between KOReader's terms and Plume's (docs/product.md#progress-sync). KOReader
 * names a place in a paged file (a PDF) by its page, and in a reflowed one (an EPUB, a Word file it
 * renders itself) by an XPointer into its DOM, whose first step `/body/DocFragment[N]` is the Nth
 * item of the EPUB's spine: the same item Plume's EPUB reader calls page N.
 */

const DOC_FRAGMENT = /^\/body\/DocFragment\[(\d{1,6})\]/;

/** The page a KOReader place stands for: a PDF's page, a reflowed book's spine item; 1 when it names neither. */
export function pageOfKoreaderProgress(progress: string, format: ReaderFormat): number {
  if (format === "pdf") {
    const page = Number(progress);
    return Number.isInteger(page) && page >= 1 ? page : 1;
  }
  const fragment = DOC_FRAGMENT.exec(progress)?.[1];
  return fragment === undefined ? 1 : Math.max(1, Number(fragment));
}

/**
 * The place KOReader is sent for a file of this format, or null when there is none it could go to.
 * KOReader's own place goes back as it came when it was saved in a file of the same format. A place
 * saved elsewhere becomes, in a PDF, the same page (or the page its percentage falls on, from another
 * format); in an EPUB, the start of the same spine item. Any other reflowed place (a Word book's
 * reading view's page, a PDF's page, in an EPUB or a Word file KOReader renders itself) names nothing
 * KOReader's DOM paths can: rather than send KOReader back to the start, there is none. `position.format` is the format it was saved in, never null here.
 */
export function koreaderProgressOf(position: SavedPosition & { format: ReaderFormat }, format: ReaderFormat, pageCount: number | null): string | null {
  if (position.device !== null && position.format === format && position.locator !== null) return position.locator;
  if (format === "pdf") {
    if (position.format !== "pdf" && position.percentage !== null && pageCount !== null) return String(pageAt(position.percentage, pageCount));
    if (position.format !== "pdf") return null;
    return String(pageCount === null ? position.page : Math.min(position.page, pageCount));
  }
  // A Word file's pages in the browser's reading view are not KOReader's fragments of it.
  return position.format === "epub" && format === "epub" ? `/body/DocFragment[${position.page}]` : null;
}

/** The page a share of the book falls on: 0 is the first page, 1 the last. */
function pageAt(percentage: number, pageCount: number): number {
  return Math.min(pageCount, Math.max(1, Math.floor(percentage * pageCount) + 1));
}

/** How far through the book a position is, for KOReader, which needs a number: its own, else the page's share. */
export function percentageOf(position: SavedPosition, pageCount: number | null): number {
  if (position.percentage !== null) return position.percentage;
  if (pageCount === null || pageCount <= 1) return 0;
  return Math.min(1, (position.page - 1) / (pageCount - 1));
}
