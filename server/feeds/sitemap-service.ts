import { authorPath, bookPath } from "../../shared/book-urls.ts";
import { INFO_PAGES } from "../../shared/info-pages.ts";
import {
  authorLinksOfSitemapPage,
  bookLinksOfSitemapPage,
  countSitemapAuthorPages,
  readSitemapBookPages,
} from "../catalog/listings-service.ts";
import type { Queryable } from "../db/client.ts";
import { seriesPath, tagCatalogPath } from "../../shared/series-and-tags.ts";
import { listListedTags } from "../series/tags-repository.ts";

/** How many tags' catalog pages pages.xml names, most used first. */
const SITEMAP_TAGS = 1000;
import { countListedSeries, listListedSeries } from "../series/series-repository.ts";
import { notFound } from "../http/errors.ts";
import { type SitemapUrl, sitemapIndexXml, urlsXml, urlsetEnd, urlsetStart } from "./sitemap.ts";

/*
 * /sitemap.xml is always an index (docs/product.md#feeds-and-crawling): the app's own pages, the
 * books in pages of at most 50,000 by id range, the authors in pages of at most 50,000. A catalog of
 * any size keeps the same shape, and no file passes the protocol's limits.
 */

export type SitemapName = { kind: "pages" } | { kind: "books" | "authors" | "series"; page: number };

/** `pages.xml`, `books-3.xml`, `authors-1.xml`, `series-1.xml`; anything else names no sitemap. */
export function parseSitemapName(name: string): SitemapName | undefined {
  if (name === "pages.xml") return { kind: "pages" };
  const match = /^(books|authors|series)-([1-9][0-9]{0,5})\.xml$/.exec(name);
  return match ? { kind: match[1] as "books" | "authors" | "series", page: Number(match[2]) } : undefined;
}

/** A sitemap's most addresses (sitemaps.org). */
const SERIES_PER_SITEMAP = 50_000;

/** The series with a listed book (docs/product.md#series-and-tags), in pages of 50,000 by id; one page at least, so the index's shape stays. */
async function seriesUrlsOfPage(db: Queryable, origin: string, page: number): Promise<SitemapUrl[]> {
  const rows = await listListedSeries(db, SERIES_PER_SITEMAP, (page - 1) * SERIES_PER_SITEMAP);
  return rows.map((row) => ({ loc: `${origin}${seriesPath(row.id)}`, lastModified: row.updatedAt }));
}

const sitemapFileName = (name: SitemapName) => (name.kind === "pages" ? "pages.xml" : `${name.kind}-${name.page}.xml`);
export const sitemapPath = (name: SitemapName) => `/sitemaps/${sitemapFileName(name)}`;

const newest = (dates: Date[]) => dates.reduce<Date | undefined>((latest, date) => (latest && latest >= date ? latest : date), undefined);

export interface SitemapDocument {
  /** The newest lastmod the document names, for Last-Modified and conditional requests. */
  lastModified: Date | undefined;
  /** The document in parts, to be sent one after the other. */
  parts: AsyncIterable<string> | Iterable<string>;
}

export async function sitemapIndex(db: Queryable, origin: string): Promise<SitemapDocument> {
  const [bookPages, authorPageCount, seriesCount] = await Promise.all([readSitemapBookPages(db), countSitemapAuthorPages(db), countListedSeries(db)]);
  const seriesPageCount = Math.ceil(seriesCount / SERIES_PER_SITEMAP);
  const lastModified = newest(bookPages.map((page) => page.lastModified));
  const sitemaps: SitemapUrl[] = [
    { loc: `${origin}${sitemapPath({ kind: "pages" })}`, lastModified },
    ...bookPages.map(({ page, lastModified }) => ({ loc: `${origin}${sitemapPath({ kind: "books", page })}`, lastModified })),
    ...Array.from({ length: authorPageCount }, (_, index) => ({ loc: `${origin}${sitemapPath({ kind: "authors", page: index + 1 })}` })),
    ...Array.from({ length: seriesPageCount }, (_, index) => ({ loc: `${origin}${sitemapPath({ kind: "series", page: index + 1 })}` })),
  ];
  return { lastModified, parts: [sitemapIndexXml(sitemaps)] };
}

async function* inUrlset(batches: AsyncIterable<SitemapUrl[]> | Iterable<SitemapUrl[]>): AsyncGenerator<string> {
  yield urlsetStart;
  for await (const urls of batches) yield urlsXml(urls);
  yield urlsetEnd;
}

async function* bookUrls(db: Queryable, origin: string, page: number): AsyncGenerator<SitemapUrl[]> {
  for await (const books of bookLinksOfSitemapPage(db, page)) {
    yield books.map((book) => ({ loc: `${origin}${bookPath(book)}`, lastModified: book.updatedAt }));
  }
}

/** One sitemap of the index; 404 for a name or page it does not list. */
export async function sitemapDocument(db: Queryable, origin: string, name: SitemapName): Promise<SitemapDocument> {
  switch (name.kind) {
    case "pages": {
      const lastModified = newest((await readSitemapBookPages(db)).map((page) => page.lastModified));
      const urls = [`${origin}/`, `${origin}/catalog`].map((loc) => ({ loc, lastModified }));
      // The info pages change with Plume's releases, not with the catalog: no date is better than a wrong one.
      const infoUrls = INFO_PAGES.map(({ path }) => ({ loc: `${origin}${path}` }));
      // The catalog's page of each of the most used tags (docs/product.md#series-and-tags).
      const tagUrls = (await listListedTags(db, SITEMAP_TAGS)).map((tag) => ({ loc: `${origin}${tagCatalogPath(tag.slug)}` }));
      return { lastModified, parts: inUrlset([[...urls, ...infoUrls, ...tagUrls]]) };
    }
    case "books": {
      const page = (await readSitemapBookPages(db)).find((candidate) => candidate.page === name.page);
      if (!page) throw notFound("No such sitemap.");
      return { lastModified: page.lastModified, parts: inUrlset(bookUrls(db, origin, name.page)) };
    }
    case "authors": {
      if (name.page > (await countSitemapAuthorPages(db))) throw notFound("No such sitemap.");
      const authors = await authorLinksOfSitemapPage(db, name.page);
      const urls = authors.map(({ authorId, lastModified }) => ({ loc: `${origin}${authorPath({ id: authorId })}`, lastModified }));
      return { lastModified: newest(authors.map((author) => author.lastModified)), parts: inUrlset([urls]) };
    }
    case "series": {
      const urls = await seriesUrlsOfPage(db, origin, name.page);
      if (urls.length === 0) throw notFound("No such sitemap.");
      return { lastModified: newest(urls.flatMap((url) => (url.lastModified ? [url.lastModified] : []))), parts: inUrlset([urls]) };
    }
  }
}
