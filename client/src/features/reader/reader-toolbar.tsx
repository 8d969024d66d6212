import { type FormEvent, type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { buttonClassName } from "@/ui/styles";

/** What the zoom buttons do; the reader decides what a scale means for its format. */
export interface ZoomControls {
  percent: number;
  zoomIn(): void;
  zoomOut(): void;
  fitWidth(): void;
}

interface ReaderToolbarProps {
  page: number;
  /** Unknown until the book has loaded. */
  pageCount: number | undefined;
  onPage(page: number): void;
  zoom: ZoomControls;
}

const iconButton =
  "inline-flex size-10 items-center justify-center rounded-md border border-line bg-surface text-ink transition-colors hover:border-accent hover:text-accent disabled:cursor-not-allowed disabled:opacity-50";

function Chevron({ direction, double = false }: { direction: "left" | "right"; double?: boolean }) {
  const flip = direction === "left" ? "scale(-1,1) translate(-24,0)" : undefined;
  return (
    <svg viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true">
      <g transform={flip}>
        <path d={double ? "M6 6l6 6-6 6M12 6l6 6-6 6" : "M9 6l6 6-6 6"} strokeLinecap="round" strokeLinejoin="round" />
      </g>
    </svg>
  );
}

function ToolButton({ label, onClick, disabled, children, testId }: { label: string; onClick(): void; disabled?: boolean; children: ReactNode; testId: string }) {
  return (
    <button type="button" className={iconButton} onClick={onClick} disabled={disabled} aria-label={label} title={label} data-testid={testId}>
      {children}
    </button>
  );
}

/** Page turning, going to a page, and zoom (docs/product.md#reading); the keys are handled by the reader page. */
export function ReaderToolbar({ page, pageCount, onPage, zoom }: ReaderToolbarProps) {
  const { t } = useTranslation();
  // What the reader is typing in the page box; the page shown otherwise.
  const [draft, setDraft] = useState<string | null>(null);
  const last = pageCount ?? page;
  const known = pageCount !== undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wanted = Number(draft);
    if (draft !== null && draft.trim() !== "" && Number.isInteger(wanted) && known) onPage(Math.min(Math.max(wanted, 1), last));
    setDraft(null);
  };

  return (
    <div
      role="toolbar"
      aria-label={t("reader.controls")}
      className="sticky top-0 z-10 flex flex-wrap items-center justify-center gap-x-3 gap-y-2 border-b border-line bg-surface/95 px-2 py-2 backdrop-blur"
    >
      <div className="flex items-center gap-1">
        <ToolButton label={t("reader.firstPage")} onClick={() => onPage(1)} disabled={page <= 1} testId="reader-first">
          <Chevron direction="left" double />
        </ToolButton>
        <ToolButton label={t("reader.previousPage")} onClick={() => onPage(page - 1)} disabled={page <= 1} testId="reader-previous">
          <Chevron direction="left" />
        </ToolButton>
        <form onSubmit={submit} className="flex items-center gap-1.5 px-1 text-sm">
          <label htmlFor="reader-page" className="sr-only">
            {t("reader.pageNumber")}
          </label>
          <input
            id="reader-page"
            inputMode="numeric"
            autoComplete="off"
            value={draft ?? String(page)}
            onChange={(event) => setDraft(event.target.value)}
            onBlur={() => setDraft(null)}
            className="w-14 rounded-md border border-line-strong bg-surface px-2 py-1.5 text-center text-ink"
            data-testid="reader-page-input"
          />
          <span className="whitespace-nowrap text-ink-muted">{known ? t("reader.pageOf", { count: last }) : ""}</span>
          <button type="submit" className="sr-only">
            {t("reader.goToPage")}
          </button>
        </form>
        <ToolButton label={t("reader.nextPage")} onClick={() => onPage(page + 1)} disabled={!known || page >= last} testId="reader-next">
          <Chevron direction="right" />
        </ToolButton>
        <ToolButton label={t("reader.lastPage")} onClick={() => onPage(last)} disabled={!known || page >= last} testId="reader-last">
          <Chevron direction="right" double />
        </ToolButton>
      </div>
      <div className="flex items-center gap-1">
        <ToolButton label={t("reader.zoomOut")} onClick={zoom.zoomOut} testId="reader-zoom-out">
          <span aria-hidden="true" className="w-4 text-base leading-none">−</span>
        </ToolButton>
        <span className="w-14 text-center text-sm tabular-nums text-ink-muted" aria-live="polite" data-testid="reader-zoom">
          <span className="sr-only">{t("reader.zoomLevel", { percent: zoom.percent })}</span>
          <span aria-hidden="true">{zoom.percent}%</span>
        </span>
        <ToolButton label={t("reader.zoomIn")} onClick={zoom.zoomIn} testId="reader-zoom-in">
          <span aria-hidden="true" className="w-4 text-base leading-none">+</span>
        </ToolButton>
        <button type="button" className={buttonClassName("ghost")} onClick={zoom.fitWidth} data-testid="reader-fit-width">
          {t("reader.fitWidth")}
        </button>
      </div>
      <p className="sr-only" aria-live="polite">
        {known ? t("reader.pageStatus", { page, count: last }) : ""}
      </p>
    </div>
  );
}
