import type { Queryable } from "../db/client.ts";
import type { BookCardRow } from "../books/books-repository.ts";
import {
  type BookLinkRow,
  countListedAuthors,
  listListedAuthorLinks,
  listListedBookLinks,
  listListedIdRanges,
  listNewestListed,
} from "./catalog-repository.ts";

/*
 * What the feeds and the sitemap list of the catalog (docs/product.md#feeds-and-crawling): listed
 * books only, read in pages small enough for a catalog of 100,000 books and more.
 */

/** The most addresses one sitemap file may hold (the sitemaps protocol's limit). */
export const SITEMAP_MAX_URLS = 50_000;
/** Rows read per query while a sitemap page is written out: memory stays flat whatever the page's size. */
const SITEMAP_BATCH = 5_000;

export function readNewestBooks(db: Queryable, limit: number, authorId?: string): Promise<BookCardRow[]> {
  return listNewestListed(db, limit, authorId);
}

export interface SitemapPage {
  /** 1 and up. */
  page: number;
  lastModified: Date;
}

/**
 * The sitemap's pages of books: page p names the listed books with ids from (p-1)·50,000+1 to
 * p·50,000, so a page is found by its ids alone (no offset to count past) and never holds more than
 * the limit. Ranges without a listed book have no page.
 */
export async function readSitemapBookPages(db: Queryable): Promise<SitemapPage[]> {
  const ranges = await listListedIdRanges(db, SITEMAP_MAX_URLS);
  return ranges.map(({ range, lastModified }) => ({ page: range + 1, lastModified }));
}

/** The listed books of a sitemap page, in batches, by id. */
export async function* bookLinksOfSitemapPage(db: Queryable, page: number): AsyncGenerator<BookLinkRow[]> {
  const lastId = page * SITEMAP_MAX_URLS;
  let afterId = (page - 1) * SITEMAP_MAX_URLS;
  for (;;) {
    const batch = await listListedBookLinks(db, afterId, lastId, SITEMAP_BATCH);
    if (batch.length > 0) yield batch;
    if (batch.length < SITEMAP_BATCH) return;
    afterId = batch.at(-1)!.id;
  }
}

/** How many sitemap pages the authors with a listed book fill. */
export async function countSitemapAuthorPages(db: Queryable): Promise<number> {
  return Math.ceil((await countListedAuthors(db)) / SITEMAP_MAX_URLS);
}

/** The authors of a sitemap page, by id, each with the last change of their page. */
export function authorLinksOfSitemapPage(db: Queryable, page: number): Promise<Array<{ authorId: string; lastModified: Date }>> {
  return listListedAuthorLinks(db, (page - 1) * SITEMAP_MAX_URLS, SITEMAP_MAX_URLS);
}
