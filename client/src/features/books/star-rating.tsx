import type { BookCard, BookRating } from "@shared/books";
import { useId, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { StarIcon } from "@/ui/icons";
import { textLinkClassName } from "@/ui/styles";
import { useBookRating, useRateBook, useUserRating } from "@/features/books/use-books";
import { useNumberFormat } from "@/lib/use-number-format";
import { loginPathReturningTo, useReturnPath } from "@/lib/use-return-path";

const STARS = [1, 2, 3, 4, 5] as const;

const STEP_BY_KEY: Record<string, (star: number) => number> = {
  ArrowRight: (star) => Math.min(star + 1, STARS.length),
  ArrowUp: (star) => Math.min(star + 1, STARS.length),
  ArrowLeft: (star) => Math.max(star - 1, 1),
  ArrowDown: (star) => Math.max(star - 1, 1),
  Home: () => 1,
  End: () => STARS.length,
};

interface StarRatingProps {
  book: BookCard;
  userId: string;
}

/** The average out of 5 and the number of ratings, "4.5 (12)", read out in full; "No ratings yet" before the first. */
function RatingAverage({ average }: { average: BookRating }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  return (
    <span data-testid="rating-average">
      {average.reviewCount ? (
        <>
          <span aria-hidden="true">
            <span className="font-semibold text-ink">{format.oneDecimal(average.avgRating)}</span> ({format.integer(average.reviewCount)})
          </span>
          <span className="sr-only">
            {t("book.rating.average", { average: format.oneDecimal(average.avgRating), ratings: format.integer(average.reviewCount) })}
          </span>
        </>
      ) : (
        t("book.rating.none")
      )}
    </span>
  );
}

/**
 * A book's rating as everyone sees it, within a line of text: one star, the average and the number
 * of ratings. It is not an action: only a signed-in reader gets stars to give (StarRating).
 */
export function RatingSummary({ book }: { book: BookCard }) {
  const average = useBookRating(book);
  return (
    <span className="inline-flex items-center gap-1 text-sm text-ink-muted">
      <StarIcon filled={!!average.reviewCount} className="size-4" />
      <RatingAverage average={average} />
    </span>
  );
}

/**
 * A book's rating for a visitor on the book's page: its summary, and that rating needs an account,
 * with a link to the login screen that brings them back here once signed in (left out while the session is unknown).
 */
export function VisitorRating({ book, withLoginLink }: { book: BookCard; withLoginLink: boolean }) {
  const { t } = useTranslation();
  const returnPath = useReturnPath();
  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-ink-muted">
      <RatingSummary book={book} />
      {withLoginLink && (
        <Link href={loginPathReturningTo(returnPath)} className={textLinkClassName}>
          {t("book.rating.loginToRate")}
          <span className="sr-only" lang={book.language}>{`: ${book.title}`}</span>
        </Link>
      )}
    </p>
  );
}

/**
 * Five star buttons for a signed-in reader, with the book's average and number of ratings.
 * It reads as a radio group with one tab stop; unlike a radio group the arrow keys only move the
 * focus, so a rating changes only by a choice. The reader changes it with another star, or removes
 * it (docs/product.md#reviews).
 */
export function StarRating({ book, userId }: StarRatingProps) {
  const { t } = useTranslation();
  const reasonId = useId();
  const starRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const [focusedStar, setFocusedStar] = useState(1);
  const [previewStar, setPreviewStar] = useState<number | null>(null);

  const isOwnBook = book.author.id === userId;
  const average = useBookRating(book);
  const ownRating = useUserRating(book.id, isOwnBook ? null : userId);
  const rate = useRateBook(book.id, userId);
  const userRating = ownRating.data ?? 0;

  const lockedReason = isOwnBook ? t("book.rating.ownBook") : null;
  const ratedNote = userRating > 0 ? t("book.rating.alreadyRated", { rating: userRating }) : null;
  const isDisabled = lockedReason !== null || ownRating.isPending || rate.isPending;
  const restingStars = userRating || Math.round(average.avgRating);
  const litStars = !isDisabled && previewStar !== null ? previewStar : restingStars;

  const moveFocus = (event: KeyboardEvent) => {
    const step = STEP_BY_KEY[event.key];
    if (!step) return;
    event.preventDefault();
    const next = step(focusedStar);
    setFocusedStar(next);
    starRefs.current[next - 1]?.focus();
  };

  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1" title={lockedReason ?? undefined}>
      <div
        role="radiogroup"
        aria-label={t("book.rating.groupLabel", { title: book.title })}
        aria-describedby={lockedReason || ratedNote ? reasonId : undefined}
        onKeyDown={moveFocus}
        onMouseLeave={() => setPreviewStar(null)}
        className={`-ml-1 flex ${isOwnBook ? "opacity-50" : ""}`}
      >
        {STARS.map((star) => (
          <button
            key={star}
            ref={(element) => {
              starRefs.current[star - 1] = element;
            }}
            type="button"
            role="radio"
            aria-checked={star === userRating}
            aria-label={t("book.rating.rateStar", { rating: star })}
            data-testid={`rate-${star}`}
            tabIndex={star === focusedStar ? 0 : -1}
            disabled={isDisabled}
            onClick={() => star !== userRating && rate.mutate({ rating: star, current: userRating })}
            onMouseEnter={() => setPreviewStar(star)}
            onFocus={() => {
              setFocusedStar(star);
              setPreviewStar(star);
            }}
            onBlur={() => setPreviewStar(null)}
            className="rounded p-1 transition-transform enabled:hover:scale-110 disabled:cursor-default motion-reduce:transition-none"
          >
            <StarIcon filled={star <= litStars} />
          </button>
        ))}
      </div>
      <p className="text-sm text-ink-muted">
        <RatingAverage average={average} />
      </p>
      {(lockedReason ?? ratedNote) && (
        <p id={reasonId} className="sr-only">
          {lockedReason ?? ratedNote}
        </p>
      )}
      {userRating > 0 && (
        <button
          type="button"
          data-testid="remove-rating"
          disabled={rate.isPending}
          onClick={() => window.confirm(t("book.rating.removeConfirm")) && rate.mutate({ rating: 0, current: userRating })}
          className={`text-sm ${textLinkClassName}`}
        >
          {t("book.rating.remove")}
        </button>
      )}
    </div>
  );
}
