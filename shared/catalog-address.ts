import { BOOK_LANGUAGES, type BookLanguage, CATALOG_SORTS, type CatalogSort } from "./books.ts";
import { GENRE_KEYS, type GenreKey } from "./genres.ts";
import { TAG_MAX, TAG_MIN, tagSlug } from "./series-basics.ts";

/**
 * The catalog's search, genre, language and order live in its address (`/catalog?search=…&genre=…&language=…&sort=…`,
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
  /** The books of one tag, by its normalised form (docs/product.md#series-and-tags); undefined for all. */
  tag?: string | undefined;
  /** The books written in one language; undefined for every language (docs/product.md#catalog-by-language). */
  language?: BookLanguage | undefined;
}

/** The filters an address's query string names. */
export function readCatalogFilters(query: string): CatalogFilters {
  const params = new URLSearchParams(query);
  return tidy({ search: params.get("search") ?? "", genre: params.get("genre") as GenreKey, sort: params.get("sort") as CatalogSort, tag: params.get("tag") ?? undefined, language: params.get("language") as BookLanguage });
}

/**
 * The filters the catalog shows at an address: a book language the address does not name is the one
 * the reader chose last, if any (docs/product.md#catalog-by-language). The app then writes it into the address.
 */
export function shownCatalogFilters(query: string, rememberedLanguage: BookLanguage | undefined): CatalogFilters {
  const filters = readCatalogFilters(query);
  return { ...filters, language: filters.language ?? rememberedLanguage };
}

/** The query string (without "?") of these filters. */
export const catalogQueryString = (filters: CatalogFilters) => new URLSearchParams(Object.entries(tidy(filters)).filter(([, value]) => value)).toString();

/**
 * The filters as the catalog applies them: the search trimmed, a genre or an order it does not know
 * (such as "all", or "relevance", the default with a search) left out, and "newest" without a search.
 */
function tidy({ search, genre, sort, tag, language }: CatalogFilters): CatalogFilters {
  search = search.trim();
  const slug = tag === undefined ? "" : tagSlug(tag);
  return {
    search,
    genre: GENRE_KEYS.includes(genre!) ? genre : undefined,
    sort: CATALOG_SORTS.includes(sort!) && (search || sort !== "newest") ? sort : undefined,
    // A tag the API would refuse reads as left out.
    tag: slug.length >= TAG_MIN && slug.length <= TAG_MAX ? slug : undefined,
    language: isBookLanguage(language) ? language : undefined,
  };
}

export const isBookLanguage = (value: string | null | undefined): value is BookLanguage => BOOK_LANGUAGES.includes(value as BookLanguage);
