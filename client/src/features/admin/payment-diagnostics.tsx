import { ADMIN_BOOK_VIEWS, type AdminBookView, type BookDiagnostics } from "@shared/admin";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useBookDiagnostics, useMarkAsFirstBook } from "@/features/admin/admin-queries";
import { AdminListBar, AdminPager, AdminSearchField } from "@/features/admin/admin-list-controls";
import { useAdminListAddress } from "@/features/admin/admin-list-address";
import { AdminSection, QueryBoundary, SectionSkeleton } from "@/features/admin/admin-section";
import { AdminTable, Cell, entryClassName, stackedBodyClassName } from "@/features/admin/admin-table";
import { Badge } from "@/features/admin/badge";
import { useAdminFormat } from "@/features/admin/use-admin-format";
import { ConfirmDialog } from "@/ui/confirm-dialog";
import { Spinner } from "@/ui/icons";
import { buttonClassName } from "@/ui/styles";

/** The admin's fix, asked first in a dialog: an author has one first book, and a bonus it makes owed cannot be taken back. */
function MarkAsFirstBookButton({ book, describedBy }: { book: BookDiagnostics; describedBy: string }) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const markAsFirstBook = useMarkAsFirstBook(book);
  const confirm = () => markAsFirstBook.mutate(undefined, { onSettled: () => setConfirming(false) });
  return (
    <>
      <button
        type="button"
        data-testid={`fix-first-book-${book.bookId}`}
        aria-describedby={describedBy}
        aria-busy={markAsFirstBook.isPending}
        disabled={markAsFirstBook.isPending}
        onClick={() => setConfirming(true)}
        className={buttonClassName("secondary", "max-lg:mt-2 max-lg:w-full lg:whitespace-normal")}
      >
        {markAsFirstBook.isPending && <Spinner />}
        {t(markAsFirstBook.isPending ? "admin.diagnostics.fix.marking" : "admin.diagnostics.fix.markAsFirstBook")}
      </button>
      {confirming && (
        <ConfirmDialog
          title={
            book.authorName
              ? t("admin.diagnostics.fix.confirmTitle", { title: book.bookTitle, author: book.authorName })
              : t("admin.diagnostics.fix.confirmTitleNoName", { title: book.bookTitle })
          }
          description={t("admin.diagnostics.fix.confirmBody")}
          confirmLabel={t("admin.diagnostics.fix.confirm")}
          pendingLabel={t("admin.diagnostics.fix.marking")}
          isPending={markAsFirstBook.isPending}
          onConfirm={confirm}
          onCancel={() => setConfirming(false)}
          confirmTestId={`fix-first-book-confirm-${book.bookId}`}
        />
      )}
    </>
  );
}

/** What the last cell offers: the fix for a book that could be its author's first, else which book is. */
function FirstBookAction({ book, describedBy }: { book: BookDiagnostics; describedBy: string }) {
  const { t } = useTranslation();
  const format = useAdminFormat();
  if (!book.issues.includes("not_marked_as_first_book")) return null;
  if (book.authorFirstBookId === null) return <MarkAsFirstBookButton book={book} describedBy={describedBy} />;
  return (
    <p data-testid={`first-book-of-author-${book.bookId}`} className="text-ink-muted">
      {t("admin.diagnostics.fix.firstBookIs", { id: format.id(book.authorFirstBookId) })}
    </p>
  );
}

function IssueChips({ issues }: { issues: BookDiagnostics["issues"] }) {
  const { t } = useTranslation();
  if (issues.length === 0) return <span className="text-ink-muted">{t("admin.diagnostics.noIssues")}</span>;
  return (
    <ul role="list" className="flex flex-wrap gap-1.5">
      {issues.map((issue) => (
        <li key={issue} data-issue={issue}>
          <Badge tone="warning">{t(`admin.diagnostics.issue.${issue}`)}</Badge>
        </li>
      ))}
    </ul>
  );
}

/**
 * A restricted book's state, what was already paid for it (on the author's wallet, it cannot be taken
 * back on chain) and what a removal cancelled (docs/decisions/0090).
 */
function ModerationNote({ book }: { book: BookDiagnostics }) {
  const { t } = useTranslation();
  const format = useAdminFormat();
  if (book.moderationState === null) return null;
  const removed = book.moderationState !== "hidden";
  return (
    <div data-testid="diagnostic-moderation" className="mt-1 space-y-1">
      <Badge tone={removed ? "negative" : "warning"}>{t(`moderation.states.${book.moderationState}`)}</Badge>
      <dl className="text-sm">
        <div>
          <dt className="inline font-medium">{t("admin.fields.paidAmount")}: </dt>
          <dd className="inline tabular-nums">{format.tokens(book.paidAmount)}</dd>
        </div>
        <div>
          <dt className="inline font-medium">{t("admin.fields.cancelledAmount")}: </dt>
          <dd className="inline tabular-nums">{format.tokens(book.cancelledAmount)}</dd>
        </div>
      </dl>
      {removed && Number(book.paidAmount) > 0 && <p className="text-sm text-ink-muted">{t("admin.diagnostics.paidCannotReturn")}</p>}
    </div>
  );
}

