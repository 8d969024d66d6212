import { bookPath } from "@shared/book-urls";
import type { OpenedBook } from "@shared/reading";
import { type ReactNode, useId } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { useBook, useShelfOf, useShelveBook } from "@/features/books";
import { FollowButton } from "@/features/follows";
import { NextInSeries } from "@/features/series";
import { CheckIcon } from "@/ui/icons";
import { buttonClassName, textLinkClassName } from "@/ui/styles";

interface BookEndPanelProps {
  book: Pick<OpenedBook, "id" | "title">;
  onClose: () => void;
  /** More of what a finished book leads to, after the next volume and the author's follow: each an action of the row. */
  children?: ReactNode;
}

/** The author of the book just finished, to follow: from the book's card, read already by its page, else once. */
function FollowTheAuthor({ bookId }: { bookId: number }) {
  const { data } = useBook(bookId);
  return data ? <FollowButton author={data.author} /> : null;
}

/**
 * What the reader is offered at the last page of a book, in every format (docs/product.md#shelves):
 * "Mark as read" puts it on the Read shelf, the next volume of its series (docs/product.md#series-and-tags)
 * and its author to follow (docs/product.md#follows). Laid over the foot of the page, closed by its
 * button; it never takes the focus.
 */
export function BookEndPanel({ book, onClose, children }: BookEndPanelProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const { shelf } = useShelfOf(book.id, true);
  const shelve = useShelveBook(book.id);
  const isRead = shelf === "read";
  return (
    <aside
      aria-labelledby={headingId}
      data-testid="book-end-panel"
      className="absolute inset-x-2 bottom-2 z-30 mx-auto max-w-xl rounded-xl border border-line bg-surface p-4 text-ink shadow-lg sm:bottom-4 sm:p-5"
    >
      <div className="flex items-start justify-between gap-3">
        <h2 id={headingId} className="text-lg font-semibold">
          {t("reader.bookEnd.title")}
        </h2>
        <button type="button" onClick={onClose} className={buttonClassName("ghost", "-mt-2 -mr-2 px-2 sm:px-2")} data-testid="book-end-close">
          <span aria-hidden="true">×</span>
          <span className="sr-only">{t("common.close")}</span>
        </button>
      </div>
      {!isRead && <p className="mt-1 text-sm text-ink-muted">{t("reader.bookEnd.text", { title: book.title })}</p>}
      <div role="group" aria-label={t("reader.bookEnd.title")} className="mt-4 flex flex-wrap items-center gap-2" data-testid="book-end-actions">
        {isRead ? (
          <p className="inline-flex min-h-10 items-center gap-2 text-sm font-semibold text-accent-strong" data-testid="book-end-read" role="status">
            <CheckIcon />
            {t("reader.bookEnd.marked")}
          </p>
        ) : (
          <button type="button" className={buttonClassName("primary")} disabled={shelve.isPending} onClick={() => shelve.mutate("read")} data-testid="mark-as-read">
            {t("reader.bookEnd.markAsRead")}
          </button>
        )}
        <NextInSeries bookId={book.id} />
        <FollowTheAuthor bookId={book.id} />
        {children}
      </div>
      <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <Link href={bookPath(book)} className={textLinkClassName}>
          {t("reader.bookEnd.backToBook")}
        </Link>
        <Link href="/my-books" className={textLinkClassName}>
          {t("reader.bookEnd.myBooks")}
        </Link>
      </p>
    </aside>
  );
}
