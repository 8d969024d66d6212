import type { BookCard } from "@shared/books";
import { COVER_HEIGHT_RATIO, coverVariants, WIDEST_COVER_WIDTH } from "@shared/covers";
import { useState } from "react";
import { useTranslation } from "react-i18next";

/** Quiet tints for books without a cover, picked by id so a book keeps its colour everywhere. */
const PLACEHOLDER_TINTS = [
  "bg-accent-soft text-accent-strong",
  "bg-amber-100 text-amber-900",
  "bg-rose-100 text-rose-900",
  "bg-emerald-100 text-emerald-900",
  "bg-stone-200 text-stone-800",
  "bg-sky-100 text-sky-900",
];

function titleInitial(title: string): string {
  return (Array.from(title.trim())[0] ?? "?").toLocaleUpperCase();
}

interface BookCoverProps {
  book: Pick<BookCard, "id" | "title" | "coverImageUrl">;
  /** Size of the placeholder's initial, to suit the cover's width. */
  initialClassName: string;
  /** The cover's width (its height follows) and frame. */
  className: string;
  /** The width the cover is shown at, as an <img sizes> list, so the browser fetches the stored width nearest to it. */
  sizes: string;
  /** Likely on screen when the page opens: fetched at once, first among images (it is often the largest paint). */
  isAboveFold?: boolean;
}

/** The cover, or when there is none (or it fails to load) the title's initial on a tinted block. */
export function BookCover({ book, initialClassName, className, sizes, isAboveFold = false }: BookCoverProps) {
  const { t } = useTranslation();
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const frame = `aspect-[2/3] overflow-hidden ${className}`;

  if (book.coverImageUrl && book.coverImageUrl !== failedUrl) {
    return (
      <img
        src={book.coverImageUrl}
        srcSet={coverVariants(book.coverImageUrl)
          .map((variant) => `${variant.url} ${variant.width}w`)
          .join(", ")}
        sizes={sizes}
        alt={t("book.coverAlt", { title: book.title })}
        // The stored 2:3 box, reserved before the image arrives: nothing moves when it does.
        width={WIDEST_COVER_WIDTH}
        height={WIDEST_COVER_WIDTH * COVER_HEIGHT_RATIO}
        loading={isAboveFold ? "eager" : "lazy"}
        fetchPriority={isAboveFold ? "high" : "auto"}
        decoding="async"
        onError={() => setFailedUrl(book.coverImageUrl)}
        className={`${frame} bg-line object-cover`}
      />
    );
  }
  const tint = PLACEHOLDER_TINTS[book.id % PLACEHOLDER_TINTS.length];
  // The title is the card's heading right beside it, so the placeholder itself says nothing more.
  return (
    <div aria-hidden="true" data-testid="cover-placeholder" className={`${frame} relative flex items-center justify-center ${tint}`}>
      <span className="absolute inset-y-0 left-0 w-[7%] bg-current opacity-10" />
      <span className="absolute inset-[6%] rounded-sm border border-current opacity-20" />
      <span className={`font-serif ${initialClassName}`}>{titleInitial(book.title)}</span>
    </div>
  );
}
