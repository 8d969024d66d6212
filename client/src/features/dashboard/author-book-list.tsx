import { bookPath } from "@shared/book-urls";
import type { BookCard } from "@shared/books";
import type { UseQueryResult } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { BookCover } from "@/features/books";
import { useDeleteBook } from "@/features/books";
import { MODERATION_STATEMENTS_ANCHOR } from "@/features/dashboard/moderation-statements";
import { MilestoneProgress } from "@/features/rewards";
import { ConfirmDialog } from "@/ui/confirm-dialog";
import { EmptyState } from "@/ui/empty-state";
import { DownloadIcon, PencilIcon, TrashIcon } from "@/ui/icons";
import { buttonClassName, panelClassName, textLinkClassName } from "@/ui/styles";
import { useNumberFormat } from "@/lib/use-number-format";

function AuthorBookRow({ book, onDelete }: { book: BookCard; onDelete: (book: BookCard) => void }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const forThisBook = (
    <span className="sr-only" lang={book.language}>
      {`: ${book.title}`}
    </span>
  );
  return (
    <li data-testid="author-book" data-book-id={book.id} className="flex gap-4 py-5 first:pt-0 last:pb-0">
      <BookCover book={book} className="w-14 shrink-0 self-start rounded-md shadow-sm sm:w-16" sizes="4rem" initialClassName="text-2xl" />
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0">
            <h3 lang={book.language} className="text-lg leading-snug font-semibold break-words">
              <Link href={bookPath(book)} className="rounded-sm hover:text-accent hover:underline hover:underline-offset-2">
                {book.title}
              </Link>
            </h3>
            <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-ink-muted">
              {book.genre && (
                <span className="rounded-full bg-accent-soft px-2.5 py-0.5 text-xs font-semibold text-accent-strong">
                  <span className="sr-only">{t("book.genreLabel")} </span>
                  {t(`genres.${book.genre}`)}
                </span>
              )}
              {book.moderationState && (
                <a
                  href={`#${MODERATION_STATEMENTS_ANCHOR}`}
                  data-testid="moderation-state"
                  className={`rounded-full border px-2.5 py-0.5 text-xs font-semibold ${book.moderationState === "hidden" ? "border-amber-300 bg-amber-50 text-amber-900" : "border-danger/40 bg-danger-soft text-danger"}`}
                >
                  {t(`moderation.states.${book.moderationState}`)}
                  <span className="underline underline-offset-2"> {t("moderation.why")}</span>
                </a>
              )}
              <span>{t("dashboard.books.publishedOn", { date: format.date(book.createdAt) })}</span>
              <span className="inline-flex items-center gap-1">
                <DownloadIcon className="size-3.5" />
                {t("dashboard.books.downloads", { count: book.downloadCount, formatted: format.integer(book.downloadCount) })}
              </span>
            </p>
          </div>
          <div className="flex flex-wrap gap-2 sm:shrink-0">
            <Link href={`/edit-book/${book.id}`} data-testid={`edit-book-${book.id}`} className={buttonClassName("secondary")}>
              <PencilIcon />
              {t("dashboard.books.edit")}
              {forThisBook}
            </Link>
            <Link href={`/edit-book/${book.id}#new-edition`} data-testid={`new-edition-${book.id}`} className={buttonClassName("secondary")}>
              {t("dashboard.books.newEdition")}
              {forThisBook}
            </Link>
            <button
              type="button"
              data-testid={`delete-book-${book.id}`}
              onClick={() => onDelete(book)}
              className={buttonClassName("dangerOutline")}
            >
              <TrashIcon />
              {t("dashboard.books.delete")}
              {forThisBook}
            </button>
          </div>
        </div>
        {book.moderationState === "removed-terms" || book.moderationState === "removed-legal" ? (
          // A removed book can be taken by no one: no progress to show toward a PME it cannot earn.
          <p data-testid="removed-earns-nothing" className="mt-3 text-sm text-ink-muted">
            {t("dashboard.books.removedEarnsNothing")}
          </p>
        ) : (
          <MilestoneProgress downloads={book.downloadCount} bookTitle={book.title} />
        )}
      </div>
    </li>
  );
}