function DiagnosticRow({ book }: { book: BookDiagnostics }) {
  const { t } = useTranslation();
  const format = useAdminFormat();
  const titleId = useId();
  return (
    <tr role="row" data-testid="diagnostic-row" data-book-id={book.bookId} className={entryClassName}>
      <Cell>
        <p id={titleId} className="font-semibold wrap-anywhere max-lg:font-serif max-lg:text-lg">
          {book.bookTitle}
        </p>
        <p className="text-ink-muted">{format.id(book.bookId)}</p>
        <ModerationNote book={book} />
      </Cell>
      <Cell label={t("admin.fields.author")}>
        <p className={book.authorName ? "font-medium" : "text-ink-muted"}>{book.authorName ?? t("admin.diagnostics.noAuthorName")}</p>
        {/* Anywhere, not only between words: a long address would otherwise set the column's width (a table sizes columns by their longest unbreakable run). */}
        {book.authorEmail && <p className="wrap-anywhere text-ink-muted">{book.authorEmail}</p>}
      </Cell>
      <Cell label={t("admin.fields.countedDownloads")} className="tabular-nums">
        {format.integer(book.downloadCount)}
      </Cell>
      <Cell label={t("admin.fields.paidMilestones")} className="tabular-nums">
        {format.integer(book.paidMilestones)}
      </Cell>
      <Cell label={t("admin.diagnostics.canReceiveBonus")}>
        <Badge tone={book.canReceiveFirstBookBonus ? "positive" : "negative"}>
          {t(book.canReceiveFirstBookBonus ? "admin.diagnostics.yes" : "admin.diagnostics.no")}
        </Badge>
      </Cell>
      <Cell label={t("admin.diagnostics.issues")} className="lg:min-w-52">
        <IssueChips issues={book.issues} />
      </Cell>
      <Cell>
        <FirstBookAction book={book} describedBy={titleId} />
      </Cell>
    </tr>
  );
}

const DIAGNOSTICS_SKELETON = <SectionSkeleton rows={5} />;

/** The view the address names; anything else is the default, the books that need the admin. */
const viewOf = (show: string | null): AdminBookView => (show === "all" ? "all" : "attention");

/**
 * The books' payment diagnostics a page at a time (docs/product.md#admin): by default only those that
 * need the admin — a book moderation restricts, a first-book bonus the offer owed and did not pay — or
 * all of them; searched by title or author.
 */
export function PaymentDiagnosticsTable() {
  const { t } = useTranslation();
  const format = useAdminFormat();
  const headingId = useId();
  const address = useAdminListAddress();
  const show = viewOf(address.show);
  const books = useBookDiagnostics({ q: address.q, show, page: address.page });
  const columns = [
    { label: t("admin.fields.book") },
    { label: t("admin.fields.author") },
    { label: t("admin.fields.countedDownloads") },
    { label: t("admin.fields.paidMilestones") },
    { label: t("admin.diagnostics.canReceiveBonus") },
    { label: t("admin.diagnostics.issues") },
    { label: t("admin.fields.actions"), hideLabel: true },
  ];
  return (
    <AdminSection
      headingId={headingId}
      title={t("admin.diagnostics.heading")}
      description={t("admin.diagnostics.description")}
      testId="admin-diagnostics"
    >
      <AdminListBar>
        <AdminSearchField label={t("admin.diagnostics.searchLabel")} value={address.q} onSearch={(q) => address.change({ q })} testId="admin-book-filter" />
        <fieldset className="flex flex-wrap gap-2">
          <legend className="sr-only">{t("admin.diagnostics.viewLabel")}</legend>
          {ADMIN_BOOK_VIEWS.map((view) => (
            <label key={view} data-testid={`admin-book-view-${view}`} className={`${buttonClassName(view === show ? "primary" : "secondary")} cursor-pointer has-[:focus-visible]:ring-2`}>
              <input type="radio" name={`${headingId}-view`} value={view} checked={view === show} onChange={() => address.change({ show: view })} className="sr-only" />
              {t(`admin.diagnostics.view.${view}`)}
            </label>
          ))}
        </fieldset>
      </AdminListBar>
      <QueryBoundary query={books} loadErrorKey="admin.diagnostics.loadError" skeleton={DIAGNOSTICS_SKELETON}>
        {({ items, total, page, pageSize }) =>
          items.length === 0 ? (
            <p className="text-ink-muted">{t(address.q ? "admin.diagnostics.noMatch" : show === "attention" ? "admin.diagnostics.nothingNeedsAttention" : "admin.diagnostics.empty", { filter: address.q })}</p>
          ) : (
            <>
              <AdminTable labelledBy={headingId} columns={columns}>
                <tbody role="rowgroup" className={stackedBodyClassName}>
                  {items.map((book) => (
                    <DiagnosticRow key={book.bookId} book={book} />
                  ))}
                </tbody>
              </AdminTable>
              <AdminPager
                page={page}
                pageSize={pageSize}
                total={total}
                countText={t("admin.diagnostics.count", { count: total, formatted: format.integer(total) })}
                onPage={(next) => address.change({ page: next })}
              />
            </>
          )
        }
      </QueryBoundary>
    </AdminSection>
  );
}
