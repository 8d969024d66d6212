import type { CatalogQuery } from "../../shared/book-schemas.ts";
import { type BookLanguage, CATALOG_PAGE_SIZE } from "../../shared/books.ts";
import type { GenreKey } from "../../shared/genres.ts";
import type { OpdsPageQuery } from "../../shared/opds.ts";
import { listCatalogPage } from "../catalog/search-rankings.ts";
import type { Queryable } from "../db/client.ts";
import { englishMessage } from "../http/messages.ts";
import { type CatalogSite, LANGUAGE_NAMES, acquisitionFeed, opdsPaths } from "./opds-feeds.ts";

/** Which list of books an acquisition feed pages through. */
export type BookList =
  | { kind: "newest" }
  | { kind: "popular" }
  | { kind: "genre"; genre: GenreKey }
  | { kind: "language"; language: BookLanguage }
  | { kind: "search"; terms: string };

interface ListPlace {
  path: string;
  title: string;
  up: string;
  params?: Record<string, string>;
  query: Pick<CatalogQuery, "sort" | "genre" | "language" | "search">;
}

function placeOf(list: BookList, productName: string): ListPlace {
  switch (list.kind) {
    case "newest":
      return { path: opdsPaths.newest, title: `${productName}: new books`, up: opdsPaths.root, query: { sort: "newest" } };
    case "popular":
      return { path: opdsPaths.popular, title: `${productName}: popular books`, up: opdsPaths.root, query: { sort: "downloads" } };
    case "genre":
      return { path: opdsPaths.genre(list.genre), title: `${productName}: ${englishMessage(`genres.${list.genre}`)}`, up: opdsPaths.genres, query: { sort: "newest", genre: list.genre } };
    case "language":
      return {
        path: opdsPaths.language(list.language),
        title: `${productName}: books in ${LANGUAGE_NAMES[list.language]}`,
        up: opdsPaths.languages,
        query: { sort: "newest", language: list.language },
      };
    case "search":
      // No order: the catalog's search ranks by relevance, as on the site.
      return { path: opdsPaths.search, title: `${productName}: search for “${list.terms}”`, up: opdsPaths.root, params: { q: list.terms }, query: { search: list.terms } };
  }
}

/**
 * One page of an acquisition feed, from the catalog's own pages and search (docs/product.md#opds):
 * the same listed books in the same orders as the site. One book more than the page is read, to
 * know whether a next page exists without counting them all.
 */
export async function acquisitionFeedPage(
  db: Queryable,
  site: CatalogSite,
  list: BookList,
  paging: OpdsPageQuery,
  at: Date,
  showExplicit: boolean,
): Promise<string> {
  const place = placeOf(list, site.productName);
  const books = await listCatalogPage(db, { ...place.query, limit: paging.size + 1, offset: (paging.page - 1) * paging.size, showExplicit });
  return acquisitionFeed(
    site,
    {
      path: place.path,
      title: place.title,
      up: place.up,
      params: place.params,
      page: paging.page,
      size: paging.size,
      defaultSize: CATALOG_PAGE_SIZE,
      books: books.slice(0, paging.size),
      hasNext: books.length > paging.size,
    },
    at,
  );
}
