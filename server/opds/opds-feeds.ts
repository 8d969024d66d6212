import { authorPath, bookPath } from "../../shared/book-urls.ts";
import { BOOK_LANGUAGES, type BookLanguage, type DownloadFormat } from "../../shared/books.ts";
import { coverVariants } from "../../shared/covers.ts";
import { GENRE_KEYS, type GenreKey } from "../../shared/genres.ts";
import { OPDS_PATH } from "../../shared/opds.ts";
import { FOLLOWING_OPDS_PATH } from "../../shared/follows.ts";
import { formatVolume } from "../../shared/series-and-tags.ts";
import { authorDisplayName } from "../books/present-book.ts";
import type { BookCardRow } from "../books/books-repository.ts";
import { COVER_MIME_TYPES, coverTypeOfExtension, extensionOf } from "../books/file-types.ts";
import { epubFirst, formatsOf } from "../books/book-files.ts";
import { englishMessage } from "../http/messages.ts";
import { type XmlChild, type XmlElement, el, xmlDocument } from "../http/xml.ts";

/**
 * The OPDS 1.2 catalog's documents (docs/product.md#opds, docs/decisions/0030-opds.md): Atom feeds
 * with the OPDS relations and media types, written from catalog rows and the public origin. Feeds
 * speak English, the catalog's common language; each book says its own language in dc:language.
 */

export const NAVIGATION_TYPE = "application/atom+xml;profile=opds-catalog;kind=navigation";
export const ACQUISITION_TYPE = "application/atom+xml;profile=opds-catalog;kind=acquisition";
export const OPENSEARCH_TYPE = "application/opensearchdescription+xml";

const ATOM_NAMESPACES = {
  xmlns: "http://www.w3.org/2005/Atom",
  "xmlns:dc": "http://purl.org/dc/terms/",
  "xmlns:opds": "http://opds-spec.org/2010/catalog",
  "xml:lang": "en",
};

/** Where a catalog is served and by whom: absolute links start with the origin. */
export interface CatalogSite {
  origin: string;
  productName: string;
}

/** The catalog's own addresses, relative to the origin. */
export const opdsPaths = {
  root: OPDS_PATH,
  newest: `${OPDS_PATH}/new`,
  popular: `${OPDS_PATH}/popular`,
  genres: `${OPDS_PATH}/genres`,
  genre: (genre: GenreKey) => `${OPDS_PATH}/genres/${genre}`,
  languages: `${OPDS_PATH}/languages`,
  language: (language: BookLanguage) => `${OPDS_PATH}/languages/${language}`,
  search: `${OPDS_PATH}/search`,
  tags: `${OPDS_PATH}/tags`,
  tag: (slug: string) => `${OPDS_PATH}/tags/${encodeURIComponent(slug)}`,
  series: (id: number) => `${OPDS_PATH}/series/${id}`,
  openSearch: `${OPDS_PATH}/opensearch.xml`,
  following: FOLLOWING_OPDS_PATH,
  bookFile: (bookId: number, format?: DownloadFormat) => `${OPDS_PATH}/books/${bookId}/file${format ? `?format=${format}` : ""}`,
  editionFile: (bookId: number, edition: number) => `${OPDS_PATH}/books/${bookId}/file?edition=${edition}`,
};

const genreLabel = (genre: GenreKey) => englishMessage(`genres.${genre}`);
/** The vocabulary of a book's rating category: schema.org's property of that name. */
export const CONTENT_RATING_SCHEME = "https://schema.org/contentRating";
/** In English like the rest of the feeds (the interface's texts name each language in itself). */
export const LANGUAGE_NAMES: Record<BookLanguage, string> = { en: "English", es: "Spanish", fr: "French" };

const link = (rel: string, href: string, type: string, extra: Record<string, string | number | undefined> = {}) => el("link", { rel, href, type, ...extra });

