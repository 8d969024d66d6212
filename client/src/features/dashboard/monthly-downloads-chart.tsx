import type { MonthlyDownloads } from "@shared/books";
import { useTranslation } from "react-i18next";
import { useNumberFormat } from "@/lib/use-number-format";

/** The drawing's own units: one column per month, bars a little narrower so they stand apart. */
const COLUMN_WIDTH = 10;
const BAR_WIDTH = 7;
const CHART_HEIGHT = 100;

/**
 * The author's counted downloads per month, last 12 months (docs/product.md#screens): bars drawn in SVG,
 * one image with a summary for assistive technology, and the figures as a table for those who want them.
 * Loaded lazily, after the rest of the dashboard.
 */
export function MonthlyDownloadsChart({ months }: { months: MonthlyDownloads[] }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const highest = Math.max(...months.map((month) => month.downloads), 0);
  const total = months.reduce((sum, month) => sum + month.downloads, 0);
  const best = months.find((month) => month.downloads === highest);
  const hasDownloads = total > 0 && best !== undefined;
  const summary = hasDownloads
    ? t("dashboard.chart.summary", {
        months: months.length,
        total: format.integer(total),
        bestMonth: format.month(best.month, "long"),
        best: format.integer(best.downloads),
      })
    : t("dashboard.chart.summaryEmpty", { months: months.length });

  return (
    <div>
      <div className="flex gap-2">
        {/* The scale: the highest month at the top, zero at the bottom. */}
        <div aria-hidden="true" className="flex h-40 flex-col justify-between text-right text-xs text-ink-muted tabular-nums">
          <span>{hasDownloads && format.integer(highest)}</span>
          <span>0</span>
        </div>
        <div className="relative min-w-0 flex-1">
          {!hasDownloads && (
            <p aria-hidden="true" className="absolute inset-x-0 top-16 text-center text-sm text-ink-muted">
              {t("dashboard.chart.empty")}
            </p>
          )}
          <svg
            role="img"
            aria-label={summary}
            viewBox={`0 0 ${months.length * COLUMN_WIDTH} ${CHART_HEIGHT}`}
            preserveAspectRatio="none"
            className="block h-40 w-full border-b border-l border-line"
          >
            {months.map((month, index) => {
              const height = highest === 0 ? 0 : (month.downloads / highest) * CHART_HEIGHT;
              return (
                <rect
                  key={month.month}
                  x={index * COLUMN_WIDTH + (COLUMN_WIDTH - BAR_WIDTH) / 2}
                  y={CHART_HEIGHT - height}
                  width={BAR_WIDTH}
                  height={height}
                  className="fill-accent"
                >
                  <title>{`${format.month(month.month, "long")}: ${format.integer(month.downloads)}`}</title>
                </rect>
              );
            })}
          </svg>
          <ol aria-hidden="true" className="mt-1.5 grid text-center text-xs text-ink-muted" style={{ gridTemplateColumns: `repeat(${months.length}, minmax(0, 1fr))` }}>
            {months.map((month) => (
              <li key={month.month} className="truncate">
                <span className="sm:hidden">{format.month(month.month, "narrow")}</span>
                <span className="hidden sm:inline">{format.month(month.month, "short")}</span>
              </li>
            ))}
          </ol>
        </div>
      </div>
      {/* A table is never narrower than its cells: the hiding wrapper keeps a long header from widening the page. */}
      <div className="sr-only">
        <table>
          <caption>{t("dashboard.chart.title")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("dashboard.chart.month")}</th>
              <th scope="col">{t("dashboard.chart.downloads")}</th>
            </tr>
          </thead>
          <tbody>
            {months.map((month) => (
              <tr key={month.month}>
                <th scope="row">{format.month(month.month, "long")}</th>
                <td>{format.integer(month.downloads)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
