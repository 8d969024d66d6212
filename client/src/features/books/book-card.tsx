import { bookPath } from "@shared/book-urls";
import type { BookCard as Book } from "@shared/books";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { BookCover } from "@/features/books/book-cover";
import { ContentRatingBadge } from "@/features/books/content-rating-badge";
import { DownloadButton } from "@/features/books/download-button";
import { ShelfControl } from "@/features/books/shelf-control";
import { RatingSummary, StarRating } from "@/features/books/star-rating";
import { DownloadIcon } from "@/ui/icons";
import { useAuth } from "@/features/accounts";
import { useNumberFormat } from "@/lib/use-number-format";

export type BookCardVariant = "full" | "compact";

/**
 * Every card sits beside its cover, so that a screen shows many books with their titles and buttons
 * (docs/decisions/0046); a full card adds the genre and the start of the description.
 */
const LAYOUT: Record<BookCardVariant, { card: string; cover: string; coverSizes: string; initial: string; body: string; title: string }> = {
  full: {
    card: "gap-4 p-3 sm:p-4",
    cover: "w-24 shrink-0 self-start rounded-md shadow-sm",
    coverSizes: "6rem",
    initial: "text-4xl",
    body: "gap-2",
    title: "text-lg",
  },
  compact: {
    card: "gap-4 p-3",
    cover: "w-20 shrink-0 self-start rounded-md shadow-sm sm:w-24",
    coverSizes: "6rem",
    initial: "text-4xl",
    body: "gap-2",
    title: "text-lg",
  },
};

interface BookCardProps {
  book: Book;
  variant: BookCardVariant;
  /** The heading level that fits the page's outline (h2 under the page title, h3 under a section). */
  headingLevel?: 2 | 3;
  /** Shown when the page opens, so its cover is not lazy-loaded. */
  isAboveFold?: boolean;
}

/** The book's genre (full cards), content rating (but General), language and downloads, on one line. */
function BookFacts({ book, withGenre }: { book: Book; withGenre: boolean }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-ink-muted">
      {withGenre && book.genre && (
        <span>
          <span className="sr-only">{t("book.genreLabel")} </span>
          <span className="inline-block rounded-full bg-accent-soft px-2.5 py-0.5 text-xs font-semibold text-accent-strong">
            {t(`genres.${book.genre}`)}
          </span>
        </span>
      )}
      <ContentRatingBadge rating={book.contentRating} />
      <span>
        <span className="sr-only">{t("book.languageLabel")} </span>
        <span lang={book.language}>{t(`languages.${book.language}`)}</span>
      </span>
      <span aria-hidden="true">·</span>
      <span className="inline-flex items-center gap-1" title={t("book.downloadsLabel")}>
        <DownloadIcon className="size-3.5" />
        <span className="sr-only">{t("book.downloadsLabel")} </span>
        {format.count(book.downloadCount)}
      </span>
    </p>
  );
}

/** A book in a list: cover, title (a link to the book's page), author, the rating (its average for everyone, with stars to give for signed-in readers), facts, the download button and the signed-in reader's shelf. */
export function BookCard({ book, variant, headingLevel = 3, isAboveFold = false }: BookCardProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const titleId = useId();
  const Heading = `h${headingLevel}` as const;
  const isFull = variant === "full";
  const layout = LAYOUT[variant];
  const author = book.author.displayName ?? t("book.anonymousAuthor");

  return (
    <article
      data-testid="book-card"
      data-book-id={book.id}
      aria-labelledby={titleId}
      className={`flex h-full overflow-hidden rounded-xl border border-line bg-surface shadow-sm ${layout.card}`}
    >
      <BookCover book={book} className={layout.cover} sizes={layout.coverSizes} initialClassName={layout.initial} isAboveFold={isAboveFold} />
      <div className={`flex min-w-0 flex-1 flex-col ${layout.body}`}>
        <div>
          <Heading
            id={titleId}
            lang={book.language}
            className={`line-clamp-2 leading-snug font-semibold break-words ${layout.title}`}
          >
            <Link href={bookPath(book)} data-testid="book-link" className="rounded-sm hover:text-accent hover:underline hover:underline-offset-2">
              {book.title}
            </Link>
          </Heading>
          <p className="mt-1 truncate text-sm text-ink-muted">{t("book.byAuthor", { author })}</p>
        </div>
        {isFull && book.description && (
          <p lang={book.language} className="line-clamp-2 text-sm leading-relaxed text-ink-muted">
            {book.description}
          </p>
        )}
        {user ? <StarRating book={book} userId={user.id} /> : <RatingSummary book={book} />}
        <BookFacts book={book} withGenre={isFull} />
        <div className="mt-auto flex max-w-xs flex-col gap-2 pt-1">
          <DownloadButton book={book} />
          {/* The reader's shelf, from their one map of shelved books (docs/product.md#shelves); none for a visitor. */}
          {user && <ShelfControl book={book} />}
        </div>
      </div>
    </article>
  );
}

/** The shape of a card while its book loads, so the page does not jump when it arrives. */
export function BookCardSkeleton({ variant }: { variant: BookCardVariant }) {
  const layout = LAYOUT[variant];
  const bar = "rounded bg-line/70";
  return (
    <div
      aria-hidden="true"
      data-testid="book-card-skeleton"
      className={`flex h-full animate-pulse overflow-hidden rounded-xl border border-line bg-surface motion-reduce:animate-none ${layout.card}`}
    >
      <div className={`aspect-[2/3] bg-line/70 ${layout.cover}`} />
      <div className={`flex flex-1 flex-col ${layout.body}`}>
        <div className={`h-5 w-4/5 ${bar}`} />
        <div className={`h-4 w-1/2 ${bar}`} />
        {variant === "full" && <div className={`h-12 w-full ${bar}`} />}
        <div className={`mt-auto h-10 w-full ${bar}`} />
      </div>
    </div>
  );
}