/** What every feed starts with: identity, title, date, the catalog as author, and the links to the root and to search. */
function feedHead(site: CatalogSite, id: string, title: string, updated: Date): XmlChild[] {
  return [
    el("id", {}, id),
    el("title", {}, title),
    el("updated", {}, updated.toISOString()),
    el("author", {}, el("name", {}, site.productName), el("uri", {}, `${site.origin}/`)),
    link("start", `${site.origin}${opdsPaths.root}`, NAVIGATION_TYPE),
    link("search", `${site.origin}${opdsPaths.openSearch}`, OPENSEARCH_TYPE),
  ];
}

interface NavigationEntry {
  title: string;
  content: string;
  href: string;
  rel: string;
  type: string;
}

function navigationFeed(site: CatalogSite, path: string, title: string, entries: NavigationEntry[], at: Date, up?: string): string {
  return xmlDocument(
    el(
      "feed",
      ATOM_NAMESPACES,
      feedHead(site, `${site.origin}${path}`, title, at),
      link("self", `${site.origin}${path}`, NAVIGATION_TYPE),
      up !== undefined && link("up", `${site.origin}${up}`, NAVIGATION_TYPE),
      entries.map((entry) =>
        el(
          "entry",
          {},
          el("title", {}, entry.title),
          el("id", {}, `${site.origin}${entry.href}`),
          el("updated", {}, at.toISOString()),
          el("content", { type: "text" }, entry.content),
          link(entry.rel, `${site.origin}${entry.href}`, entry.type),
        ),
      ),
    ),
  );
}

/** The catalog's front door: new, popular, by genre, by language; search from every feed's search link. */
export function rootFeed(site: CatalogSite, at: Date): string {
  return navigationFeed(
    site,
    opdsPaths.root,
    site.productName,
    [
      { title: "New books", content: "The books published most recently.", href: opdsPaths.newest, rel: "http://opds-spec.org/sort/new", type: ACQUISITION_TYPE },
      { title: "Popular books", content: "The most downloaded books.", href: opdsPaths.popular, rel: "http://opds-spec.org/sort/popular", type: ACQUISITION_TYPE },
      { title: "By genre", content: "Books by genre, newest first.", href: opdsPaths.genres, rel: "subsection", type: NAVIGATION_TYPE },
      { title: "By language", content: "Books by the language they are written in, newest first.", href: opdsPaths.languages, rel: "subsection", type: NAVIGATION_TYPE },
      // The reader's own feed (docs/product.md#follows): an app asks for the e-reader key when it opens it.
      { title: "New from authors you follow", content: "New books of the authors you follow and new editions, with your e-reader key.", href: opdsPaths.following, rel: "subsection", type: ACQUISITION_TYPE },
      { title: "By tag", content: "The most used tags, each a feed of its books, newest first.", href: opdsPaths.tags, rel: "subsection", type: NAVIGATION_TYPE },
    ],
    at,
  );
}

export function genresFeed(site: CatalogSite, at: Date): string {
  const entries = GENRE_KEYS.map((genre) => ({
    title: genreLabel(genre),
    content: `${genreLabel(genre)} books, newest first.`,
    href: opdsPaths.genre(genre),
    rel: "subsection",
    type: ACQUISITION_TYPE,
  }));
  return navigationFeed(site, opdsPaths.genres, `${site.productName}: by genre`, entries, at, opdsPaths.root);
}

export function languagesFeed(site: CatalogSite, at: Date): string {
  const entries = BOOK_LANGUAGES.map((language) => ({
    title: LANGUAGE_NAMES[language],
    content: `Books written in ${LANGUAGE_NAMES[language]}, newest first.`,
    href: opdsPaths.language(language),
    rel: "subsection",
    type: ACQUISITION_TYPE,
  }));
  return navigationFeed(site, opdsPaths.languages, `${site.productName}: by language`, entries, at, opdsPaths.root);
}

