import { type AuthorProfile, shortDescription } from "@shared/page-meta";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { authorPath, reportPath } from "@shared/book-urls";
import { Link, useParams } from "wouter";
import { BookGrid, BookGridSkeleton, FULL_CARD_COLUMNS } from "@/features/books/book-grid";
import { useAuthorProfile } from "@/features/books/use-books";
import { useDocumentDescription, useDocumentTitle } from "@/lib/use-document-title";
import { useNumberFormat } from "@/lib/use-number-format";
import { isNotFoundError, PageLoadError } from "@/features/books/book-page";
import { NotFoundPage } from "@/ui/not-found-page";
import { FollowButton } from "@/features/follows";
import { textLinkClassName } from "@/ui/styles";

/** A UUID as the server writes account ids; anything else at /authors/… is no author. */
const ACCOUNT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;


function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-xl border border-line bg-surface px-5 py-4 shadow-sm">
      <dt className="text-sm text-ink-muted">{label}</dt>
      <dd data-testid={testId} className="mt-1 text-3xl font-semibold">
        {value}
      </dd>
    </div>
  );
}

function AuthorDetails({ profile }: { profile: AuthorProfile }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const booksHeadingId = useId();
  const name = profile.author.displayName ?? t("book.anonymousAuthor");

  useDocumentTitle(name);
  useDocumentDescription(shortDescription(t("authorPage.metaDescription", { author: name })));

  return (
    <div data-testid="author-page" className="mx-auto w-full max-w-6xl px-4 py-12 sm:py-16">
      <header className="flex flex-col gap-6 md:flex-row md:items-end md:justify-between">
        <div className="min-w-0">
          <p className="text-sm font-semibold tracking-wide text-accent-strong uppercase">{t("authorPage.role")}</p>
          <h1 className="mt-2 text-3xl font-semibold break-words sm:text-4xl">{name}</h1>
          <p className="mt-2 text-lg text-ink-muted">{t("authorPage.memberSince", { date: format.longDate(profile.memberSince) })}</p>
          <FollowButton author={profile.author} className="mt-4" />
          <p className="mt-2 flex flex-wrap gap-x-4 text-sm">
            {/* A file for feed readers, not a screen: a plain link the browser opens or a feed reader takes. */}
            <a href={`/authors/${profile.author.id}/feed.xml`} type="application/atom+xml" data-testid="author-feed-link" className={textLinkClassName}>
              {t("authorPage.feed")}
            </a>
            <Link href={reportPath({ author: profile.author.id }, authorPath(profile.author))} data-testid="report-link" className={textLinkClassName}>
              {t("report.action")}
            </Link>
          </p>
        </div>
        <dl aria-label={t("authorPage.figures")} className="grid grid-cols-2 gap-4 sm:min-w-80">
          <Figure label={t("authorPage.books")} value={format.integer(profile.books.length)} testId="author-book-count" />
          <Figure label={t("authorPage.downloads")} value={format.count(profile.totalDownloads)} testId="author-downloads" />
        </dl>
      </header>
      <section aria-labelledby={booksHeadingId} className="mt-12">
        <h2 id={booksHeadingId} className="text-2xl font-semibold">
          {t("authorPage.booksHeading", { author: name })}
        </h2>
        <div className="mt-6">
          <BookGrid books={profile.books} variant="full" columnsClassName={FULL_CARD_COLUMNS} headingLevel={3} />
        </div>
      </section>
    </div>
  );
}

function AuthorScreen({ id }: { id: string }) {
  const { t } = useTranslation();
  const { data: profile, error, isPending, refetch } = useAuthorProfile(id);
  if (isPending) {
    return (
      <div className="mx-auto w-full max-w-6xl px-4 py-12 sm:py-16">
        <BookGridSkeleton count={3} variant="full" columnsClassName={FULL_CARD_COLUMNS} />
      </div>
    );
  }
  if (isNotFoundError(error)) return <NotFoundPage />;
  if (!profile) return <PageLoadError message={t("authorPage.loadError")} retryLabel={t("authorPage.retry")} onRetry={() => void refetch()} />;
  return <AuthorDetails profile={profile} />;
}

/** An author's public page at /authors/{id} (docs/product.md#book-pages): name, books, downloads, member since; never the e-mail. */
export function AuthorPage() {
  const { id = "" } = useParams<{ id: string }>();
  if (!ACCOUNT_ID.test(id)) return <NotFoundPage />;
  return <AuthorScreen key={id} id={id.toLowerCase()} />;
}
