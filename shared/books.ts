import type { ModerationState } from "./moderation.ts";
import { GENRE_KEYS, type GenreKey } from "./genres.ts";

/**
 * Book limits and shapes shared by the client and the API (docs/product.md#books). The zod
 * schemas built on them live in book-schemas.ts, so the first screens can use these without zod.
 */

export const TITLE_MAX = 255;
export const DESCRIPTION_MAX = 5000;
export const BOOK_LANGUAGES = ["en", "es", "fr"] as const;
export type BookLanguage = (typeof BOOK_LANGUAGES)[number];

export const BOOK_FILE_MAX_BYTES = 50 * 1024 * 1024;
export const COVER_MAX_BYTES = 5 * 1024 * 1024;
export const BOOK_EXTENSIONS = ["pdf", "doc", "docx", "epub"] as const;
export const COVER_EXTENSIONS = ["jpg", "jpeg", "png", "webp"] as const;
export type BookFileType = (typeof BOOK_EXTENSIONS)[number];

/** The files a reader may take of a book, named by their extension: its own, and the EPUB Plume made of a Word book (docs/product.md#epub). */
export const DOWNLOAD_FORMATS = ["pdf", "doc", "docx", "epub"] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

/** One file of a book a reader may take. */
export interface BookFileFormat {
  format: DownloadFormat;
  size: number;
  mimeType: string;
}

export const CATALOG_PAGE_SIZE = 20;
export const CATALOG_MAX_LIMIT = 100;
export const CATALOG_SORTS = ["newest", "downloads", "rating", "title"] as const;
export type CatalogSort = (typeof CATALOG_SORTS)[number];
export const SEARCH_MAX = 200;

/**
 * The author's rating of what a book holds (docs/product.md#content-ratings, docs/decisions/0092):
 * an explicit book is shown only to signed-in readers who chose to see such books.
 */
export const CONTENT_RATINGS = ["general", "teen", "mature", "explicit"] as const;
export type ContentRating = (typeof CONTENT_RATINGS)[number];
export const DEFAULT_CONTENT_RATING: ContentRating = "general";

/** A book's author as public responses show it: never an e-mail (docs/product.md#accounts). */
export interface BookAuthor {
  id: string;
  firstName: string | null;
  lastName: string | null;
  /** Full name, else the e-mail's local part, else null (shown as the anonymous-author label). */
  displayName: string | null;
}

export interface BookCard {
  id: number;
  title: string;
  description: string | null;
  genre: GenreKey | null;
  language: BookLanguage;
  contentRating: ContentRating;
  coverImageUrl: string | null;
  fileType: BookFileType;
  fileSize: number;
  /** Every file a reader may take, the book's own first; a Word book's EPUB once Plume has made it. */
  formats: BookFileFormat[];
  /** A PDF's number of pages, read after upload (null until then, and for Word books: docs/product.md#covers). */
  pageCount: number | null;
  downloadCount: number;
  rating: number;
  reviewCount: number;
  createdAt: string;
  updatedAt: string;
  author: BookAuthor;
  /** Only on a book moderation restricts, which only its author and the admin see (docs/product.md#moderation). */
  moderationState?: ModerationState;
}

export { GENRE_KEYS };

export interface MonthlyDownloads {
  /** "YYYY-MM", UTC. */
  month: string;
  downloads: number;
}

/** The platform's totals over listed books, on the landing page (GET /api/stats/public). */
export interface PublicStats {
  totalBooks: number;
  totalAuthors: number;
  totalDownloads: number;
}

/** A book's average rating and number of ratings (GET /rating/:bookId, POST /rate). */
export interface BookRating {
  avgRating: number;
  reviewCount: number;
}

/** A reader's own rating of a book, 0 when not rated (GET /api/reviews). */
export interface UserRating {
  userRating: number;
}

export interface AuthorStats {
  totalDownloads: number;
  /** The last 12 months, oldest first, months without downloads included as 0. */
  monthlyDownloads: MonthlyDownloads[];
}

/** What the signed-in account keeps and may keep (GET /api/account/storage; docs/decisions/0055): its live books' files. */
export interface StorageUsage {
  usedBytes: number;
  limitBytes: number;
}

/** The codes of an upload refused for room: over the account's quota, or the server (its disk or its ceiling) full. */
export const STORAGE_QUOTA_EXCEEDED = "storage_quota_exceeded";
export const STORAGE_FULL = "storage_full";
