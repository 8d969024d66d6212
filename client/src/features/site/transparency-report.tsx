import { moderationActions } from "@shared/moderation";
import { noticeCategories } from "@shared/notices";
import { type TransparencyMonth, type TransparencyReport as Report, noticeOutcomes } from "@shared/transparency";
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { useNumberFormat } from "@/lib/use-number-format";

interface Column {
  label: string;
  value: (month: TransparencyMonth) => string;
}

/** A month per row, newest first; a table too wide for a phone scrolls sideways, by keyboard too. */
function MonthTable({ caption, months, columns, testId }: { caption: string; months: TransparencyMonth[]; columns: Column[]; testId: string }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const captionId = useId();
  return (
    <div role="region" aria-labelledby={captionId} tabIndex={0} className="overflow-x-auto rounded-lg border border-line focus-visible:outline-2" data-testid={testId}>
      <table className="w-full text-sm">
        <caption id={captionId} className="px-4 py-3 text-left text-lg font-semibold">
          {caption}
        </caption>
        <thead className="bg-paper">
          <tr>
            <th scope="col" className="px-4 py-2 text-left font-semibold">
              {t("transparency.month")}
            </th>
            {columns.map((column) => (
              <th key={column.label} scope="col" className="px-4 py-2 text-right font-semibold">
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {[...months].reverse().map((month) => (
            <tr key={month.month}>
              <th scope="row" className="px-4 py-2 text-left font-medium whitespace-nowrap">
                {format.month(month.month, "long")}
              </th>
              {columns.map((column) => (
                <td key={column.label} className="px-4 py-2 text-right tabular-nums">
                  {column.value(month)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((total, count) => total + count, 0);

/**
 * The transparency report (docs/product.md#moderation): for each of the last twelve months, the
 * notices received by outcome and by category, the actions taken, and the median time from a notice
 * to its decision. A month without notices shows zeros.
 */
export function TransparencyReport() {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const report = useQuery<Report>({ queryKey: ["/api/transparency"] });
  if (!report.data) {
    return (
      <p role={report.isError ? "alert" : "status"} className="text-ink-muted">
        {t(report.isError ? "transparency.loadError" : "common.loading")}
      </p>
    );
  }
  const { months } = report.data;
  // Minutes under an hour, hours with a decimal under two days, days past them.
  const timeToDecision = (seconds: number) => {
    if (seconds < MINUTE) return t("transparency.underAMinute");
    if (seconds < HOUR) return t("transparency.minutes", { value: format.integer(Math.round(seconds / MINUTE)) });
    if (seconds < 2 * DAY) return t("transparency.hours", { value: format.oneDecimal(seconds / HOUR) });
    return t("transparency.days", { value: format.oneDecimal(seconds / DAY) });
  };
  const count = (value: number) => format.integer(value);
  return (
    <div className="space-y-8" data-testid="transparency-report">
      <MonthTable
        caption={t("transparency.outcomes")}
        months={months}
        testId="transparency-outcomes"
        columns={[
          { label: t("transparency.received"), value: (month) => count(sum(month.noticesByOutcome)) },
          ...noticeOutcomes.map((outcome) => ({ label: t(`transparency.outcome.${outcome}`), value: (month: TransparencyMonth) => count(month.noticesByOutcome[outcome]) })),
          {
            label: t("transparency.median"),
            value: (month) => (month.medianSecondsToDecision === null ? "—" : timeToDecision(month.medianSecondsToDecision)),
          },
        ]}
      />
      <MonthTable
        caption={t("transparency.categories")}
        months={months}
        testId="transparency-categories"
        columns={noticeCategories.map((category) => ({ label: t(`report.categories.${category}.label`), value: (month) => count(month.noticesByCategory[category]) }))}
      />
      <MonthTable
        caption={t("transparency.actions")}
        months={months}
        testId="transparency-actions"
        columns={moderationActions.map((action) => ({ label: t(`moderation.actions.${action}`), value: (month) => count(month.decisionsByAction[action]) }))}
      />
    </div>
  );
}