function AuthorBookSkeleton() {
  const { t } = useTranslation();
  const bar = "rounded bg-line/70";
  return (
    <div role="status" className="animate-pulse space-y-5 motion-reduce:animate-none">
      <span className="sr-only">{t("common.loading")}</span>
      {[0, 1].map((row) => (
        <div key={row} aria-hidden="true" className="flex gap-4">
          <div className={`aspect-[2/3] w-14 sm:w-16 ${bar}`} />
          <div className="flex-1 space-y-3">
            <div className={`h-5 w-2/3 ${bar}`} />
            <div className={`h-4 w-1/2 ${bar}`} />
            <div className={`h-2 w-full ${bar}`} />
          </div>
        </div>
      ))}
    </div>
  );
}

function AuthorBooksContent({ books, onDelete }: { books: UseQueryResult<BookCard[]>; onDelete: (book: BookCard) => void }) {
  const { t } = useTranslation();
  if (books.isPending) return <AuthorBookSkeleton />;
  if (books.isError) {
    return (
      <p className="text-ink-muted">
        {t("dashboard.books.fetchError")}{" "}
        <button type="button" onClick={() => void books.refetch()} className={textLinkClassName}>
          {t("catalog.retry")}
        </button>
      </p>
    );
  }
  if (books.data.length === 0) {
    return (
      <EmptyState
        headingLevel={3}
        title={t("dashboard.books.emptyTitle")}
        hint={t("dashboard.books.emptyHint")}
        action={
          <Link href="/upload" className={buttonClassName("primary")}>
            {t("dashboard.books.uploadFirst")}
          </Link>
        }
      />
    );
  }
  return (
    <ul role="list" className="divide-y divide-line">
      {books.data.map((book) => (
        <AuthorBookRow key={book.id} book={book} onDelete={onDelete} />
      ))}
    </ul>
  );
}

/** The author's books with their progress toward the next PME, and the way to edit or delete each. */
export function AuthorBookList({ books }: { books: UseQueryResult<BookCard[]> }) {
  const { t } = useTranslation();
  const [bookToDelete, setBookToDelete] = useState<BookCard | null>(null);
  const deleteBook = useDeleteBook();
  const headingRef = useRef<HTMLHeadingElement>(null);
  // After a deletion the dialog closes in the same render that drops the book's row, so its focus
  // falls back to the heading rather than to a delete button that no longer exists.
  const dialogBook = bookToDelete && books.data?.some(({ id }) => id === bookToDelete.id) ? bookToDelete : null;

  const confirmDelete = () => {
    if (dialogBook) deleteBook.mutate(dialogBook, { onError: () => setBookToDelete(null) });
  };

  return (
    <section aria-labelledby="author-books-title" className={panelClassName}>
      <div className="mb-5 flex flex-wrap items-center justify-between gap-3">
        {/* Takes the focus when a deleted book's row, and its delete button, are gone. */}
        <h2 id="author-books-title" ref={headingRef} tabIndex={-1} className="text-2xl font-semibold">
          {t("dashboard.books.title")}
        </h2>
        {books.data && books.data.length > 0 && (
          <Link href="/upload" className={buttonClassName("primary")}>
            {t("dashboard.books.upload")}
          </Link>
        )}
      </div>
      <AuthorBooksContent books={books} onDelete={setBookToDelete} />
      {dialogBook && (
        <ConfirmDialog
          title={t("dashboard.books.confirmTitle")}
          description={t("dashboard.books.confirmDescription", { title: dialogBook.title })}
          confirmLabel={t("dashboard.books.confirmDelete")}
          pendingLabel={t("dashboard.books.deleting")}
          isPending={deleteBook.isPending}
          onConfirm={confirmDelete}
          onCancel={() => setBookToDelete(null)}
          confirmTestId="confirm-delete"
          fallbackFocus={headingRef}
        />
      )}
    </section>
  );
}
