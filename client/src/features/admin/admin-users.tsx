import type { AdminOverview } from "@shared/admin";
import { bookPath } from "@shared/book-urls";
import { useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { AdminResetLinkButton } from "@/features/admin/admin-reset-link";
import { AdminSection } from "@/features/admin/admin-section";
import { AdminTable, Cell, entryClassName, rowClassName } from "@/features/admin/admin-table";
import { useAdminFormat } from "@/features/admin/use-admin-format";
import { useStorageSize } from "@/features/books";
import { SearchIcon } from "@/ui/icons";
import { buttonClassName, textLinkClassName } from "@/ui/styles";

type AdminUser = AdminOverview["users"][number];

/** Lower case without accents, so "jose" finds "José". */
function foldForSearch(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase();
}

function usersMatching(users: AdminUser[], filter: string): AdminUser[] {
  const wanted = foldForSearch(filter.trim());
  if (!wanted) return users;
  return users.filter(({ firstName, lastName, username }) =>
    foldForSearch([firstName, lastName, username].filter(Boolean).join(" ")).includes(wanted),
  );
}

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
              { label: t("admin.fields.downloads"), value: format.integer(book.downloadCount) },
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

/** Every account, with what its books keep of the storage quota each account has (docs/product.md#storage). */
export function AdminUsers({ users, storageQuotaBytes }: { users: AdminUser[]; storageQuotaBytes: number }) {
  const { t } = useTranslation();
  const headingId = useId();
  const filterId = useId();
  const [filter, setFilter] = useState("");
  const shownUsers = useMemo(() => usersMatching(users, filter), [users, filter]);

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
      {users.length === 0 ? (
        <p className="text-ink-muted">{t("admin.users.empty")}</p>
      ) : (
        <>
          <div className="mb-4 max-w-sm">
            <label htmlFor={filterId} className="block text-sm font-medium text-ink">
              {t("admin.users.filterLabel")}
            </label>
            <div className="relative mt-1">
              <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-muted" />
              <input
                id={filterId}
                type="search"
                data-testid="admin-user-filter"
                value={filter}
                onChange={(event) => setFilter(event.target.value)}
                autoComplete="off"
                className="block min-h-11 w-full rounded-md border border-line-strong bg-surface py-2 pr-3 pl-9 text-base text-ink shadow-xs focus-visible:border-accent"
              />
            </div>
          </div>
          {shownUsers.length === 0 ? (
            <p className="text-ink-muted">{t("admin.users.noMatch", { filter: filter.trim() })}</p>
          ) : (
            <AdminTable labelledBy={headingId} columns={columns}>
              {shownUsers.map((user) => (
                <UserEntry key={user.id} user={user} columnCount={columns.length} storageQuotaBytes={storageQuotaBytes} />
              ))}
            </AdminTable>
          )}
        </>
      )}
    </AdminSection>
  );
}
