import type { BookCard as Book } from "@shared/books";
import type { UseQueryResult } from "@tanstack/react-query";
import { memo } from "react";
import { useTranslation } from "react-i18next";
import { BookCard, BookCardSkeleton, type BookCardVariant } from "@/features/books/book-card";

interface BookGridProps {
  books: Book[];
  variant: BookCardVariant;
  /** The grid's columns at each width, e.g. "sm:grid-cols-2 lg:grid-cols-3". */
  columnsClassName: string;
  headingLevel?: 2 | 3;
}

const gridClassName = "grid grid-cols-1 gap-5";
/** The columns of full cards (the catalog, an author's books): one to three, and a lone book takes two so it does not look lost. */
export const FULL_CARD_COLUMNS = "sm:grid-cols-2 lg:grid-cols-3 sm:[&>:only-child]:col-span-2";
/** The books a wide screen likely shows at once (two rows of three): their covers are not lazy. */
const FIRST_SCREEN = 6;

/**
 * A card off screen is neither styled nor laid out until it nears the screen (content-visibility), in a
 * box of a card's usual height meanwhile: style and layout took 390 ms of a first visit to the catalog
 * on a four-times-slower phone (docs/decisions/0086). Its text stays in the page, found and focused.
 */
const gridItemClassName = "[content-visibility:auto] [contain-intrinsic-block-size:auto_16rem]";

/**
 * Drawn again only when its books change: the page around it redraws when the live region announces
 * them, and every card's redraw is a slow phone's main thread taken from the first visit (docs/decisions/0086).
 */
export const BookGrid = memo(function BookGrid({ books, variant, columnsClassName, headingLevel }: BookGridProps) {
  return (
    // Safari drops the list role of an unstyled list unless it is given back.
    <ul role="list" className={`${gridClassName} ${columnsClassName}`}>
      {books.map((book, index) => (
        <li key={book.id} className={gridItemClassName}>
          <BookCard book={book} variant={variant} headingLevel={headingLevel} isAboveFold={index < FIRST_SCREEN} />
        </li>
      ))}
    </ul>
  );
});

interface BookGridSkeletonProps {
  count: number;
  variant: BookCardVariant;
  columnsClassName: string;
}

/** Placeholder cards in the same grid while the books load; announced once as "Loading…". */
export function BookGridSkeleton({ count, variant, columnsClassName }: BookGridSkeletonProps) {
  const { t } = useTranslation();
  return (
    <div role="status" className={`${gridClassName} ${columnsClassName}`}>
      <span className="sr-only">{t("common.loading")}</span>
      {Array.from({ length: count }, (_, index) => (
        <BookCardSkeleton key={index} variant={variant} />
      ))}
    </div>
  );
}

interface BookShelfProps {
  books: UseQueryResult<Book[]>;
  /** How many books are asked for: as many placeholders show while they load. */
  count: number;
  columnsClassName: string;
  emptyText: string;
}

/** A short list of compact cards (featured, popular), with its loading, empty and failed states. */
export function BookShelf({ books, count, columnsClassName, emptyText }: BookShelfProps) {
  const { t } = useTranslation();
  if (books.isPending) return <BookGridSkeleton count={count} variant="compact" columnsClassName={columnsClassName} />;
  if (books.data?.length) return <BookGrid books={books.data} variant="compact" columnsClassName={columnsClassName} />;
  return <p className="text-ink-muted">{books.isError ? t("catalog.fetchError") : emptyText}</p>;
}
