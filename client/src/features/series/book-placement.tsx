import { bookPath } from "@shared/book-urls";
import type { BookPlacement } from "@shared/series-and-tags";
import { formatVolume, seriesPath, tagCatalogPath } from "@shared/series-basics";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { buttonClassName, textLinkClassName } from "@/ui/styles";
import { useBookPlacement } from "./use-series";

/** "Volume 2 of The Name", the name a link to the series' page. */
function SeriesLine({ series }: { series: NonNullable<BookPlacement["series"]> }) {
  const { t } = useTranslation();
  return (
    <p data-testid="book-series" className="text-lg">
      {t("bookPage.seriesVolumeOf", { volume: formatVolume(series.volume) })}{" "}
      <Link href={seriesPath(series.id)} className={textLinkClassName}>
        {series.title}
      </Link>
    </p>
  );
}

/** The book's tags, each a link to the catalog's books of that tag. */
function TagLinks({ tags }: { tags: BookPlacement["tags"] }) {
  const { t } = useTranslation();
  const headingId = useId();
  if (tags.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="mt-6">
      <h2 id={headingId} className="text-xl font-semibold">
        {t("bookPage.tags")}
      </h2>
      <ul role="list" data-testid="book-tags" className="mt-3 flex flex-wrap gap-2">
        {tags.map((tag) => (
          <li key={tag.slug}>
            <Link
              href={tagCatalogPath(tag.slug)}
              className="inline-flex min-h-11 items-center rounded-full border border-line-strong px-4 text-sm font-semibold text-ink hover:border-accent hover:text-accent-strong"
            >
              {tag.name}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The next listed volume this reader may see, as a link; nothing when the book is the last (or in no series). */
function NextVolumeLink({ next, seriesTitle }: { next: NonNullable<BookPlacement["next"]>; seriesTitle: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} data-testid="next-in-series" className="mt-6 rounded-xl border border-line bg-surface p-4 shadow-sm">
      <h2 id={headingId} className="text-sm font-semibold text-ink-muted">
        {t("bookPage.nextInSeries", { series: seriesTitle })}
      </h2>
      <p className="mt-1 text-lg">
        <Link href={bookPath(next)} className={textLinkClassName}>
          {t("bookPage.nextVolume", { volume: formatVolume(next.volume), title: next.title })}
        </Link>
      </p>
    </section>
  );
}

/**
 * "Next in the series" on its own, for the end of the reader (docs/product.md#series-and-tags): the
 * next listed volume of the book's series as one action among the panel's, or nothing.
 */
export function NextInSeries({ bookId }: { bookId: number }) {
  const { t } = useTranslation();
  const { data } = useBookPlacement(bookId);
  if (!data?.series || !data.next) return null;
  return (
    <Link href={bookPath(data.next)} data-testid="next-in-series" className={buttonClassName("secondary")}>
      {t("bookPage.nextVolume", { volume: formatVolume(data.next.volume), title: data.next.title })}
    </Link>
  );
}

/** A book's place on its page: its series and volume, its tags as links, and the next volume. */
export function BookSeriesAndTags({ bookId }: { bookId: number }) {
  const { data } = useBookPlacement(bookId);
  if (!data || (!data.series && data.tags.length === 0)) return null;
  return (
    <div data-testid="book-placement" className="mt-6">
      {data.series && <SeriesLine series={data.series} />}
      {data.series && data.next && <NextVolumeLink next={data.next} seriesTitle={data.series.title} />}
      <TagLinks tags={data.tags} />
    </div>
  );
}
