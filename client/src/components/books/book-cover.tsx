import type { BookCard } from "@shared/books";
import { useState } from "react";
import { useTranslation } from "react-i18next";

/** Covers are stored at 600×900; the attributes reserve that 2:3 box before the image arrives. */
const COVER_WIDTH = 600;
const COVER_HEIGHT = 900;

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
}

/** The cover, or when there is none (or it fails to load) the title's initial on a tinted block. */
export function BookCover({ book, initialClassName, className }: BookCoverProps) {
  const { t } = useTranslation();
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const frame = `aspect-[2/3] overflow-hidden ${className}`;

  if (book.coverImageUrl && book.coverImageUrl !== failedUrl) {
    return (
      <img
        src={book.coverImageUrl}
        alt={t("book.coverAlt", { title: book.title })}
        width={COVER_WIDTH}
        height={COVER_HEIGHT}
        loading="lazy"
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
