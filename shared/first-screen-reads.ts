import type { BookLanguage, CatalogSort } from "./books.ts";
import type { GenreKey } from "./genres.ts";

/**
 * The API addresses the first screens read, named once for the client that reads them and for the
 * server, which names them in the app's page so that the browser fetches them beside the app's scripts
 * rather than after them (server/http/first-screen-reads.ts, docs/decisions/0080). The browser hands
 * a preloaded answer to the app's fetch only when the two addresses are the same, byte for byte.
 */

export const BOOKS_API = "/api/books";
export const AUTHORS_API = "/api/authors";
export const CURRENT_USER_API = "/api/auth/user";
export const PUBLIC_STATS_API = "/api/stats/public";
export const PUBLIC_CONFIG_API = "/api/config";

/**
 * The book language a reader last chose in the catalog (docs/product.md#catalog-by-language), kept in a
 * cookie so that the server preloads the catalog and the home rows in it, as the app will ask for them.
 */
export const BOOK_LANGUAGE_COOKIE = "plume-book-lang";

/** How many of the newest books the landing page shows. */
export const FEATURED_BOOK_COUNT = 4;

/** What narrows and orders a book list; absent fields are left to the server's defaults. */
export interface BookListFilters {
  genre?: GenreKey;
  search?: string;
  sort?: CatalogSort;
  /** A tag's normalised form (docs/product.md#series-and-tags). */
  tag?: string;
  /** The books written in one language (docs/product.md#catalog-by-language). */
  language?: BookLanguage;
}

/** A page from an offset, or (keyset paging) the page after a book, in the same order. */
export type BookListPage = BookListFilters & { limit: number } & ({ offset: number } | { after: number });

/** GET /api/books for one page of a book list, its parameters always in the same order. */
export function bookListApi(page: BookListPage): string {
  const query = new URLSearchParams({ limit: String(page.limit) });
  if ("offset" in page) query.set("offset", String(page.offset));
  else query.set("after", String(page.after));
  if (page.genre) query.set("genre", page.genre);
  if (page.search) query.set("search", page.search);
  if (page.sort) query.set("sort", page.sort);
  if (page.tag) query.set("tag", page.tag);
  if (page.language) query.set("language", page.language);
  return `${BOOKS_API}?${query}`;
}