/** The cover at its widest and narrowest stored widths; a cover Plume cannot type (none is stored so) is left out. */
function coverLinks(site: CatalogSite, coverUrl: string | null): XmlChild[] {
  const coverType = coverUrl ? coverTypeOfExtension(extensionOf(coverUrl)) : undefined;
  if (!coverUrl || !coverType) return [];
  const variants = coverVariants(coverUrl);
  const absolute = (url: string) => (url.startsWith("/") ? `${site.origin}${url}` : url);
  return [
    link("http://opds-spec.org/image", absolute(variants.at(-1)!.url), COVER_MIME_TYPES[coverType]),
    link("http://opds-spec.org/image/thumbnail", absolute(variants[0]!.url), COVER_MIME_TYPES[coverType]),
  ];
}

/** An edition of a book as its entry offers it (docs/product.md#editions). */
export interface EntryEdition {
  number: number;
  createdAt: Date;
  mimeType: string;
  fileSize: number;
}

/**
 * What an entry says beside its card: its tags, its series and volume (docs/product.md#series-and-tags),
 * and, for a book with more than one, its editions, newest (the current one) first.
 */
export interface EntryExtras {
  tags: Array<{ slug: string; name: string }>;
  series?: { id: number; title: string; volume: number };
  editions?: EntryEdition[];
}

/** How an acquisition link names the edition it takes, for apps that list a book's links by title. */
const editionTitle = (edition: EntryEdition) => `Edition ${edition.number} (${edition.createdAt.toISOString().slice(0, 10)})`;

/** The most used tags (of books anyone may see), each an acquisition feed. */
export function tagsFeed(site: CatalogSite, tags: Array<{ slug: string; name: string; books: number }>, at: Date): string {
  const entries = tags.map((tag) => ({
    title: tag.name,
    content: `${tag.books} ${tag.books === 1 ? "book" : "books"} tagged “${tag.name}”, newest first.`,
    href: opdsPaths.tag(tag.slug),
    rel: "subsection",
    type: ACQUISITION_TYPE,
  }));
  return navigationFeed(site, opdsPaths.tags, `${site.productName}: by tag`, entries, at, opdsPaths.root);
}

export function bookEntry(site: CatalogSite, book: BookCardRow, extras?: EntryExtras): XmlElement {
  const genre = GENRE_KEYS.find((key) => key === book.genre);
  const [current, ...older] = extras?.editions ?? [];
  return el(
    "entry",
    {},
    el("title", {}, book.title),
    // The id alone finds the book whatever its title becomes: a stable identity for e-reader apps.
    el("id", {}, `${site.origin}/books/${book.id}`),
    el("author", {}, el("name", {}, authorDisplayName(book) ?? englishMessage("book.anonymousAuthor")), el("uri", {}, `${site.origin}${authorPath({ id: book.authorId })}`)),
    el("updated", {}, book.updatedAt.toISOString()),
    el("published", {}, book.createdAt.toISOString()),
    el("dc:language", {}, book.language),
    el("dc:issued", {}, book.createdAt.toISOString().slice(0, 10)),
    genre && el("category", { scheme: `${site.origin}${opdsPaths.genres}`, term: genre, label: genreLabel(genre) }),
    // E-reader apps list an entry's categories by label (KOReader, Thorium): a rating but General shows beside
    // the genre, as the site's badge does (docs/decisions/0092).
    book.contentRating !== "general" &&
      el("category", { scheme: CONTENT_RATING_SCHEME, term: book.contentRating, label: englishMessage(`contentRating.label.${book.contentRating}`) }),
    (extras?.tags ?? []).map((tag) => el("category", { scheme: `${site.origin}${opdsPaths.tags}`, term: tag.slug, label: tag.name })),
    book.description !== null && el("summary", { type: "text" }, book.description),
    coverLinks(site, book.coverImageUrl),
    // The feed of its series, in volume order: apps list it among the entry's links.
    extras?.series &&
      link("related", `${site.origin}${opdsPaths.series(extras.series.id)}`, ACQUISITION_TYPE, { title: `${extras.series.title}, volume ${formatVolume(extras.series.volume)}` }),
    link("alternate", `${site.origin}${bookPath(book)}`, "text/html", { title: "The book's page" }),
    // One link per file, the EPUB Plume made of a Word book first: apps that take the first one get the file made for them.
    epubFirst(formatsOf(book)).map((format) =>
      link("http://opds-spec.org/acquisition", `${site.origin}${opdsPaths.bookFile(book.id, format.file === "epub" ? "epub" : undefined)}`, format.mimeType, {
        length: format.size,
        title: current && `${editionTitle(current)}, current`,
      }),
    ),
    // Then each older edition's own file, newest first, as the book page lists them.
    older.map((edition) =>
      link("http://opds-spec.org/acquisition", `${site.origin}${opdsPaths.editionFile(book.id, edition.number)}`, edition.mimeType, {
        length: edition.fileSize,
        title: editionTitle(edition),
      }),
    ),
  );
}

