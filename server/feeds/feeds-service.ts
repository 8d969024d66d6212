import { authorPath, bookPath } from "../../shared/book-urls.ts";
import { COVER_HEIGHT_RATIO, coverVariants } from "../../shared/covers.ts";
import { ALL_TEXTS } from "../../shared/locales/all-texts.ts";
import { findPublicAccount } from "../accounts/accounts-service.ts";
import type { BookCardRow } from "../books/books-repository.ts";
import { COVER_MIME_TYPES, coverTypeOfExtension, extensionOf } from "../books/file-types.ts";
import { authorDisplayName } from "../books/present-book.ts";
import { readNewestBooks } from "../catalog/listings-service.ts";
import type { Queryable } from "../db/client.ts";
import { notFound } from "../http/errors.ts";
import { englishMessage } from "../http/messages.ts";
import type { AtomEntry, AtomFeed } from "./atom.ts";
import { el } from "../http/xml.ts";

/** How many books a feed lists, newest first (docs/product.md#feeds-and-crawling). */
export const FEED_SIZE = 50;

const MEDIA_NAMESPACE = "http://search.yahoo.com/mrss/";
/** The cover width feed readers show beside an entry: the middle one, sharp on a phone without the widest's weight. */
const THUMBNAIL_WIDTH = 400;

/** Feeds are read by programs, not by a browser with a chosen language: their texts are English. */
const TEXTS = ALL_TEXTS.en.feeds;
const fill = (template: string, values: Record<string, string>) => template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_match, name: string) => values[name] ?? "");
const nameOrAnonymous = (displayName: string | null) => displayName ?? englishMessage("book.anonymousAuthor");

export interface FeedContext {
  /** Where absolute links start (server/http/site-origin.ts). */
  origin: string;
  productName: string;
}

function coverLinks(origin: string, coverImageUrl: string | null): Pick<AtomEntry, "links" | "extensions"> {
  if (!coverImageUrl) return { links: [], extensions: [] };
  const type = coverTypeOfExtension(extensionOf(coverImageUrl));
  const variants = coverVariants(coverImageUrl);
  const thumbnail = variants.find(({ width }) => width === THUMBNAIL_WIDTH) ?? variants.at(-1)!;
  return {
    links: [{ rel: "enclosure", href: `${origin}${coverImageUrl}`, type: type && COVER_MIME_TYPES[type] }],
    extensions: [el("media:thumbnail", { url: `${origin}${thumbnail.url}`, width: thumbnail.width, height: thumbnail.width * COVER_HEIGHT_RATIO })],
  };
}

export function bookEntry({ origin }: FeedContext, book: BookCardRow): AtomEntry {
  const cover = coverLinks(origin, book.coverImageUrl);
  return {
    // The address without the slug: it stays the same when the title changes.
    id: `${origin}/books/${book.id}`,
    title: book.title,
    updated: book.updatedAt,
    published: book.createdAt,
    language: book.language,
    authors: [{ name: nameOrAnonymous(authorDisplayName(book)), uri: `${origin}${authorPath({ id: book.authorId })}` }],
    summary: book.description ?? undefined,
    categories: book.genre ? [{ term: book.genre, label: englishMessage(`genres.${book.genre}`) }] : [],
    links: [{ rel: "alternate", type: "text/html", href: `${origin}${bookPath(book)}` }, ...cover.links],
    extensions: cover.extensions,
  };
}

/** The feed's last change: its newest entry's, else `otherwise`. */
const lastUpdate = (entries: AtomEntry[], otherwise: Date) =>
  entries.reduce((latest, { updated }) => (updated > latest ? updated : latest), entries.length > 0 ? new Date(0) : otherwise);

/** The newest published books of the whole platform. */
export async function newBooksFeed(db: Queryable, context: FeedContext): Promise<AtomFeed> {
  const { origin, productName } = context;
  const entries = (await readNewestBooks(db, FEED_SIZE)).map((book) => bookEntry(context, book));
  const self = `${origin}/feed.xml`;
  return {
    id: self,
    title: fill(TEXTS.newBooksTitle, { product: productName }),
    subtitle: fill(TEXTS.newBooksSubtitle, { product: productName }),
    // An empty platform has never changed its feed: the epoch says so and keeps the answer the same each time.
    updated: lastUpdate(entries, new Date(0)),
    authors: [{ name: productName, uri: `${origin}/` }],
    links: [
      { rel: "self", type: "application/atom+xml", href: self },
      { rel: "alternate", type: "text/html", href: `${origin}/catalog` },
    ],
    icon: `${origin}/favicon.svg`,
    namespaces: { media: MEDIA_NAMESPACE },
    entries,
  };
}

/**
 * The newest published books of one author. An account without a published book has no feed, as it
 * has no author page (docs/product.md#book-pages): a reader's name is not made public, and the 404
 * is the same as for no account at all.
 */
export async function authorFeed(db: Queryable, context: FeedContext, authorId: string): Promise<AtomFeed> {
  const { origin, productName } = context;
  const author = await findPublicAccount(db, authorId);
  const entries = author ? (await readNewestBooks(db, FEED_SIZE, authorId)).map((book) => bookEntry(context, book)) : [];
  if (!author || entries.length === 0) throw notFound("This author does not exist.");
  const name = nameOrAnonymous(author.displayName);
  const page = `${origin}${authorPath(author)}`;
  const self = `${page}/feed.xml`;
  return {
    id: self,
    title: fill(TEXTS.authorTitle, { author: name, product: productName }),
    subtitle: fill(TEXTS.authorSubtitle, { author: name, product: productName }),
    updated: lastUpdate(entries, author.memberSince),
    authors: [{ name, uri: page }],
    links: [
      { rel: "self", type: "application/atom+xml", href: self },
      { rel: "alternate", type: "text/html", href: page },
    ],
    icon: `${origin}/favicon.svg`,
    namespaces: { media: MEDIA_NAMESPACE },
    entries,
  };
}
