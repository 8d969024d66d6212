import { CATALOG_SORTS, type CatalogSort } from "./books.ts";
import { GENRE_KEYS, type GenreKey } from "./genres.ts";

/**
 * The catalog's search, genre and order live in its address (`/catalog?search=…&genre=…&sort=…`,
 * docs/product.md#catalog), so a reload keeps them, a link shares them and back and forward step
 * through them. A value the catalog would show anyway is left out: the address of the first visit
 * is `/catalog`. The browser app and the server's head of the page read them here alike.
 */

export interface CatalogFilters {
  /** Trimmed; "" for none. */
  search: string;
  genre: GenreKey | undefined;
  /** A chosen order; undefined for the default one (relevance with a search, newest without). */
  sort: CatalogSort | undefined;
}

const FILTER_PARAMS = ["search", "genre", "sort"] as const;

const isGenreKey = (value: string | null): value is GenreKey => (GENRE_KEYS as readonly string[]).includes(value ?? "");
const isCatalogSort = (value: string | null): value is CatalogSort => (CATALOG_SORTS as readonly string[]).includes(value ?? "");

/** The default order is "newest" without a search: naming it then is the same as not. */
const chosenSort = (sort: CatalogSort | undefined, search: string) => (sort === "newest" && search === "" ? undefined : sort);

/** The filters an address names; a value the catalog does not know counts as not named. */
export function readCatalogFilters(query: string): CatalogFilters {
  const params = new URLSearchParams(query);
  const search = (params.get("search") ?? "").trim();
  const genre = params.get("genre");
  const sort = params.get("sort");
  return { search, genre: isGenreKey(genre) ? genre : undefined, sort: chosenSort(isCatalogSort(sort) ? sort : undefined, search) };
}

/** The query string with these filters in place of the ones it named (other parameters, such as `lang`, kept), without "?". */
export function withCatalogFilters(query: string, filters: CatalogFilters): string {
  const params = new URLSearchParams(query);
  for (const name of FILTER_PARAMS) params.delete(name);
  const search = filters.search.trim();
  const sort = chosenSort(filters.sort, search);
  if (search) params.set("search", search);
  if (filters.genre) params.set("genre", filters.genre);
  if (sort) params.set("sort", sort);
  return params.toString();
}
