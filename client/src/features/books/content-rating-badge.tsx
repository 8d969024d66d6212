import type { ContentRating } from "@shared/books";
import { useTranslation } from "react-i18next";

/** Teen is a note, Mature a caution, Explicit a warning (docs/product.md#content-ratings). */
const TONE: Record<Exclude<ContentRating, "general">, string> = {
  teen: "border-accent/30 bg-accent-soft text-accent-strong",
  mature: "border-amber-300 bg-amber-50 text-amber-900",
  explicit: "border-danger/30 bg-danger-soft text-danger-strong",
};

/** A book's rating as a small badge, on cards and the book page; a General book has none. */
export function ContentRatingBadge({ rating }: { rating: ContentRating }) {
  const { t } = useTranslation();
  if (rating === "general") return null;
  return (
    <span data-testid="content-rating" className={`inline-block rounded-full border px-2.5 py-0.5 text-xs font-semibold ${TONE[rating]}`}>
      <span className="sr-only">{t("contentRating.name")}: </span>
      {t(`contentRating.label.${rating}`)}
    </span>
  );
}
