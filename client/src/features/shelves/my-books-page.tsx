import type { BookPage, ShelvedBook, TakenBook } from "@shared/shelves";
import { SHELVES, type Shelf, readerPath } from "@shared/shelves";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useSearch } from "wouter";
import { BookCard, BookGridSkeleton, MY_BOOKS_KEY } from "@/features/books";
import { useAuth } from "@/features/accounts";
import { apiRequest } from "@/lib/api";
import { useDocumentTitle } from "@/lib/use-document-title";
import { useNumberFormat } from "@/lib/use-number-format";
import { EmptyState } from "@/ui/empty-state";
import { PageFrame } from "@/ui/page-frame";
import { buttonClassName, textLinkClassName } from "@/ui/styles";
import { Tabs } from "@/ui/tabs";

const COLUMNS = "sm:grid-cols-2 lg:grid-cols-3";

/** One list of "My books", page after page ("Show more"), newest first. */
function useBookPages<T>(path: string) {
  return useInfiniteQuery({
    queryKey: [MY_BOOKS_KEY, path],
    initialPageParam: 1,
    staleTime: 0,
    queryFn: async ({ pageParam }) => (await (await apiRequest("GET", `${MY_BOOKS_KEY}/${path}?page=${pageParam}`)).json()) as BookPage<T>,
    getNextPageParam: (last) => (last.page * last.pageSize < last.total ? last.page + 1 : undefined),
  });
}

interface ListProps<T> {
  path: string;
  intro: string;
  emptyHint: string;
  render: (item: T) => React.ReactNode;
  keyOf: (item: T) => number;
}

function BookList<T>({ path, intro, emptyHint, render, keyOf }: ListProps<T>) {
  const { t } = useTranslation();
  const pages = useBookPages<T>(path);
  if (pages.isPending) return <BookGridSkeleton count={3} variant="compact" columnsClassName={COLUMNS} />;
  if (pages.isError) {
    return (
      <div role="alert" className="py-8 text-center">
        <p>{t("myBooks.loadError")}</p>
        <button type="button" className={buttonClassName("secondary", "mt-4")} onClick={() => void pages.refetch()}>
          {t("myBooks.retry")}
        </button>
      </div>
    );
  }
  const items = pages.data.pages.flatMap((page) => page.items);
  const total = pages.data.pages[0]?.total ?? 0;
  if (items.length === 0) {
    return (
      <EmptyState
        title={t("myBooks.count", { count: 0 })}
        hint={emptyHint}
        headingLevel={2}
        action={
          <Link href="/catalog" className={buttonClassName("primary")}>
            {t("myBooks.browse")}
          </Link>
        }
      />
    );
  }
  return (
    <div>
      <p className="text-sm text-ink-muted">
        <span className="font-semibold text-ink" data-testid="my-books-count">
          {t("myBooks.count", { count: total })}
        </span>{" "}
        · {intro}
      </p>
      <ul role="list" className={`mt-4 grid grid-cols-1 gap-5 ${COLUMNS}`}>
        {items.map((item) => (
          <li key={keyOf(item)} className="flex flex-col gap-2">
            {render(item)}
          </li>
        ))}
      </ul>
      {pages.hasNextPage && (
        <div className="mt-8 text-center">
          <button type="button" className={buttonClassName("secondary")} disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
            {t("myBooks.loadMore")}
          </button>
        </div>
      )}
    </div>
  );
}

/** How the reader took a book, each way once, and when last. */
function TakenLine({ item }: { item: TakenBook }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 px-1 text-sm text-ink-muted" data-testid="taken-how">
      <span className="sr-only">{t("myBooks.howTaken")}: </span>
      {item.channels.map((channel) => (
        <span key={channel} className="rounded-full bg-accent-soft px-2.5 py-0.5 text-xs font-semibold text-accent-strong">
          {t(`myBooks.channels.${channel}`)}
        </span>
      ))}
      <span>{t("myBooks.lastTaken", { date: format.date(item.lastTakenAt) })}</span>
    </p>
  );
}

function ShelfList({ shelf }: { shelf: Shelf }) {
  const { t } = useTranslation();
  return (
    <BookList<ShelvedBook>
      path={`shelves/${shelf}`}
      intro={t("myBooks.shelfIntro")}
      emptyHint={t(`myBooks.empty.${shelf}`)}
      keyOf={(item) => item.book.id}
      render={(item) => <BookCard book={item.book} variant="compact" headingLevel={2} />}
    />
  );
}

const TAKEN_TAB = "taken";

/**
 * "My books" (docs/product.md#shelves): the books the reader took — downloaded, read, sent, by an
 * e-reader app — each once with how, and their three shelves, one tab each, paged.
 */
export function MyBooksPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  useDocumentTitle(t("myBooks.title"));
  // The tab is in the address (`?shelf=read`), so a reload, a link and back keep it; an unknown one is the first.
  const [path, navigate] = useLocation();
  const shownTab = new URLSearchParams(useSearch()).get("shelf") ?? TAKEN_TAB;
  const showTab = (id: string) => navigate(id === TAKEN_TAB ? path : `${path}?shelf=${id}`, { replace: true });
  return (
    <PageFrame title={t("myBooks.title")} description={t("myBooks.description")} headingTestId="my-books-title">
      {user && (
        <p className="mt-2 text-sm text-ink-muted" data-testid="my-books-public">
          {user.shelvesPublic ? (
            <Link href={readerPath(user.username)} className={textLinkClassName}>
              {t("myBooks.publicPage", { address: readerPath(user.username) })}
            </Link>
          ) : (
            <Link href="/settings#public-shelves" className={textLinkClassName}>
              {t("myBooks.makePublic")}
            </Link>
          )}
        </p>
      )}
      <div className="mt-8">
        <Tabs
          label={t("myBooks.sections")}
          selectedId={shownTab}
          onSelect={showTab}
          tabs={[
            {
              id: TAKEN_TAB,
              label: t("myBooks.taken"),
              testId: "my-books-tab-taken",
              renderPanel: () => (
                <BookList<TakenBook>
                  path="taken"
                  intro={t("myBooks.takenIntro")}
                  emptyHint={t("myBooks.empty.taken")}
                  keyOf={(item) => item.book.id}
                  render={(item) => (
                    <>
                      <BookCard book={item.book} variant="compact" headingLevel={2} />
                      <TakenLine item={item} />
                    </>
                  )}
                />
              ),
            },
            ...SHELVES.map((shelf) => ({
              id: shelf,
              label: t(`shelves.names.${shelf}`),
              testId: `my-books-tab-${shelf}`,
              renderPanel: () => <ShelfList shelf={shelf} />,
            })),
          ]}
        />
      </div>
    </PageFrame>
  );
}
