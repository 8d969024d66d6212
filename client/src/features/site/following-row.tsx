import type { FollowingItem } from "@shared/follows";
import { useTranslation } from "react-i18next";
import { BookCard, BookGridSkeleton } from "@/features/books";
import { useFollowingItems } from "@/features/follows";
import { useNumberFormat } from "@/lib/use-number-format";
import { RowHeading } from "@/features/site/row-heading";

const COLUMNS = "sm:grid-cols-2 lg:grid-cols-3";

/** Above each card: a new edition says so with its date; a new book, when it came. */
function ItemLabel({ item }: { item: FollowingItem }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const date = format.longDate(item.at);
  if (item.kind === "edition") {
    return (
      <p className="mb-2 text-sm" data-testid="following-edition">
        <span className="rounded-full bg-accent-soft px-2 py-0.5 font-semibold text-accent-strong">{t("following.row.newEdition", { edition: item.edition })}</span>{" "}
        <span className="text-ink-muted">{t("following.row.editionDate", { date })}</span>
      </p>
    );
  }
  return <p className="mb-2 text-sm text-ink-muted">{t("following.row.published", { date })}</p>;
}

/**
 * "New from authors you follow" on the signed-in home (docs/product.md#follows): their newest listed
 * books, and new editions of their books and of books the reader took, newest first, as the catalog's
 * cards. With nothing to show it says how to follow an author.
 */
export function FollowingRow({ className }: { className: string }) {
  const { t } = useTranslation();
  const items = useFollowingItems();
  return (
    <section aria-labelledby="following-books" data-testid="following-books" className={className}>
      <RowHeading id="following-books" title={t("following.row.title")} href="/settings#digest" linkLabel={t("following.row.feedsLink")} />
      <div className="mt-6">
        {items.isPending ? (
          <BookGridSkeleton count={3} variant="compact" columnsClassName={COLUMNS} />
        ) : items.data?.length ? (
          <ul role="list" className={`grid grid-cols-1 gap-5 ${COLUMNS}`}>
            {items.data.map((item) => (
              <li key={`${item.kind}-${item.book.id}-${item.edition ?? 0}`} className="flex flex-col">
                <ItemLabel item={item} />
                <div className="flex-1">
                  <BookCard book={item.book} variant="compact" />
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-ink-muted">{items.isError ? t("catalog.fetchError") : t("following.row.empty")}</p>
        )}
      </div>
    </section>
  );
}
