import { authorPath, bookPath, bookReaderPath } from "../../shared/book-urls.ts";
import type { BookCard } from "../../shared/books.ts";
import { COVER_HEIGHT_RATIO, coverVariants, WIDEST_COVER_WIDTH } from "../../shared/covers.ts";
import type { InfoPage } from "../../shared/info-pages.ts";
import { INTERFACE_LANGUAGES, type InterfaceLanguage } from "../../shared/languages.ts";
import { ALL_TEXTS } from "../../shared/locales/all-texts.ts";
import { type PublicReader, readerPath } from "../../shared/shelves.ts";
import { BOOK_PAGE_COVER_SIZES, LANGUAGE_PARAM, shortDescription, type AuthorProfile } from "../../shared/page-meta.ts";
import { type SeriesPage, seriesPath } from "../../shared/series-and-tags.ts";

/**
 * The head of a book's or an author's page as the server sends it, before any script runs
 * (docs/product.md#book-pages, docs/decisions/0028): title, description, canonical address, language
 * alternates, Open Graph, Twitter card and schema.org JSON-LD. Pure: everything comes in the arguments.
 * Every value is escaped for where it goes, so a title such as `</script><script>…` stays text.
 */

/** Where the page is shown: the site's origin and the language of the interface around it. */
export interface PageContext {
  /** "https://plume.example", no trailing slash. */
  origin: string;
  language: InterfaceLanguage;
  /** The address named the language (`?lang=es`): the canonical address then keeps it. */
  languageAddressed: boolean;
}

/** A book as its page shows it, with the media type of its file. */
export type BookPageBook = BookCard & { mimeType: string };

/** A review as the book page's structured data names it (docs/product.md#reviews). */
export interface StructuredReview {
  author: string;
  rating: number;
  body: string;
  createdAt: string;
}

const OG_LOCALES: Record<InterfaceLanguage, string> = { en: "en_US", es: "es_ES", fr: "fr_FR" };

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Safe in element text and in a double- or single-quoted attribute. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);

/**
 * JSON inside <script type="application/ld+json">: the HTML parser ends the element at the first
 * `</script` whatever the JSON means, so `<` (and `>`, `&` for good measure) go as \u escapes, which
 * JSON reads back as the same characters.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

type Texts = (typeof ALL_TEXTS)[InterfaceLanguage];

const textsOf = (language: InterfaceLanguage): Texts => ALL_TEXTS[language];

/** `{{name}}` placeholders filled in, as i18next does with escaping off (the caller escapes for HTML). */
const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);

const documentTitle = (texts: Texts, page: string) => fill(texts.app.documentTitle, { page });

/** The page's address in a language, or without one (x-default: the reader's own language decides). */
function addressIn(origin: string, path: string, language: InterfaceLanguage | undefined): string {
  return language ? `${origin}${path}?${LANGUAGE_PARAM}=${language}` : `${origin}${path}`;
}

const meta = (attribute: "name" | "property", key: string, content: string) =>
  `<meta ${attribute}="${key}" content="${escapeHtml(content)}">`;

const link = (rel: string, href: string, extra = "") => `<link rel="${rel}" href="${escapeHtml(href)}"${extra}>`;

interface CommonHead {
  path: string;
  title: string;
  description: string;
  ogType: "book" | "profile" | "website";
  image?: { url: string; alt: string };
  /** og:book:* or og:profile:* properties, in order. */
  typeProperties: Array<[string, string]>;
  /** Tags that start fetching what the page shows first. */
  preloads?: string[];
  /** The page's Atom feed, announced so a feed reader given the page's address finds it. */
  feed?: { title: string; href: string };
  jsonLd: object;
}