/** Where an acquisition feed sits and which of its pages this is. */
export interface AcquisitionPage {
  /** The feed's address, without paging. */
  path: string;
  title: string;
  /** The navigation feed above it. */
  up: string;
  /** Query parameters of the feed itself (a search's terms), kept in every paging link. */
  params?: Record<string, string>;
  page: number;
  size: number;
  defaultSize: number;
  books: BookCardRow[];
  hasNext: boolean;
  /** Each book's tags and series, by its id. */
  extras?: ReadonlyMap<number, EntryExtras>;
}

function pageHref(site: CatalogSite, feed: AcquisitionPage, page: number): string {
  const query = new URLSearchParams(feed.params);
  if (page > 1) query.set("page", String(page));
  if (feed.size !== feed.defaultSize) query.set("size", String(feed.size));
  const search = query.toString();
  return `${site.origin}${feed.path}${search ? `?${search}` : ""}`;
}

/** A page of books, with the links an e-reader app pages by: first, previous, next. */
export function acquisitionFeed(site: CatalogSite, feed: AcquisitionPage, at: Date): string {
  const updated = feed.books.reduce((latest, book) => (book.updatedAt > latest ? book.updatedAt : latest), new Date(0));
  return xmlDocument(
    el(
      "feed",
      ATOM_NAMESPACES,
      feedHead(site, pageHref(site, { ...feed, size: feed.defaultSize }, 1), feed.title, feed.books.length > 0 ? updated : at),
      link("self", pageHref(site, feed, feed.page), ACQUISITION_TYPE),
      link("up", `${site.origin}${feed.up}`, NAVIGATION_TYPE),
      link("first", pageHref(site, feed, 1), ACQUISITION_TYPE),
      feed.page > 1 && link("previous", pageHref(site, feed, feed.page - 1), ACQUISITION_TYPE),
      feed.hasNext && link("next", pageHref(site, feed, feed.page + 1), ACQUISITION_TYPE),
      feed.books.map((book) => bookEntry(site, book, feed.extras?.get(book.id))),
    ),
  );
}

/** The OpenSearch 1.1 description e-reader apps read to search the catalog. */
export function openSearchDescription(site: CatalogSite): string {
  return xmlDocument(
    el(
      "OpenSearchDescription",
      { xmlns: "http://a9.com/-/spec/opensearch/1.1/" },
      el("ShortName", {}, site.productName.slice(0, 16)),
      el("Description", {}, `Search the free books of ${site.productName} by title, author or description.`),
      el("InputEncoding", {}, "UTF-8"),
      el("OutputEncoding", {}, "UTF-8"),
      // The terms alone: some apps send an optional parameter's braces as they are. Results page by their next links.
      el("Url", { type: ACQUISITION_TYPE, template: `${site.origin}${opdsPaths.search}?q={searchTerms}` }),
    ),
  );
}
