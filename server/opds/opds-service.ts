import type { CatalogQuery } from "../../shared/book-schemas.ts";
import { type BookLanguage, CATALOG_PAGE_SIZE } from "../../shared/books.ts";
import type { GenreKey } from "../../shared/genres.ts";
import type { OpdsPageQuery } from "../../shared/opds.ts";
import { type BookEditionRow, listEditionsOfBooks } from "../books/editions-repository.ts";
import { listCatalogPage } from "../catalog/search-rankings.ts";
import type { Queryable } from "../db/client.ts";
import { englishMessage } from "../http/messages.ts";
import { type CatalogSite, type EntryExtras, LANGUAGE_NAMES, acquisitionFeed, opdsPaths, tagsFeed } from "./opds-feeds.ts";
import { notFound } from "../http/errors.ts";
import { findSeries, listListedVolumes, listSeriesOfBooks } from "../series/series-repository.ts";
import { findTag, listListedTags, listTagsOfBooks } from "../series/tags-repository.ts";

/** How many tags the OPDS list of tags names, most used first. */
const OPDS_TAGS = 100;

/** Which list of books an acquisition feed pages through. */
export type BookList =
  | { kind: "newest" }
  | { kind: "popular" }
  | { kind: "genre"; genre: GenreKey }
  | { kind: "language"; language: BookLanguage }
  | { kind: "search"; terms: string }
  | { kind: "tag"; slug: string; name: string };

interface ListPlace {
  path: string;
  title: string;
  up: string;
  params?: Record<string, string>;
  query: Pick<CatalogQuery, "sort" | "genre" | "language" | "search" | "tag">;
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
    case "tag":
      return { path: opdsPaths.tag(list.slug), title: `${productName}: tagged “${list.name}”`, up: opdsPaths.tags, query: { sort: "newest", tag: list.slug } };
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
      extras: await entryExtras(db, books.slice(0, paging.size).map((book) => book.id)),
    },
    at,
  );
}

/**
 * Each book's tags and series, for its entry's categories and series link (docs/product.md#series-and-tags),
 * and the editions of a book that has several, for an acquisition link each (docs/product.md#editions).
 */
async function entryExtras(db: Queryable, bookIds: number[]): Promise<Map<number, EntryExtras>> {
  const [tags, series, editions] = await Promise.all([listTagsOfBooks(db, bookIds), listSeriesOfBooks(db, bookIds), listEditionsOfBooks(db, bookIds)]);
  const newestFirst = new Map<number, BookEditionRow[]>();
  for (const edition of editions) newestFirst.set(edition.bookId, [edition, ...(newestFirst.get(edition.bookId) ?? [])]);
  return new Map(
    bookIds.map((id) => {
      const own = newestFirst.get(id) ?? [];
      return [id, { tags: tags.get(id) ?? [], series: series.get(id), ...(own.length > 1 ? { editions: own } : {}) }];
    }),
  );
}

/** The navigation feed of the most used tags. */
export async function tagsFeedOf(db: Queryable, site: CatalogSite, at: Date): Promise<string> {
  return tagsFeed(site, await listListedTags(db, OPDS_TAGS), at);
}

/** A tag's feed, titled with its name; 404 for a tag nobody uses. */
export async function tagFeedPage(db: Queryable, site: CatalogSite, slug: string, paging: OpdsPageQuery, at: Date, showExplicit: boolean): Promise<string> {
  const tag = await findTag(db, slug);
  if (!tag) throw notFound("There is no such tag.");
  return acquisitionFeedPage(db, site, { kind: "tag", slug, name: tag.name }, paging, at, showExplicit);
}

/** A series' feed: its listed volumes in order, paged; 404 when none is listed. */
export async function seriesFeedPage(db: Queryable, site: CatalogSite, id: number, paging: OpdsPageQuery, at: Date, showExplicit: boolean): Promise<string> {
  const series = await findSeries(db, id);
  const volumes = series ? await listListedVolumes(db, id, showExplicit) : [];
  if (!series || volumes.length === 0) throw notFound("This series does not exist.");
  const page = volumes.slice((paging.page - 1) * paging.size, paging.page * paging.size);
  return acquisitionFeed(
    site,
    {
      path: opdsPaths.series(id),
      title: `${site.productName}: ${series.title}`,
      up: opdsPaths.root,
      page: paging.page,
      size: paging.size,
      defaultSize: CATALOG_PAGE_SIZE,
      books: page,
      hasNext: volumes.length > paging.page * paging.size,
      extras: await entryExtras(db, page.map((book) => book.id)),
    },
    at,
  );
}