function renderHead(context: PageContext, texts: Texts, head: CommonHead): string {
  const { origin, language, languageAddressed } = context;
  const canonical = addressIn(origin, head.path, languageAddressed ? language : undefined);
  const lines = [
    `<title>${escapeHtml(head.title)}</title>`,
    meta("name", "description", head.description),
    link("canonical", canonical),
    ...INTERFACE_LANGUAGES.map((alternate) => link("alternate", addressIn(origin, head.path, alternate), ` hreflang="${alternate}"`)),
    link("alternate", addressIn(origin, head.path, undefined), ' hreflang="x-default"'),
    ...(head.feed ? [link("alternate", head.feed.href, ` type="application/atom+xml" title="${escapeHtml(head.feed.title)}"`)] : []),
    meta("property", "og:site_name", texts.app.name),
    meta("property", "og:type", head.ogType),
    meta("property", "og:title", head.title),
    meta("property", "og:description", head.description),
    meta("property", "og:url", canonical),
    meta("property", "og:locale", OG_LOCALES[language]),
    ...INTERFACE_LANGUAGES.filter((other) => other !== language).map((other) => meta("property", "og:locale:alternate", OG_LOCALES[other])),
    ...head.typeProperties.map(([property, content]) => meta("property", property, content)),
  ];
  if (head.image) {
    lines.push(meta("property", "og:image", head.image.url));
    // The stored widest WebP has a known size; a cover kept from before the sizes existed does not.
    if (head.image.url.endsWith(`-${WIDEST_COVER_WIDTH}.webp`)) {
      lines.push(
        meta("property", "og:image:type", "image/webp"),
        meta("property", "og:image:width", String(WIDEST_COVER_WIDTH)),
        meta("property", "og:image:height", String(WIDEST_COVER_WIDTH * COVER_HEIGHT_RATIO)),
      );
    }
    lines.push(meta("property", "og:image:alt", head.image.alt));
  }
  lines.push(
    meta("name", "twitter:card", head.image ? "summary_large_image" : "summary"),
    meta("name", "twitter:title", head.title),
    meta("name", "twitter:description", head.description),
  );
  if (head.image) lines.push(meta("name", "twitter:image", head.image.url), meta("name", "twitter:image:alt", head.image.alt));
  lines.push(`<script type="application/ld+json">${jsonForScript(head.jsonLd)}</script>`, ...(head.preloads ?? []));
  return lines.join("\n    ");
}

const authorNameOf = (texts: Texts, author: { displayName: string | null }) => author.displayName ?? texts.book.anonymousAuthor;

/** The meta description of a book: its own description, else a sentence naming it and its author. */
export function bookDescription(texts: Texts, book: Pick<BookCard, "title" | "description" | "author">): string {
  const own = book.description?.trim();
  return shortDescription(own || fill(texts.bookPage.metaDescription, { title: book.title, author: authorNameOf(texts, book.author) }));
}

/** The meta description of an author's page. */
export function authorDescription(texts: Texts, profile: AuthorProfile): string {
  return shortDescription(fill(texts.authorPage.metaDescription, { author: authorNameOf(texts, profile.author), count: String(profile.books.length) }));
}

const dateOnly = (iso: string) => iso.slice(0, 10);

