import { type DownloadReport, type DownloadTally, emptyTally, NOT_COUNTED_REASONS } from "@shared/download-report";
import type { UseQueryResult } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Panel } from "@/ui/panel";
import { SelectField } from "@/ui/select-field";
import { useNumberFormat } from "@/lib/use-number-format";

/** Every month of the report, or one of them. */
const ALL_MONTHS = "";

function addTally(sum: DownloadTally, tally: DownloadTally): void {
  sum.logged += tally.logged;
  sum.counted += tally.counted;
  for (const reason of NOT_COUNTED_REASONS) sum.notCounted[reason] += tally.notCounted[reason];
}

/** Counted in the accent, not counted in amber: the same two colours as the swatches of the figures below. */
function TallyBar({ tally }: { tally: DownloadTally }) {
  const countedShare = tally.logged === 0 ? 0 : (tally.counted / tally.logged) * 100;
  return (
    <div aria-hidden="true" className="flex h-2 overflow-hidden rounded-full bg-amber-300">
      <div className="bg-accent" style={{ width: `${countedShare}%` }} />
    </div>
  );
}

function Swatch({ className }: { className: string }) {
  return <span aria-hidden="true" className={`inline-block size-2.5 shrink-0 rounded-full ${className}`} />;
}

/** Downloads, counted and not counted, then each reason a download did not count: the figures add up. */
function TallyDetails({ tally }: { tally: DownloadTally }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const notCounted = tally.logged - tally.counted;
  const reasons = NOT_COUNTED_REASONS.filter((reason) => tally.notCounted[reason] > 0);
  // A phone lists the three figures as "21 Downloads" lines, where three columns would crush long words
  // ("Téléchargements"); wider screens put them side by side, the number above its label.
  const item = "flex flex-row-reverse items-baseline justify-end gap-2 sm:flex-col-reverse sm:items-start sm:justify-start sm:gap-0";
  const figure = "font-serif text-xl font-semibold tabular-nums sm:text-2xl";
  const label = "flex items-center gap-1.5 text-sm text-ink-muted";
  return (
    <div className="space-y-3">
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-3">
        <div className={item}>
          <dt className={label}>{t("dashboard.report.downloads")}</dt>
          <dd data-testid="report-logged" className={figure}>
            {format.integer(tally.logged)}
          </dd>
        </div>
        <div className={item}>
          <dt className={label}>
            <Swatch className="bg-accent" />
            {t("dashboard.report.counted")}
          </dt>
          <dd data-testid="report-counted" className={`${figure} text-accent`}>
            {format.integer(tally.counted)}
          </dd>
        </div>
        <div className={item}>
          <dt className={label}>
            <Swatch className="bg-amber-300 ring-1 ring-amber-500" />
            {t("dashboard.report.notCounted")}
          </dt>
          <dd data-testid="report-not-counted" className={figure}>
            {format.integer(notCounted)}
          </dd>
        </div>
      </dl>
      <TallyBar tally={tally} />
      {reasons.length > 0 && (
        <div className="rounded-md bg-paper px-3 py-2 text-sm">
          <p className="text-xs font-semibold tracking-wide text-ink-muted uppercase">{t("dashboard.report.whyNotCounted")}</p>
          <dl className="mt-1 divide-y divide-line/70">
            {reasons.map((reason) => (
              <div key={reason} data-reason={reason} className="flex items-baseline justify-between gap-3 py-1.5">
                <dt className="min-w-0">{t(`dashboard.report.reason.${reason}`)}</dt>
                <dd className="font-semibold tabular-nums">{format.integer(tally.notCounted[reason])}</dd>
              </div>
            ))}
          </dl>
        </div>
      )}
    </div>
  );
}

function ReportContent({ report }: { report: DownloadReport }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const [month, setMonth] = useState(ALL_MONTHS);
  const booksHeadingId = useId();
  const totalHeadingId = useId();

  if (report.books.length === 0) {
    return (
      <p data-testid="download-report-empty" className="mt-4 text-sm text-ink-muted">
        {t("dashboard.report.empty", { count: report.months.length })}
      </p>
    );
  }

  // Only the months with a download are worth choosing, newest first.
  const monthsWithDownloads = [...new Set(report.books.flatMap((book) => book.months.map((entry) => entry.month)))].sort().reverse();
  const rows = report.books.flatMap((book) => {
    const tally = month === ALL_MONTHS ? book.total : book.months.find((entry) => entry.month === month);
    return tally && tally.logged > 0 ? [{ book, tally }] : [];
  });
  const total = emptyTally();
  for (const { tally } of rows) addTally(total, tally);

  return (
    <div className="mt-4 space-y-5">
      <SelectField
        label={t("dashboard.report.period")}
        value={month}
        onChange={(event) => setMonth(event.target.value)}
        options={[
          { value: ALL_MONTHS, label: t("dashboard.report.allMonths", { count: report.months.length }) },
          ...monthsWithDownloads.map((value) => ({ value, label: format.month(value, "long") })),
        ]}
        className="sm:max-w-xs"
      />
      {/* With one book, its figures are the totals. */}
      {rows.length > 1 && (
        <section aria-labelledby={totalHeadingId} data-testid="download-report-total" className="rounded-lg border border-line p-4">
          <h3 id={totalHeadingId} className="mb-3 text-lg font-semibold">
            {t("dashboard.report.allBooks")}
          </h3>
          <TallyDetails tally={total} />
        </section>
      )}
      <section aria-labelledby={booksHeadingId}>
        <h3 id={booksHeadingId} className="sr-only">
          {t("dashboard.report.byBook")}
        </h3>
        <ul role="list" className="divide-y divide-line">
          {rows.map(({ book, tally }) => (
            <li key={book.bookId} data-testid="download-report-book" data-book-id={book.bookId} className="py-4 last:pb-0">
              <h4 className="mb-3 flex flex-wrap items-center gap-2 font-serif text-lg font-semibold break-words">
                {book.title}{" "}
                {book.deleted && (
                  <span className="rounded-full border border-line px-2 py-0.5 text-xs font-medium text-ink-muted">{t("dashboard.report.deleted")}</span>
                )}
              </h4>
              <TallyDetails tally={tally} />
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

/**
 * Every logged download of the author's books per book and month, counted or not with its reason, so
 * no figure goes unexplained (docs/product.md#what-authors-see). Stacked rather than tabled: it reads
 * the same on a phone, with nothing to scroll sideways.
 */
export function DownloadReportPanel({ report }: { report: UseQueryResult<DownloadReport> }) {
  const { t } = useTranslation();
  return (
    <Panel title={t("dashboard.report.title")} description={t("dashboard.report.subtitle")}>
      <div data-testid="download-report">
        {report.isPending && <p className="mt-4 text-sm text-ink-muted">{t("common.loading")}</p>}
        {report.isError && <p className="mt-4 text-sm text-ink-muted">{t("dashboard.report.fetchError")}</p>}
        {report.data && <ReportContent report={report.data} />}
      </div>
    </Panel>
  );
}
