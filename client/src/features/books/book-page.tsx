import { authorPath, bookIdOfSegment, bookPath, bookReaderPath, reportPath } from "@shared/book-urls";
import type { CurrentUser } from "@shared/auth";
import type { BookCard } from "@shared/books";
import { BOOK_PAGE_COVER_SIZES, shortDescription } from "@shared/page-meta";
import { type ReactNode, useEffect, useId } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useParams, useSearch } from "wouter";
import { BookCover } from "@/features/books/book-cover";
import { BookEditionsNotice, BookEditionsSection } from "@/features/books/book-editions";
import { BookPageShelf } from "@/features/books/book-page-shelf";
import { ContentRatingBadge } from "@/features/books/content-rating-badge";
import { DownloadButtons } from "@/features/books/download-button";
import { LazyBookReviews } from "@/features/books/lazy-book-reviews";
import { SendToEReaderButton } from "@/features/books/send-to-e-reader-button";
import { ShareButton } from "@/features/books/share-button";
import { StarRating, VisitorRating } from "@/features/books/star-rating";
import { LockIcon } from "@/ui/icons";
import { buttonClassName, textLinkClassName } from "@/ui/styles";
import { ApiError } from "@/lib/api";
import { useAuth } from "@/features/accounts";
import { FollowButton } from "@/features/follows";
import { useAuthorProfile, useBook } from "@/features/books/use-books";
import { useDocumentDescription, useDocumentTitle } from "@/lib/use-document-title";
import { useNumberFormat } from "@/lib/use-number-format";
import { loginPathReturningTo } from "@/lib/use-return-path";
import { NotFoundPage } from "@/ui/not-found-page";
import { PageFrame } from "@/ui/page-frame";
import { BookSeriesAndTags } from "@/features/series";

const MORE_BY_AUTHOR_SHOWN = 4;

function BookIcon({ className = "size-4" }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={className} fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinejoin="round">
      <path d="M10 5.5C8.5 4.2 6.3 3.5 3 3.5v11.5c3.3 0 5.5.7 7 2 1.5-1.3 3.7-2 7-2V3.5c-3.3 0-5.5.7-7 2zM10 5.5V17" />
    </svg>
  );
}

/** Reading online, like downloading, needs an account: a visitor goes to sign in and then straight to the reader. */
function ReadLink({ book }: { book: BookCard }) {
  const { t } = useTranslation();
  const { isAuthenticated, isLoading } = useAuth();
  const className = buttonClassName("primary", "w-full");
  if (!isAuthenticated && !isLoading) {
    return (
      <Link href={loginPathReturningTo(bookReaderPath(book))} data-testid="read-link" className={className}>
        <LockIcon />
        <span className="whitespace-normal">{t("bookPage.loginToRead")}</span>
      </Link>
    );
  }
  return (
    <Link href={bookReaderPath(book)} data-testid="read-link" className={className}>
      <BookIcon />
      {t("bookPage.read")}
    </Link>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-ink-muted">{label}</dt>
      <dd className="mt-0.5 font-semibold break-words">{children}</dd>
    </div>
  );
}

function BookFacts({ book }: { book: BookCard }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  return (
    <dl data-testid="book-facts" className="mt-4 grid grid-cols-2 gap-x-6 gap-y-4 sm:grid-cols-3">
      {book.genre && <Fact label={t("bookPage.genre")}>{t(`genres.${book.genre}`)}</Fact>}
      {book.contentRating !== "general" && (
        <Fact label={t("contentRating.name")}>
          <ContentRatingBadge rating={book.contentRating} />
        </Fact>
      )}
      <Fact label={t("bookPage.language")}>
        <span lang={book.language}>{t(`languages.${book.language}`)}</span>
      </Fact>
      <Fact label={t("bookPage.published")}>
        <time dateTime={book.createdAt}>{format.longDate(book.createdAt)}</time>
      </Fact>
      <Fact label={t("bookPage.format")}>{t(`bookPage.fileTypes.${book.fileType}`)}</Fact>
      <Fact label={t("bookPage.size")}>{format.fileSize(book.fileSize)}</Fact>
      {book.pageCount ? <Fact label={t("bookPage.pages")}>{format.integer(book.pageCount)}</Fact> : null}
      <Fact label={t("bookPage.downloads")}>
        <span data-testid="book-downloads">{format.integer(book.downloadCount)}</span>
      </Fact>
    </dl>
  );
}