export function renderBookHead(book: BookPageBook, context: PageContext, reviews: readonly StructuredReview[] = []): string {
  const texts = textsOf(context.language);
  const { origin } = context;
  const url = `${origin}${bookPath(book)}`;
  const author = { name: authorNameOf(texts, book.author), url: `${origin}${authorPath(book.author)}` };
  const image = book.coverImageUrl ? `${origin}${book.coverImageUrl}` : undefined;
  const description = bookDescription(texts, book);
  const genre = book.genre ? texts.genres[book.genre] : undefined;
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "Book",
    "@id": url,
    url,
    name: book.title,
    author: { "@type": "Person", name: author.name, url: author.url },
    inLanguage: book.language,
    // The author's rating, as schema.org names it (docs/product.md#content-ratings).
    contentRating: texts.contentRating.label[book.contentRating],
    ...(genre ? { genre } : {}),
    ...(image ? { image } : {}),
    datePublished: dateOnly(book.createdAt),
    ...(book.description?.trim() ? { description: book.description.trim() } : {}),
    ...(book.pageCount ? { numberOfPages: book.pageCount } : {}),
    bookFormat: "https://schema.org/EBook",
    encodingFormat: book.mimeType,
    isAccessibleForFree: true,
    ...(book.reviewCount > 0
      ? { aggregateRating: { "@type": "AggregateRating", ratingValue: book.rating, ratingCount: book.reviewCount, bestRating: 5, worstRating: 1 } }
      : {}),
    ...(reviews.length > 0
      ? {
          review: reviews.map((review) => ({
            "@type": "Review",
            author: { "@type": "Person", name: review.author },
            reviewRating: { "@type": "Rating", ratingValue: review.rating, bestRating: 5, worstRating: 1 },
            reviewBody: review.body,
            datePublished: dateOnly(review.createdAt),
          })),
        }
      : {}),
    interactionStatistic: {
      "@type": "InteractionCounter",
      interactionType: "https://schema.org/DownloadAction",
      userInteractionCount: book.downloadCount,
    },
    potentialAction: [
      { "@type": "ReadAction", target: `${origin}${bookReaderPath(book)}` },
      // The download itself is a signed-in POST; its entry point for people is the page's button.
      { "@type": "DownloadAction", target: url },
    ],
  };
  return renderHead(context, texts, {
    path: bookPath(book),
    title: documentTitle(texts, book.title),
    description,
    ogType: "book",
    image: image ? { url: image, alt: fill(texts.book.coverAlt, { title: book.title }) } : undefined,
    typeProperties: [
      ["book:author", author.url],
      ["book:release_date", dateOnly(book.createdAt)],
      ...(genre ? ([["book:tag", genre]] as Array<[string, string]>) : []),
    ],
    jsonLd,
    preloads: book.coverImageUrl ? [coverPreload(book.coverImageUrl)] : [],
  });
}

/**
 * The book page's cover is its largest paint: fetched from the HTML at the width the page will show
 * it, rather than once the scripts have drawn the page.
 */
function coverPreload(coverUrl: string): string {
  const srcset = coverVariants(coverUrl)
    .map((variant) => `${variant.url} ${variant.width}w`)
    .join(", ");
  return `<link rel="preload" as="image" href="${escapeHtml(coverUrl)}" imagesrcset="${escapeHtml(srcset)}" imagesizes="${BOOK_PAGE_COVER_SIZES}" fetchpriority="high">`;
}

export function renderAuthorHead(profile: AuthorProfile, context: PageContext): string {
  const texts = textsOf(context.language);
  const { origin } = context;
  const path = authorPath(profile.author);
  const url = `${origin}${path}`;
  const name = authorNameOf(texts, profile.author);
  // The first of the author's covers stands for them in a link preview.
  const coverBook = profile.books.find((book) => book.coverImageUrl);
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "ProfilePage",
    "@id": url,
    url,
    dateCreated: profile.memberSince,
    mainEntity: {
      "@type": "Person",
      "@id": `${url}#person`,
      name,
      url,
      interactionStatistic: {
        "@type": "InteractionCounter",
        interactionType: "https://schema.org/DownloadAction",
        userInteractionCount: profile.totalDownloads,
      },
    },
    hasPart: profile.books.map((book) => ({ "@type": "Book", name: book.title, url: `${origin}${bookPath(book)}`, inLanguage: book.language })),
  };
  const { firstName, lastName } = profile.author;
  return renderHead(context, texts, {
    path,
    title: documentTitle(texts, name),
    description: authorDescription(texts, profile),
    ogType: "profile",
    feed: { title: fill(texts.authorPage.feedTitle, { author: name }), href: `${origin}/authors/${profile.author.id}/feed.xml` },
    image: coverBook?.coverImageUrl ? { url: `${origin}${coverBook.coverImageUrl}`, alt: fill(texts.book.coverAlt, { title: coverBook.title }) } : undefined,
    typeProperties: [
      ...(firstName ? ([["profile:first_name", firstName]] as Array<[string, string]>) : []),
      ...(lastName ? ([["profile:last_name", lastName]] as Array<[string, string]>) : []),
    ],
    jsonLd,
  });
}

/**
 * The head of a reader's public shelves (docs/product.md#shelves): their username, their shelves'
 * counts, and the first cover on them for a link preview; nothing else of the account.
 */
