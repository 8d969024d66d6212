import type { CurrentUser } from "@shared/auth";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { BookShelf, useAuthorBooks, useAuthorStats, useBookList } from "@/features/books";
import { PageFrame } from "@/ui/page-frame";
import { PublishInvitation, RevealedRegion, RewardsProgressCard, useAuthorParts } from "@/features/rewards";
import { buttonClassName, textLinkClassName } from "@/ui/styles";
import { useAuth } from "@/features/accounts";
import { useNumberFormat } from "@/lib/use-number-format";

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

/** A shelf of the catalog's first books in one order: the most downloaded, or the newest. */
function Shelf({ sort, id, titleKey, className }: { sort: "downloads" | "newest"; id: string; titleKey: string; className: string }) {
  const { t } = useTranslation();
  const books = useBookList({ sort }, POPULAR_BOOKS);
  return (
    <section aria-labelledby={id} data-testid={id} className={className}>
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id={id} className="text-2xl font-semibold sm:text-3xl">
          {t(titleKey)}
        </h2>
        <Link href="/catalog" className={textLinkClassName}>
          {t("home.popular.browse")}
        </Link>
      </div>
      <div className="mt-6">
        <BookShelf books={books} count={POPULAR_BOOKS} columnsClassName={POPULAR_COLUMNS} emptyText={t("home.popular.empty")} />
      </div>
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
      <RevealedRegion takeFocus={authorParts.revealedByReader} onFocusTaken={authorParts.focusTaken}>
        <div className="mt-8 grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <AuthorFigures authorId={user.id} />
          <QuickActions />
        </div>
        <RewardsProgressCard user={user} />
      </RevealedRegion>
      {popular}
    </PageFrame>
  );
}

/** The signed-in home (docs/product.md#screens): the route shows it only once the session is known. */
export function HomePage() {
  const { user } = useAuth();
  return user ? <Home user={user} /> : null;
}
