import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Spinner } from "@/ui/icons";
import { buttonClassName } from "@/ui/styles";
import { errorText } from "@/lib/error-text";

interface AdminSectionProps {
  headingId: string;
  title: string;
  description?: string;
  testId: string;
  children: ReactNode;
}

/** One part of the admin panel, named by its heading. */
export function AdminSection({ headingId, title, description, testId, children }: AdminSectionProps) {
  return (
    <section aria-labelledby={headingId} data-testid={testId}>
      <h2 id={headingId} className="text-2xl font-semibold">
        {title}
      </h2>
      {description && <p className="mt-1 max-w-prose text-ink-muted">{description}</p>}
      <div className="mt-5">{children}</div>
    </section>
  );
}

export type NoticeTone = "success" | "warning" | "danger";

const noticeToneClassNames: Record<NoticeTone, string> = {
  success: "border-accent/40 bg-accent-soft text-accent-strong",
  warning: "border-amber-300 bg-amber-50 text-amber-950",
  danger: "border-danger bg-danger-soft text-danger",
};

interface NoticeProps {
  tone: NoticeTone;
  title: string;
  children?: ReactNode;
  role?: "alert" | "status";
}

/** A boxed message about a whole section: all clear, a warning, or a failure. */
export function Notice({ tone, title, children, role }: NoticeProps) {
  return (
    <div role={role} className={`rounded-xl border px-4 py-3 ${noticeToneClassNames[tone]}`}>
      <p className="font-semibold">{title}</p>
      {children && <div className="mt-1 text-sm">{children}</div>}
    </div>
  );
}

export function AdminOnlyNotice() {
  const { t } = useTranslation();
  return (
    <Notice tone="warning" title={t("admin.adminOnly.title")} role="alert">
      {t("admin.adminOnly.description")}
    </Notice>
  );
}

interface SectionSkeletonProps {
  /** Figure cards drawn above the rows. */
  cards?: number;
  rows: number;
}

/** Grey shapes where the data will appear; announced once as "Loading…". */
export function SectionSkeleton({ cards = 0, rows }: SectionSkeletonProps) {
  const { t } = useTranslation();
  const bar = "animate-pulse rounded-xl bg-line/70 motion-reduce:animate-none";
  return (
    <div role="status" className="space-y-6">
      <span className="sr-only">{t("common.loading")}</span>
      {cards > 0 && (
        <div aria-hidden="true" className="grid gap-4 sm:grid-cols-3">
          {Array.from({ length: cards }, (_, index) => (
            <div key={index} className={`h-24 ${bar}`} />
          ))}
        </div>
      )}
      <div aria-hidden="true" className="space-y-3">
        {Array.from({ length: rows }, (_, index) => (
          <div key={index} className={`h-14 ${bar}`} />
        ))}
      </div>
    </div>
  );
}

interface QueryBoundaryProps<T> {
  query: UseQueryResult<T>;
  /** Translation key of the sentence saying what could not be loaded. */
  loadErrorKey: string;
  skeleton: ReactNode;
  children: (data: T) => ReactNode;
}

/** The data once loaded, a skeleton before, and a failure with a retry when there is nothing to show. */
export function QueryBoundary<T>({ query, loadErrorKey, skeleton, children }: QueryBoundaryProps<T>) {
  const { t } = useTranslation();
  // Data already shown stays when a later refresh fails.
  if (query.data !== undefined) return children(query.data);
  if (query.isPending) return skeleton;
  return (
    <Notice tone="danger" title={t(loadErrorKey)} role="alert">
      <p>{errorText(query.error)}</p>
      <button
        type="button"
        disabled={query.isFetching}
        onClick={() => void query.refetch()}
        className={buttonClassName("secondary", "mt-3")}
      >
        {query.isFetching && <Spinner />}
        {t(query.isFetching ? "common.loading" : "admin.retry")}
      </button>
    </Notice>
  );
}