export function renderReaderHead(reader: PublicReader, context: PageContext): string {
  const texts = textsOf(context.language);
  const { origin } = context;
  const path = readerPath(reader.username);
  const url = `${origin}${path}`;
  const { want, reading, read } = reader.shelves;
  const coverBook = [...reading.books, ...read.books, ...want.books].find((book) => book.coverImageUrl);
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "ProfilePage",
    "@id": url,
    url,
    mainEntity: { "@type": "Person", "@id": `${url}#person`, alternateName: reader.username, url },
  };
  return renderHead(context, texts, {
    path,
    title: documentTitle(texts, fill(texts.readerPage.title, { username: reader.username })),
    description: shortDescription(
      fill(texts.readerPage.metaDescription, { username: reader.username, want: String(want.total), reading: String(reading.total), read: String(read.total) }),
    ),
    ogType: "profile",
    image: coverBook?.coverImageUrl ? { url: `${origin}${coverBook.coverImageUrl}`, alt: fill(texts.book.coverAlt, { title: coverBook.title }) } : undefined,
    typeProperties: [["profile:username", reader.username]],
    jsonLd,
  });
}

/** The head of a page that explains Plume (shared/info-pages.ts): its title, its description, its languages. */
export function renderInfoPageHead(page: InfoPage, context: PageContext): string {
  const texts = textsOf(context.language);
  const { title, description } = texts.infoPages[page.key];
  const url = `${context.origin}${page.path}`;
  return renderHead(context, texts, {
    path: page.path,
    title: documentTitle(texts, title),
    description: shortDescription(description),
    ogType: "website",
    typeProperties: [],
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "WebPage",
      "@id": url,
      url,
      name: title,
      description,
      inLanguage: context.language,
      isPartOf: { "@type": "WebSite", name: texts.app.name, url: `${context.origin}/` },
    },
  });
}

/**
 * The head of an explicit book's page, the same for everyone (the head is made before anyone is known):
 * nothing of the book (its title, cover or description may be explicit), no structured data, no indexing.
 * The app shows the book, or its notice, once it knows who reads (docs/decisions/0092).
 */
export function renderExplicitBookHead(language: InterfaceLanguage): string {
  const texts = textsOf(language);
  return [
    `<title>${escapeHtml(documentTitle(texts, texts.contentRating.gate.metaTitle))}</title>`,
    meta("name", "description", texts.contentRating.gate.description),
    meta("name", "robots", "noindex"),
    meta("name", "rating", "adult"),
  ].join("\n    ");
}

/** The head of the 404 page: the not-found screen's words, and no indexing. */
export function renderNotFoundHead(language: InterfaceLanguage): string {
  const texts = textsOf(language);
  return [
    `<title>${escapeHtml(documentTitle(texts, texts.notFound.title))}</title>`,
    meta("name", "description", texts.notFound.description),
    meta("name", "robots", "noindex"),
  ].join("\n    ");
}

/** The head of a series' page (docs/product.md#series-and-tags): its books as schema.org's BookSeries, each at its volume. */
export function renderSeriesHead(page: SeriesPage, context: PageContext): string {
  const texts = textsOf(context.language);
  const { origin } = context;
  const path = seriesPath(page.id);
  const url = `${origin}${path}`;
  const author = authorNameOf(texts, page.author);
  const description = shortDescription(
    page.description.trim() || fill(texts.seriesPage.metaDescription, { title: page.title, author, count: String(page.volumes.length) }),
  );
  const coverBook = page.volumes.find((volume) => volume.book.coverImageUrl)?.book;
  return renderHead(context, texts, {
    path,
    title: documentTitle(texts, page.title),
    description,
    ogType: "website",
    image: coverBook?.coverImageUrl ? { url: `${origin}${coverBook.coverImageUrl}`, alt: fill(texts.book.coverAlt, { title: coverBook.title }) } : undefined,
    typeProperties: [],
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "BookSeries",
      "@id": url,
      url,
      name: page.title,
      description,
      author: { "@type": "Person", name: author, url: `${origin}${authorPath(page.author)}` },
      hasPart: page.volumes.map(({ volume, book }) => ({ "@type": "Book", name: book.title, url: `${origin}${bookPath(book)}`, position: volume, inLanguage: book.language })),
    },
  });
}
