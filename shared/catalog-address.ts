import { CATALOG_SORTS, type CatalogSort } from "./books.ts";
import { GENRE_KEYS, type GenreKey } from "./genres.ts";

/**
 * The catalog's search, genre and order live in its address (`/catalog?search=…&genre=…&sort=…`,
 * docs/product.md#screens), so a reload keeps them, a link shares them and back and forward step
 * through them. A value the catalog would show anyway is left out: the address of the first visit
 * is `/catalog`, and a value the catalog does not know reads as left out.
 */

export interface CatalogFilters {
  /** Trimmed; "" for none. */
  search: string;
  genre: GenreKey | undefined;
  /** A chosen order; undefined for the default one (relevance with a search, newest without). */
  sort: CatalogSort | undefined;
}

/** The filters an address's query string names. */
export function readCatalogFilters(query: string): CatalogFilters {
  const params = new URLSearchParams(query);
  return tidy({ search: params.get("search") ?? "", genre: params.get("genre") as GenreKey, sort: params.get("sort") as CatalogSort });
}

/** The query string (without "?") of these filters. */
export const catalogQueryString = (filters: CatalogFilters) => new URLSearchParams(Object.entries(tidy(filters)).filter(([, value]) => value)).toString();

/**
 * The filters as the catalog applies them: the search trimmed, a genre or an order it does not know
 * (such as "all", or "relevance", the default with a search) left out, and "newest" without a search.
 */
function tidy({ search, genre, sort }: CatalogFilters): CatalogFilters {
  search = search.trim();
  return {
    search,
    genre: GENRE_KEYS.includes(genre!) ? genre : undefined,
    sort: CATALOG_SORTS.includes(sort!) && (search || sort !== "newest") ? sort : undefined,
  };
}
