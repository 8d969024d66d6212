import { type ReactNode, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { SearchIcon } from "@/ui/icons";
import { buttonClassName } from "@/ui/styles";
import { useAdminFormat } from "@/features/admin/use-admin-format";

/** How long typing pauses before the list is asked again. */
const SEARCH_PAUSE_MS = 300;

/** A search field for a server-side list: what is typed is asked for once the typing pauses. */
export function AdminSearchField({ label, value, onSearch, testId }: { label: string; value: string; onSearch: (q: string) => void; testId: string }) {
  const id = useId();
  const [typed, setTyped] = useState(value);
  useEffect(() => {
    if (typed.trim() === value) return;
    const timer = window.setTimeout(() => onSearch(typed), SEARCH_PAUSE_MS);
    return () => window.clearTimeout(timer);
  }, [typed, value, onSearch]);
  return (
    <div className="max-w-sm min-w-0 flex-1">
      <label htmlFor={id} className="block text-sm font-medium text-ink">
        {label}
      </label>
      <div className="relative mt-1">
        <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-muted" />
        <input
          id={id}
          type="search"
          data-testid={testId}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") onSearch(typed);
          }}
          autoComplete="off"
          className="block min-h-11 w-full rounded-md border border-line-strong bg-surface py-2 pr-3 pl-9 text-base text-ink shadow-xs focus-visible:border-accent"
        />
      </div>
    </div>
  );
}

/** "Page 2 of 40 · 987 accounts", with the previous and next pages. */
export function AdminPager({ page, pageSize, total, countText, onPage }: { page: number; pageSize: number; total: number; countText: string; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  const format = useAdminFormat();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav aria-label={t("admin.pager.label")} data-testid="admin-pager" className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="text-ink-muted" aria-live="polite">
        {t("admin.pager.position", { page: format.integer(page), pages: format.integer(pages) })} · {countText}
      </p>
      <div className="flex gap-2">
        <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)} className={buttonClassName("secondary")}>
          {t("admin.pager.previous")}
        </button>
        <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)} className={buttonClassName("secondary")}>
          {t("admin.pager.next")}
        </button>
      </div>
    </nav>
  );
}

/** The search and the view above a list. */
export function AdminListBar({ children }: { children: ReactNode }) {
  return <div className="mb-4 flex flex-wrap items-end gap-4">{children}</div>;
}
