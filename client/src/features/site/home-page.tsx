import type { CurrentUser } from "@shared/auth";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { bookReaderPath } from "@shared/book-urls";
import { BookCover, BookLanguageNote, BookShelf, continueReadingText, useAuthorBooks, useAuthorStats, useBookList, useContinueReading, usePercentFormat } from "@/features/books";
import { PageFrame } from "@/ui/page-frame";
import { PublishInvitation, RevealedRegion, RewardsProgressCard, useAuthorParts } from "@/features/rewards";
import { buttonClassName } from "@/ui/styles";
import { useBookLanguageChoice } from "@/lib/book-language-choice";
import { useAuth } from "@/features/accounts";
import { useNumberFormat } from "@/lib/use-number-format";
import { FollowingRow } from "@/features/site/following-row";
import { RowHeading } from "@/features/site/row-heading";

const POPULAR_BOOKS = 6;
const POPULAR_COLUMNS = "sm:grid-cols-2 lg:grid-cols-3";

function AuthorFigures({ authorId }: { authorId: string }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const books = useAuthorBooks(authorId);
  const stats = useAuthorStats(authorId);
  const figures = [
    { label: t("home.stats.books"), value: books.data?.length, testId: "home-book-count" },
    { label: t("home.stats.downloads"), value: stats.data?.totalDownloads, testId: "home-downloads" },
  ];
  return (
    <dl className="grid gap-4 sm:grid-cols-2">
      {figures.map(({ label, value, testId }) => (
        <div key={testId} className="flex flex-col-reverse justify-center gap-1 rounded-xl border border-line bg-surface p-5 shadow-sm">
          <dt className="text-sm text-ink-muted">{label}</dt>
          <dd data-testid={testId} className="font-serif text-4xl font-semibold text-accent">
            {value === undefined ? "—" : format.count(value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function QuickActions() {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="quick-actions" className="rounded-xl border border-line bg-surface p-5 shadow-sm">
      <h2 id="quick-actions" className="text-lg font-semibold">
        {t("home.quickActions.title")}
      </h2>
      <div className="mt-4 flex flex-col gap-2">
        <Link href="/upload" className={buttonClassName("primary")}>
          {t("home.quickActions.upload")}
        </Link>
        <Link href="/dashboard" className={buttonClassName("secondary")}>
          {t("home.quickActions.dashboard")}
        </Link>
      </div>
    </section>
  );
}

/** A shelf of the catalog's first books in one order (the most downloaded, or the newest), in the book language the reader chose. */
function Shelf({ sort, id, titleKey, className }: { sort: "downloads" | "newest"; id: string; titleKey: string; className: string }) {
  const { t } = useTranslation();
  const books = useBookList({ sort, language: useBookLanguageChoice() }, POPULAR_BOOKS);
  return (
    <section aria-labelledby={id} data-testid={id} className={className}>
      <RowHeading id={id} title={t(titleKey)} href="/catalog" linkLabel={t("home.popular.browse")} />
      <BookLanguageNote className="mt-1" />
      <div className="mt-6">
        <BookShelf books={books} count={POPULAR_BOOKS} columnsClassName={POPULAR_COLUMNS} emptyText={t("home.popular.empty")} />
      </div>
    </section>
  );
}

/** How far through the book, as a bar: the saved fraction, else the page of the book's pages (a PDF's). */
function ReadingProgress({ fraction }: { fraction: number | null }) {
  if (fraction === null) return null;
  return (
    <span aria-hidden="true" className="mt-auto block h-1.5 overflow-hidden rounded-full bg-line">
      <span className="block h-full rounded-full bg-accent" style={{ width: `${Math.round(Math.min(fraction, 1) * 100)}%` }} />
    </span>
  );
}

/**
 * "Continue reading" (docs/product.md#shelves): the books the reader has a place in and has not put on
 * Read, newest first, each a link into the reader where they left it. Nothing until there is one.
 */
function ContinueReading() {
  const { t } = useTranslation();
  const percent = usePercentFormat();
  const items = useContinueReading(true).data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="continue-reading" data-testid="continue-reading-shelf" className="mt-10">
      <RowHeading id="continue-reading" title={t("home.continueReading.title")} href="/my-books" linkLabel={t("home.continueReading.myBooks")} />
      <ul role="list" className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {items.map((item) => (
          <li key={item.book.id}>
            <Link
              href={bookReaderPath(item.book)}
              data-testid="continue-reading-item"
              className="flex h-full gap-4 rounded-xl border border-line bg-surface p-3 shadow-sm hover:border-accent"
            >
              <BookCover book={item.book} className="w-16 shrink-0 self-start rounded-md shadow-sm" sizes="4rem" initialClassName="text-2xl" />
              <span className="flex min-w-0 flex-1 flex-col gap-2">
                <span lang={item.book.language} className="line-clamp-2 font-semibold break-words">
                  {item.book.title}
                </span>
                <span className="text-sm font-semibold text-accent">{continueReadingText(item, percent, t)}</span>
                <ReadingProgress fraction={item.percentage ?? (item.book.pageCount ? item.page / item.book.pageCount : null)} />
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Home({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const authorParts = useAuthorParts(user);
  const name = user.firstName || t("home.defaultName");
  // A new account is greeted as new, not "back" (docs/product.md#screens).
  const title = t(user.isNewAccount ? "home.welcomeNew" : "home.welcome", { name });
  const popular = <Shelf sort="downloads" id="popular-books" titleKey="home.popular.title" className="mt-14" />;
  if (authorParts.shown === undefined) return <PageFrame title={title} headingTestId="welcome" />;
  if (!authorParts.shown) {
    // Readers first: something to read, then the way to publish.
    return (
      <PageFrame title={title} description={t("home.readerSubtitle")} headingTestId="welcome">
        <FollowingRow className="mt-10" />
        <ContinueReading />
        <Shelf sort="newest" id="recent-books" titleKey="home.recent.title" className="mt-10" />
        {popular}
        <div className="mt-14">
          <PublishInvitation onShowAuthorParts={authorParts.show} />
        </div>
      </PageFrame>
    );
  }
  return (
    <PageFrame title={title} description={t("home.subtitle")} headingTestId="welcome">
      <ContinueReading />
      <RevealedRegion takeFocus={authorParts.revealedByReader} onFocusTaken={authorParts.focusTaken}>
        <div className="mt-8 grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <AuthorFigures authorId={user.id} />
          <QuickActions />
        </div>
        <RewardsProgressCard user={user} />
      </RevealedRegion>
      <FollowingRow className="mt-14" />
      {popular}
    </PageFrame>
  );
}

/** The signed-in home (docs/product.md#screens): the route shows it only once the session is known. */
export function HomePage() {
  const { user } = useAuth();
  return user ? <Home user={user} /> : null;
}
