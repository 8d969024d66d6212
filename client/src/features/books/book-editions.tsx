import { bookReaderPath } from "@shared/book-urls";
import type { BookCard } from "@shared/books";
import type { BookEdition, BookEditions } from "@shared/editions";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { useAuth } from "@/features/accounts";
import { useBookEditions, useDownloadBook } from "@/features/books/use-books";
import { DownloadIcon, Spinner } from "@/ui/icons";
import { buttonClassName } from "@/ui/styles";
import { useNumberFormat } from "@/lib/use-number-format";

/** One edition's download: its own file, under the same counting rule as the book's (a reader counts once). */
function EditionDownload({ book, edition, primary = false }: { book: BookCard; edition: BookEdition; primary?: boolean }) {
  const { t } = useTranslation();
  const download = useDownloadBook();
  const format = edition.format.toUpperCase();
  return (
    <button
      type="button"
      data-testid={`download-edition-${edition.number}`}
      disabled={download.isPending}
      aria-busy={download.isPending}
      onClick={() => download.mutate({ book, edition: { number: edition.number, format: edition.format } })}
      className={buttonClassName(primary ? "primary" : "secondary", primary ? "" : "min-h-9 px-3 py-1.5 text-sm")}
    >
      {download.isPending ? <Spinner /> : <DownloadIcon />}
      <span className="whitespace-normal">{primary ? t("editions.downloadNew", { number: edition.number }) : t("editions.download")}</span>
      {!primary && <span className="sr-only">{`: ${t("editions.downloadEdition", { number: edition.number, format })}`}</span>}
    </button>
  );
}

/** Every edition, newest first: its number, date, format and size, what changed; a signed-in reader downloads any. */
export function EditionsList({ book, editions, withDownloads }: { book: BookCard; editions: BookEditions; withDownloads: boolean }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  return (
    <ol role="list" data-testid="editions-list" className="mt-4 divide-y divide-line rounded-lg border border-line">
      {editions.editions.map((edition) => (
        <li key={edition.number} data-testid={`edition-${edition.number}`} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0">
            <p className="font-semibold">
              {t("editions.edition", { number: edition.number })}
              {edition.number === editions.current && (
                <span className="ms-2 inline-block rounded-full bg-accent-soft px-2 py-0.5 text-xs font-semibold text-accent-strong">{t("editions.current")}</span>
              )}
            </p>
            <p className="mt-0.5 text-sm text-ink-muted">
              <time dateTime={edition.createdAt}>{t("editions.publishedOn", { date: format.longDate(edition.createdAt) })}</time>
              {" · "}
              {t(`bookPage.fileTypes.${edition.format}`)}
              {" · "}
              {format.fileSize(edition.fileSize)}
            </p>
            <p lang={book.language} className="mt-2 max-w-prose whitespace-pre-line break-words">
              {edition.changelog ?? t("editions.firstEdition")}
            </p>
          </div>
          {withDownloads && (
            <div className="shrink-0">
              <EditionDownload book={book} edition={edition} />
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}

/**
 * Told to a reader who took an older edition (docs/product.md#editions): what changed since, in the
 * author's words, and the new edition to download or read. Gone once they take the book again.
 */
function NewEditionNotice({ book, editions }: { book: BookCard; editions: BookEditions }) {
  const { t } = useTranslation();
  const headingId = useId();
  const taken = editions.takenEdition;
  const newer = editions.editions.filter((edition) => taken !== null && edition.number > taken);
  const current = editions.editions.find((edition) => edition.number === editions.current);
  if (taken === null || newer.length === 0 || !current) return null;
  return (
    <section aria-labelledby={headingId} data-testid="new-edition-notice" className="mt-6 rounded-xl border border-accent/40 bg-accent-soft/60 p-4 sm:p-5">
      <h2 id={headingId} className="text-lg font-semibold">
        {t("editions.newTitle")}
      </h2>
      <p className="mt-1">{t("editions.newBody", { taken })}</p>
      <h3 className="mt-3 text-sm font-semibold">{t("editions.whatChanged")}</h3>
      <ul role="list" className="mt-1 space-y-2">
        {newer.map((edition) => (
          <li key={edition.number}>
            <span className="font-semibold">{t("editions.edition", { number: edition.number })}</span>
            {": "}
            <span lang={book.language} className="whitespace-pre-line break-words">
              {edition.changelog}
            </span>
          </li>
        ))}
      </ul>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row">
        <EditionDownload book={book} edition={current} primary />
        <Link href={bookReaderPath(book)} className={buttonClassName("secondary")}>
          {t("editions.readNew")}
        </Link>
      </div>
    </section>
  );
}

/** The book page's part of editions: the notice for a reader who took an older one, and the list once there is more than one. */
export function BookEditionsNotice({ book }: { book: BookCard }) {
  const { isAuthenticated } = useAuth();
  const { data: editions } = useBookEditions(isAuthenticated ? book.id : undefined);
  if (!editions) return null;
  return <NewEditionNotice book={book} editions={editions} />;
}

export function BookEditionsSection({ book }: { book: BookCard }) {
  const { t } = useTranslation();
  const headingId = useId();
  const { isAuthenticated, isLoading } = useAuth();
  const { data: editions } = useBookEditions(book.id);
  if (!editions || editions.editions.length < 2) return null;
  return (
    <section aria-labelledby={headingId} data-testid="book-editions" className="mt-10">
      <h2 id={headingId} className="text-xl font-semibold">
        {t("editions.title")}
      </h2>
      <EditionsList book={book} editions={editions} withDownloads={isAuthenticated && !isLoading} />
    </section>
  );
}
