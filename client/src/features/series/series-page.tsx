import { authorPath, bookPath, reportPath } from "@shared/book-urls";
import { shortDescription } from "@shared/page-meta";
import { type SeriesPage as SeriesPageData, formatVolume, seriesPath } from "@shared/series-and-tags";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "wouter";
import { BookCover, BookGridSkeleton, FULL_CARD_COLUMNS } from "@/features/books";
import { ApiError } from "@/lib/api";
import { useDocumentDescription, useDocumentTitle } from "@/lib/use-document-title";
import { useNumberFormat } from "@/lib/use-number-format";
import { EmptyState } from "@/ui/empty-state";
import { NotFoundPage } from "@/ui/not-found-page";
import { buttonClassName, textLinkClassName } from "@/ui/styles";
import { useSeriesPage } from "./use-series";

const SERIES_ID = /^[1-9][0-9]{0,8}$/;

function SeriesDetails({ series }: { series: SeriesPageData }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const volumesHeadingId = useId();
  const author = series.author.displayName ?? t("book.anonymousAuthor");
  const description = series.description.trim();

  useDocumentTitle(series.title);
  useDocumentDescription(shortDescription(description || t("seriesPage.metaDescription", { title: series.title, author, count: series.volumes.length })));

  return (
    <div data-testid="series-page" className="mx-auto w-full max-w-6xl px-4 py-12 sm:py-16">
      <header className="min-w-0">
        <p className="text-sm font-semibold tracking-wide text-accent-strong uppercase">{t("seriesPage.role")}</p>
        <h1 className="mt-2 text-3xl font-semibold break-words sm:text-4xl">{series.title}</h1>
        <p className="mt-2 text-lg text-ink-muted">
          {t("seriesPage.by")}{" "}
          <Link href={authorPath(series.author)} className={textLinkClassName}>
            {author}
          </Link>
        </p>
        {description && <p className="mt-4 max-w-prose text-lg leading-relaxed whitespace-pre-line break-words">{description}</p>}
        {/* A series' title and description are its author's words: a notice about them is a notice about the author, sent from this page. */}
        <p className="mt-4 text-sm">
          <Link href={reportPath({ author: series.author.id }, seriesPath(series.id))} data-testid="report-link" className={textLinkClassName}>
            {t("report.action")}
          </Link>
        </p>
      </header>
      <section aria-labelledby={volumesHeadingId} className="mt-12">
        <h2 id={volumesHeadingId} className="text-2xl font-semibold">
          {t("seriesPage.volumesHeading", { count: series.volumes.length, formatted: format.integer(series.volumes.length) })}
        </h2>
        {series.volumes.length === 0 ? (
          <EmptyState title={t("seriesPage.noVolumes")} hint={t("seriesPage.noVolumesHint")} />
        ) : (
          <ol role="list" data-testid="series-volumes" className={`mt-6 grid gap-6 ${FULL_CARD_COLUMNS}`}>
            {series.volumes.map(({ volume, book }) => (
              <li key={book.id}>
                <Link href={bookPath(book)} className="group block rounded-lg">
                  <span className="mb-2 block text-sm font-semibold text-accent-strong">{t("seriesPage.volume", { volume: formatVolume(volume) })}</span>
                  <BookCover book={book} className="w-full rounded-md shadow-sm" sizes="(min-width: 640px) 14rem, 45vw" initialClassName="text-5xl" />
                  <span lang={book.language} className="mt-2 line-clamp-2 block font-semibold break-words group-hover:text-accent group-hover:underline">
                    {book.title}
                  </span>
                </Link>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

function SeriesScreen({ id }: { id: number }) {
  const { t } = useTranslation();
  const { data, error, isPending, refetch } = useSeriesPage(id);
  if (isPending) {
    return (
      <div className="mx-auto w-full max-w-6xl px-4 py-12 sm:py-16">
        <BookGridSkeleton count={3} variant="full" columnsClassName={FULL_CARD_COLUMNS} />
      </div>
    );
  }
  if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return <NotFoundPage />;
  if (!data) {
    return (
      <div role="alert" className="mx-auto w-full max-w-6xl px-4 py-16">
        <p className="text-lg">{t("seriesPage.loadError")}</p>
        <button type="button" onClick={() => void refetch()} className={buttonClassName("secondary", "mt-4")}>
          {t("seriesPage.retry")}
        </button>
      </div>
    );
  }
  return <SeriesDetails series={data} />;
}

/** A series' public page at /series/{id} (docs/product.md#series-and-tags): its title, author, description and volumes in order. */
export function SeriesPage() {
  const { id = "" } = useParams<{ id: string }>();
  if (!SERIES_ID.test(id)) return <NotFoundPage />;
  return <SeriesScreen key={id} id={Number(id)} />;
}