/** A few more of the author's books, each a link to its own page. */
function MoreByAuthor({ book, authorName }: { book: BookCard; authorName: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const { data: profile } = useAuthorProfile(book.author.id);
  const others = (profile?.books ?? []).filter((other) => other.id !== book.id);
  if (others.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="mt-12 border-t border-line pt-8">
      <div className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-2">
        <h2 id={headingId} className="text-2xl font-semibold">
          {t("bookPage.moreByAuthor", { author: authorName })}
        </h2>
        <Link href={authorPath(book.author)} className={textLinkClassName}>
          {t("bookPage.allByAuthor", { author: authorName })}
        </Link>
      </div>
      <ul role="list" className="mt-6 grid grid-cols-2 gap-5 sm:grid-cols-4">
        {others.slice(0, MORE_BY_AUTHOR_SHOWN).map((other) => (
          <li key={other.id}>
            <Link href={bookPath(other)} className="group block rounded-lg">
              <BookCover book={other} className="w-full rounded-md shadow-sm" sizes="(min-width: 640px) 14rem, 45vw" initialClassName="text-5xl" />
              <span lang={other.language} className="mt-2 line-clamp-2 block font-semibold break-words group-hover:text-accent group-hover:underline">
                {other.title}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function BookDetails({ book }: { book: BookCard }) {
  const { t } = useTranslation();
  const { user, isLoading: isCheckingSession } = useAuth();
  const titleId = useId();
  const aboutId = useId();
  const detailsId = useId();
  const authorName = book.author.displayName ?? t("book.anonymousAuthor");
  const hasEpub = book.formats.some((format) => format.format === "epub");
  const description = book.description?.trim();

  useDocumentTitle(book.title);
  useDocumentDescription(shortDescription(description || t("bookPage.metaDescription", { title: book.title, author: authorName })));

  return (
    <article aria-labelledby={titleId} data-testid="book-page" data-book-id={book.id} className="mx-auto w-full max-w-6xl px-4 py-8 sm:py-12">
      <nav aria-label={t("bookPage.breadcrumb")} className="text-sm text-ink-muted">
        <ol className="flex min-w-0 items-center gap-2">
          <li className="shrink-0">
            <Link href="/catalog" className={textLinkClassName}>
              {t("bookPage.catalog")}
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li aria-current="page" lang={book.language} className="truncate">
            {book.title}
          </li>
        </ol>
      </nav>

      <div className="mt-6 grid gap-8 md:grid-cols-[16rem_minmax(0,1fr)] lg:grid-cols-[20rem_minmax(0,1fr)] lg:gap-12">
        <div>
          <BookCover
            book={book}
            className="mx-auto w-48 rounded-lg shadow-md sm:w-56 md:w-full"
            sizes={BOOK_PAGE_COVER_SIZES}
            initialClassName="text-8xl"
            isAboveFold
          />
        </div>

        <div className="min-w-0">
          {book.genre && (
            <p className="mb-3">
              <span className="sr-only">{t("bookPage.genre")} </span>
              <span className="inline-block rounded-full bg-accent-soft px-3 py-1 text-sm font-semibold text-accent-strong">{t(`genres.${book.genre}`)}</span>
            </p>
          )}
          <h1 id={titleId} lang={book.language} className="text-3xl leading-tight font-semibold break-words sm:text-4xl">
            {book.title}
          </h1>
          <p className="mt-2 text-lg text-ink-muted">
            {t("bookPage.by")}{" "}
            <Link href={authorPath(book.author)} data-testid="author-link" className={textLinkClassName}>
              {authorName}
            </Link>
          </p>
          <FollowButton author={book.author} className="mt-3" />
          <div className="mt-4">{user ? <StarRating book={book} userId={user.id} /> : <VisitorRating book={book} withLoginLink={!isCheckingSession} />}</div>
          <BookPageShelf book={book} />

          <div role="group" aria-label={t("bookPage.actions")} className={`mt-6 grid gap-3 ${hasEpub ? "sm:grid-cols-2" : "sm:grid-cols-3"}`}>
            <ReadLink book={book} />
            <DownloadButtons book={book} />
            <ShareButton
              url={`${window.location.origin}${bookPath(book)}`}
              title={book.title}
              text={t("share.text", { title: book.title, author: authorName })}
              className="w-full"
            />
            <SendToEReaderButton book={book} />
          </div>
          <BookEditionsNotice book={book} />
          <p className="mt-3 text-sm text-ink-muted">{t("bookPage.freeNote")}</p>
          {hasEpub && <p className="mt-1 text-sm text-ink-muted">{t("bookPage.epubNote")}</p>}
          <p className="mt-2 text-sm">
            <Link href={reportPath({ book: book.id }, bookPath(book))} data-testid="report-link" className={textLinkClassName}>
              {t("bookPage.report")}
            </Link>
          </p>

          <section aria-labelledby={aboutId} className="mt-10">
            <h2 id={aboutId} className="text-xl font-semibold">
              {t("bookPage.about")}
            </h2>
            {description ? (
              <p lang={book.language} className="mt-3 max-w-prose text-lg leading-relaxed whitespace-pre-line break-words">
                {description}
              </p>
            ) : (
              <p className="mt-3 text-ink-muted">{t("bookPage.noDescription")}</p>
            )}
          </section>

          <BookSeriesAndTags bookId={book.id} />

          <section aria-labelledby={detailsId} className="mt-10">
            <h2 id={detailsId} className="text-xl font-semibold">
              {t("bookPage.details")}
            </h2>
            <BookFacts book={book} />
          </section>

          <BookEditionsSection book={book} />
        </div>
      </div>

      <LazyBookReviews book={book} />
      <MoreByAuthor book={book} authorName={authorName} />
    </article>
  );
}

function BookPageSkeleton() {
  const { t } = useTranslation();
  const bar = "rounded bg-line/70";
  return (
    // As tall as the screen at least, as the page it stands for is: on a phone the footer stayed in view
    // below the shorter skeleton and jumped away when the book came (layout shift 0.04, docs/decisions/0086).
    <div role="status" className="mx-auto min-h-svh w-full max-w-6xl animate-pulse px-4 py-8 motion-reduce:animate-none sm:py-12">
      <span className="sr-only">{t("bookPage.loading")}</span>
      <div aria-hidden="true" className="mt-10 grid gap-8 md:grid-cols-[16rem_minmax(0,1fr)] lg:grid-cols-[20rem_minmax(0,1fr)] lg:gap-12">
        <div className={`mx-auto aspect-[2/3] w-48 sm:w-56 md:w-full ${bar}`} />
        <div className="space-y-4">
          <div className={`h-10 w-3/4 ${bar}`} />
          <div className={`h-6 w-1/3 ${bar}`} />
          <div className={`h-11 w-full ${bar}`} />
          <div className={`h-32 w-full ${bar}`} />
        </div>
      </div>
    </div>
  );
}

/**
 * The API's answer for an id that names nothing a visitor may see: the page shows the 404 screen, as
 * the server did. The API also refuses (400) a well-formed page id longer than its own ids' nine digits.
 */
export const isNotFoundError = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 400);

/** A book moderation removed (docs/product.md#moderation): the API said 410 (the terms) or 451 (a legal ground). */
function RemovedBookPage({ status }: { status: 410 | 451 }) {
  const { t } = useTranslation();
  const texts = status === 451 ? "bookPage.removedLegal" : "bookPage.removedTerms";
  return (
    <PageFrame title={t(`${texts}.title`)} description={t(`${texts}.description`)}>
      <Link href="/catalog" className={`mt-6 inline-block ${textLinkClassName}`}>
        {t("bookPage.browseCatalog")}
      </Link>
    </PageFrame>
  );
}

const removalStatusOf = (error: unknown): 410 | 451 | undefined =>
  error instanceof ApiError && (error.status === 410 || error.status === 451) ? error.status : undefined;

/** A page whose data could not be loaded for another reason: say so, and offer to try again. */
export function PageLoadError({ message, retryLabel, onRetry }: { message: string; retryLabel: string; onRetry: () => void }) {
  return (
    <div role="alert" className="mx-auto w-full max-w-6xl px-4 py-16">
      <p className="text-lg">{message}</p>
      <button type="button" onClick={onRetry} className={buttonClassName("secondary", "mt-4")}>
        {retryLabel}
      </button>
    </div>
  );
}

/**
 * Whether this reader is shown an explicit book: one who chose explicit books in their settings, its
 * author, the admin (the server's rule, server/books/books-policy.ts); a visitor never.
 */
function seesExplicitBook(book: BookCard, user: CurrentUser | null | undefined): boolean {
  return Boolean(user && (user.showExplicit || user.isAdmin || user.id === book.author.id));
}

/**
 * What an explicit book's page shows to a visitor or a reader who did not choose explicit books
 * (docs/decisions/0092): nothing of the book (its title or cover may be explicit), why, and the way on.
 */
function ExplicitBookNotice({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation();
  const [location] = useLocation();
  useDocumentTitle(t("contentRating.gate.metaTitle"));
  return (
    <PageFrame title={t("contentRating.gate.title")} description={t("contentRating.gate.description")}>
      <div data-testid="explicit-notice" className="mt-6 max-w-prose space-y-5">
        <p>{t(signedIn ? "contentRating.gate.readerHint" : "contentRating.gate.visitorHint")}</p>
        <div className="flex flex-wrap items-center gap-4">
          {signedIn ? (
            <Link href="/settings#explicit-books" className={buttonClassName("primary")}>
              {t("contentRating.gate.settings")}
            </Link>
          ) : (
            <Link href={loginPathReturningTo(location)} className={buttonClassName("primary")}>
              {t("contentRating.gate.signIn")}
            </Link>
          )}
          <Link href="/catalog" className={textLinkClassName}>
            {t("contentRating.gate.back")}
          </Link>
        </div>
      </div>
    </PageFrame>
  );
}

function BookScreen({ id }: { id: number }) {
  const { t } = useTranslation();
  const { user, isLoading: isCheckingSession } = useAuth();
  const [location, navigate] = useLocation();
  const search = useSearch();
  const { data: book, error, isPending, refetch } = useBook(id);

  // A shared link may carry an old title's slug (or none): the address bar shows the current one.
  const canonicalPath = book && bookPath(book);
  useEffect(() => {
    if (canonicalPath && location !== canonicalPath) navigate(search ? `${canonicalPath}?${search}` : canonicalPath, { replace: true });
  }, [canonicalPath, location, navigate, search]);

  if (isPending) return <BookPageSkeleton />;
  if (isNotFoundError(error)) return <NotFoundPage kind="book" />;
  const removal = removalStatusOf(error);
  if (removal) return <RemovedBookPage status={removal} />;
  if (!book) return <PageLoadError message={t("bookPage.loadError")} retryLabel={t("bookPage.retry")} onRetry={() => void refetch()} />;
  if (book.contentRating === "explicit" && !seesExplicitBook(book, user)) {
    return isCheckingSession ? <BookPageSkeleton /> : <ExplicitBookNotice signedIn={Boolean(user)} />;
  }
  return <BookDetails book={book} />;
}

/** A book's own page at /books/{id} or /books/{id}-{slug} (docs/product.md#book-pages); anything else there is the 404 screen. */
export function BookPage() {
  const { segment = "" } = useParams<{ segment: string }>();
  const id = bookIdOfSegment(segment);
  if (id === undefined) return <NotFoundPage kind="book" />;
  return <BookScreen key={id} id={id} />;
}
