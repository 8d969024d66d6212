import type { PublicReader } from "@shared/shelves";
import { SHELVES } from "@shared/shelves";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useParams } from "wouter";
import { BookGrid, BookGridSkeleton } from "@/features/books";
import { ApiError } from "@/lib/api";
import { useDocumentDescription, useDocumentTitle } from "@/lib/use-document-title";
import { useNumberFormat } from "@/lib/use-number-format";
import { NotFoundPage } from "@/ui/not-found-page";
import { buttonClassName } from "@/ui/styles";

const COLUMNS = "sm:grid-cols-2 lg:grid-cols-3";

function ReaderShelves({ reader }: { reader: PublicReader }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const title = t("readerPage.title", { username: reader.username });
  useDocumentTitle(title);
  useDocumentDescription(
    t("readerPage.metaDescription", {
      username: reader.username,
      want: format.integer(reader.shelves.want.total),
      reading: format.integer(reader.shelves.reading.total),
      read: format.integer(reader.shelves.read.total),
    }),
  );
  return (
    <div data-testid="reader-shelves-page" className="mx-auto w-full max-w-6xl px-4 py-12 sm:py-16">
      <header>
        <p className="text-sm font-semibold tracking-wide text-accent-strong uppercase">{t("readerPage.role")}</p>
        <h1 className="mt-2 text-3xl font-semibold break-words sm:text-4xl" data-testid="reader-shelves-title">
          {title}
        </h1>
      </header>
      {SHELVES.map((shelf) => {
        const { books, total } = reader.shelves[shelf];
        const headingId = `reader-shelf-${shelf}`;
        return (
          <section key={shelf} aria-labelledby={headingId} className="mt-12" data-testid={`public-shelf-${shelf}`}>
            <h2 id={headingId} className="text-2xl font-semibold">
              {t(`shelves.names.${shelf}`)} <span className="text-lg font-normal text-ink-muted">({format.integer(total)})</span>
            </h2>
            <div className="mt-6">
              {books.length === 0 ? (
                <p className="text-ink-muted">{t("readerPage.empty")}</p>
              ) : (
                <BookGrid books={books} variant="compact" columnsClassName={COLUMNS} headingLevel={3} />
              )}
              {total > books.length && <p className="mt-4 text-sm text-ink-muted">{t("readerPage.more", { count: total - books.length })}</p>}
            </div>
          </section>
        );
      })}
    </div>
  );
}

/**
 * A reader's public shelves at /readers/{username} (docs/product.md#shelves): their username and the
 * books of their three shelves, shown only while they keep them public; the 404 screen otherwise.
 */
export function ReaderShelvesPage() {
  const { t } = useTranslation();
  const { username = "" } = useParams<{ username: string }>();
  const name = decodeURIComponent(username);
  const query = useQuery<PublicReader>({ queryKey: ["/api/readers", encodeURIComponent(name)], staleTime: 60_000 });
  if (query.isPending) {
    return (
      <div className="mx-auto w-full max-w-6xl px-4 py-12 sm:py-16" role="status">
        <span className="sr-only">{t("readerPage.loading")}</span>
        <BookGridSkeleton count={3} variant="compact" columnsClassName={COLUMNS} />
      </div>
    );
  }
  if (query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400)) return <NotFoundPage />;
  if (!query.data) {
    return (
      <div role="alert" className="mx-auto max-w-prose px-4 py-16 text-center">
        <p>{t("readerPage.loadError")}</p>
        <button type="button" className={buttonClassName("secondary", "mt-4")} onClick={() => void query.refetch()}>
          {t("readerPage.retry")}
        </button>
      </div>
    );
  }
  return <ReaderShelves reader={query.data} />;
}
