import type { AdminUser } from "@shared/admin";
import { bookPath } from "@shared/book-urls";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { AdminResetLinkButton } from "@/features/admin/admin-reset-link";
import { AdminSection, QueryBoundary, SectionSkeleton } from "@/features/admin/admin-section";
import { AdminListBar, AdminPager, AdminSearchField } from "@/features/admin/admin-list-controls";
import { useAdminListAddress } from "@/features/admin/admin-list-address";
import { useAdminUsers } from "@/features/admin/admin-queries";
import { AdminTable, Cell, entryClassName, rowClassName } from "@/features/admin/admin-table";
import { useAdminFormat } from "@/features/admin/use-admin-format";
import { useStorageSize } from "@/features/books";
import { buttonClassName, textLinkClassName } from "@/ui/styles";

function ChevronIcon({ expanded }: { expanded: boolean }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      className={`size-4 transition-transform motion-reduce:transition-none ${expanded ? "rotate-180" : ""}`}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="m5 7.5 5 5 5-5" />
    </svg>
  );
}

function UserBooks({ books }: { books: AdminUser["books"] }) {
  const { t } = useTranslation();
  const format = useAdminFormat();
  if (books.length === 0) return <p className="text-ink-muted">{t("admin.users.noBooks")}</p>;
  return (
    <ul role="list" className="divide-y divide-line rounded-lg border border-line bg-paper">
      {books.map((book) => (
        <li key={book.id} className="grid gap-2 px-4 py-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center sm:gap-6">
          <p className="font-medium break-words">
            <Link href={bookPath(book)} className={textLinkClassName}>
              {book.title}
            </Link>
          </p>
          <dl className="grid grid-cols-3 gap-4 text-sm sm:flex sm:gap-6">
            {[
              { label: t("admin.fields.bookId"), value: format.id(book.id) },
              { label: t("admin.fields.countedDownloads"), value: format.integer(book.downloadCount) },
              { label: t("admin.fields.tokensEarned"), value: format.tokens(book.tokensEarned) },
            ].map(({ label, value }) => (
              <div key={label} className="flex flex-col-reverse justify-end">
                <dt className="text-xs text-ink-muted">{label}</dt>
                <dd className="font-semibold tabular-nums">{value}</dd>
              </div>
            ))}
          </dl>
        </li>
      ))}
    </ul>
  );
}

function UserEntry({ user, columnCount, storageQuotaBytes }: { user: AdminUser; columnCount: number; storageQuotaBytes: number }) {
  const { t } = useTranslation();
  const format = useAdminFormat();
  const size = useStorageSize();
  const [expanded, setExpanded] = useState(false);
  const usernameId = useId();
  const booksId = useId();
  return (
    <tbody role="rowgroup" data-testid="admin-user" data-user-id={user.id} className={entryClassName}>
      <tr role="row" className={rowClassName}>
        <Cell label={t("admin.fields.firstName")}>{user.firstName || "—"}</Cell>
        <Cell label={t("admin.fields.lastName")}>{user.lastName || "—"}</Cell>
        <Cell label={t("admin.fields.username")} id={usernameId} className="font-medium">
          {user.username}
        </Cell>
        <Cell label={t("admin.fields.booksCount")} className="tabular-nums">
          {format.integer(user.booksCount)}
        </Cell>
        <Cell label={t("admin.fields.totalDownloads")} className="tabular-nums">
          {format.integer(user.totalDownloads)}
        </Cell>
        <Cell label={t("admin.fields.storage")} className="tabular-nums">
          {t("storage.ofLimit", { used: size(user.storageBytes), limit: size(storageQuotaBytes) })}
        </Cell>
        <Cell className="lg:text-right">
          <div className="flex flex-col gap-2 max-lg:mt-2 lg:flex-row lg:justify-end">
            <AdminResetLinkButton userId={user.id} name={[user.firstName, user.lastName].filter(Boolean).join(" ") || user.username} describedBy={usernameId} />
            <button
              type="button"
              aria-expanded={expanded}
              aria-controls={booksId}
              aria-describedby={usernameId}
              onClick={() => setExpanded((isExpanded) => !isExpanded)}
              className={buttonClassName("ghost", "max-lg:w-full")}
            >
              {t(expanded ? "admin.users.hideBooks" : "admin.users.showBooks")}
              <ChevronIcon expanded={expanded} />
            </button>
          </div>
        </Cell>
      </tr>
      <tr role="row" id={booksId} hidden={!expanded} className={rowClassName}>
        <Cell colSpan={columnCount} className="lg:pt-0">
          <UserBooks books={user.books} />
        </Cell>
      </tr>
    </tbody>
  );
}

const USERS_SKELETON = <SectionSkeleton rows={5} />;

/**
 * The accounts a page at a time, searched on the server by name, username or e-mail (case and accents
 * aside), with what their books keep of the storage quota each account has (docs/product.md#admin).
 */
export function AdminUsers({ storageQuotaBytes }: { storageQuotaBytes: number }) {
  const { t } = useTranslation();
  const format = useAdminFormat();
  const headingId = useId();
  const address = useAdminListAddress();
  const users = useAdminUsers({ q: address.q, page: address.page });

  const columns = [
    { label: t("admin.fields.firstName") },
    { label: t("admin.fields.lastName") },
    { label: t("admin.fields.username") },
    { label: t("admin.fields.booksCount") },
    { label: t("admin.fields.totalDownloads") },
    { label: t("admin.fields.storage") },
    { label: t("admin.users.booksColumn"), hideLabel: true },
  ];

  return (
    <AdminSection headingId={headingId} title={t("admin.users.heading")} description={t("admin.users.description")} testId="admin-users">
      <AdminListBar>
        <AdminSearchField label={t("admin.users.filterLabel")} value={address.q} onSearch={(q) => address.change({ q })} testId="admin-user-filter" />
      </AdminListBar>
      <QueryBoundary query={users} loadErrorKey="admin.users.loadError" skeleton={USERS_SKELETON}>
        {({ items, total, page, pageSize }) =>
          items.length === 0 ? (
            <p className="text-ink-muted">{address.q ? t("admin.users.noMatch", { filter: address.q }) : t("admin.users.empty")}</p>
          ) : (
            <>
              <AdminTable labelledBy={headingId} columns={columns}>
                {items.map((user) => (
                  <UserEntry key={user.id} user={user} columnCount={columns.length} storageQuotaBytes={storageQuotaBytes} />
                ))}
              </AdminTable>
              <AdminPager
                page={page}
                pageSize={pageSize}
                total={total}
                countText={t("admin.users.count", { count: total, formatted: format.integer(total) })}
                onPage={(next) => address.change({ page: next })}
              />
            </>
          )
        }
      </QueryBoundary>
    </AdminSection>
  );
}
