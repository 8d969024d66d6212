import type { BookCard } from "./books.ts";
import type { ReaderFormat } from "./reading.ts";
import { SHELVES, type Shelf } from "./returning-readers.ts";

/**
 * A reader's shelves, "Continue reading" and "My books" (docs/product.md#shelves): what both sides agree
 * on. No zod here: the book cards of the first screens import it (the schemas: shelf-schemas.ts).
 */

export { SHELVES, type Shelf };

/** Books on one page of a shelf, of "My books" and of a public shelf. */
export const SHELF_PAGE_SIZE = 24;
/** How deep a shelf pages: a reader with more books than this on a shelf pages no further. */
export const SHELF_MAX_PAGE = 500;
/** The books "Continue reading" shows on the home, newest first. */
export const CONTINUE_READING_LIMIT = 6;
/** The books of each shelf a public reader page shows. */
export const PUBLIC_SHELF_LIMIT = 24;

/** The signed-in reader's shelved books, by id (a string key in JSON): one request for every card on a screen. */
export interface ShelfMap {
  shelves: Record<string, Shelf>;
}

export interface ShelfEntry {
  bookId: number;
  shelf: Shelf;
}

/** One page of books: a shelf, "My books", a public shelf. */
export interface BookPage<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

export interface ShelvedBook {
  book: BookCard;
  shelf: Shelf;
  shelvedAt: string;
}

/** How the reader took a book (the downloads' channels, docs/product.md#counting-downloads). */
export const TAKING_CHANNELS = ["download", "read", "opds", "send"] as const;
export type TakingChannel = (typeof TAKING_CHANNELS)[number];

/** A book the reader took, once however many times: how, each way once, and when last. */
export interface TakenBook {
  book: BookCard;
  channels: TakingChannel[];
  lastTakenAt: string;
}

/** A place to go back to: the book and where the reader was in it. */
export interface ContinueReadingItem {
  book: BookCard;
  page: number;
  /** How far through, 0 to 1; an EPUB's place is told by it. */
  percentage: number | null;
  format: ReaderFormat | null;
  updatedAt: string;
}

export interface ContinueReading {
  items: ContinueReadingItem[];
}

/** A reader's public shelves (/readers/{username}): their username and listed books, nothing else of the account. */
export interface PublicReader {
  username: string;
  shelves: Record<Shelf, { books: BookCard[]; total: number }>;
}

/** The reader's address: its username as typed, encoded. */
export function readerPath(username: string): string {
  return `/readers/${encodeURIComponent(username)}`;
}
