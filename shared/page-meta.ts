import type { BookAuthor, BookCard } from "./books.ts";
import { type InterfaceLanguage, isInterfaceLanguage } from "./languages.ts";

/**
 * What the book and author pages say about themselves to browsers, search engines and link previews
 * (docs/product.md#book-pages): the same words whether the server writes them into the page it sends
 * or the browser app sets them after a click.
 */

/**
 * The query parameter that addresses a page in one language (`/books/42-x?lang=es`), as the hreflang
 * alternates link it; it wins over the stored choice and the browser's languages (docs/decisions/0028).
 */
export const LANGUAGE_PARAM = "lang";

/** Search engines show about this many characters of a description; longer ones are cut at a word. */
export const META_DESCRIPTION_MAX = 160;

/** The language a page's address asks for, if it asks for one the interface speaks. */
export function addressedLanguage(search: string): InterfaceLanguage | undefined {
  const language = new URLSearchParams(search).get(LANGUAGE_PARAM) ?? undefined;
  return isInterfaceLanguage(language) ? language : undefined;
}

/** A text on one line, at most META_DESCRIPTION_MAX characters, cut after a whole word with an ellipsis. */
export function shortDescription(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= META_DESCRIPTION_MAX) return line;
  const cut = line.slice(0, META_DESCRIPTION_MAX - 1);
  const lastSpace = cut.lastIndexOf(" ");
  return `${(lastSpace > META_DESCRIPTION_MAX / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s,;:.–—-]+$/, "")}…`;
}

/**
 * The width the book page shows its cover at, as an <img sizes> list: the page's <img> and the
 * server's preload of it (which starts the largest paint before any script runs) pick the same file.
 */
export const BOOK_PAGE_COVER_SIZES = "(min-width: 1024px) 20rem, (min-width: 768px) 16rem, (min-width: 640px) 14rem, 12rem";

/** An author's public profile (GET /api/authors/:id): never the e-mail, only the books anyone can see. */
export interface AuthorProfile {
  author: BookAuthor;
  /** When the account was created (ISO). */
  memberSince: string;
  /** Counted downloads of the books listed here: the public figure, the sum of their counts. */
  totalDownloads: number;
  /** Published, not deleted, newest first. */
  books: BookCard[];
}
