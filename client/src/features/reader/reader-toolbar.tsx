import { type FormEvent, type ReactNode, type Ref, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import type { PageFit } from "@/features/reader/page-fit";
import { READER_THEMES, type ReaderTheme } from "@/features/reader/reader-theme";
import { textLinkClassName } from "@/ui/styles";

/** What the display panel changes; the reader decides what a scale means for its format. */
export interface DisplayControls {
  percent: number;
  fit: PageFit;
  /** Whether a zoom, not the fit, sizes the page now. */
  zoomed: boolean;
  /** A reflowed book (Word, EPUB): its "page" fit is a reading column and its zoom the text's size. */
  reflowed: boolean;
  zoomIn(): void;
  zoomOut(): void;
  setFit(fit: PageFit): void;
  theme: ReaderTheme;
  setTheme(theme: ReaderTheme): void;
}

export type ReaderPanel = "display" | "info";

interface ReaderToolbarProps {
  title: string;
  backHref: string;
  reportHref: string;
  page: number;
  /** Unknown until the book has loaded. */
  pageCount: number | undefined;
  onPage(page: number): void;
  display: DisplayControls;
  panel: ReaderPanel | null;
  onPanel(panel: ReaderPanel | null): void;
  fullScreen: { supported: boolean; active: boolean; toggle(): void };
  shown: boolean;
  chromeRef: Ref<HTMLDivElement>;
}

const iconButton =
  "inline-flex size-9 shrink-0 items-center justify-center rounded-md border border-line bg-surface text-ink transition-colors hover:border-accent hover:text-accent disabled:cursor-not-allowed disabled:opacity-50 aria-expanded:border-accent aria-expanded:text-accent sm:size-10";
const choiceButton =
  "min-h-10 flex-1 rounded-md border border-line bg-surface px-2 py-1.5 text-sm font-medium text-ink hover:border-accent aria-pressed:border-accent aria-pressed:bg-accent-soft aria-pressed:text-accent-strong";

function Icon({ path }: { path: string }) {
  return (
    <svg viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d={path} />
    </svg>
  );
}

const ICONS = {
  first: "M18 6l-6 6 6 6M12 6l-6 6 6 6",
  previous: "M15 6l-6 6 6 6",
  next: "M9 6l6 6-6 6",
  last: "M6 6l6 6-6 6M12 6l6 6-6 6",
  back: "M19 12H5M11 18l-6-6 6-6",
  // "Aa": the page's look.
  display: "M3 19l5-13 5 13M4.8 15h6.4M15 12.5c.6-1 1.7-1.5 2.8-1.5 1.8 0 3.2 1.1 3.2 3V19M21 15.5c-1-.5-2-.6-3-.6-1.7 0-3 .8-3 2.1 0 1.2 1 2 2.4 2 1.6 0 2.8-.9 3.6-2",
  enterFullScreen: "M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5",
  leaveFullScreen: "M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5",
  info: "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 11v5M12 8h.01",
  close: "M6 6l12 12M18 6L6 18",
};

function ToolButton({ label, onClick, disabled, children, testId, className = "", expanded, controls, buttonRef }: {
  label: string;
  onClick(): void;
  disabled?: boolean;
  children: ReactNode;
  testId: string;
  className?: string;
  expanded?: boolean;
  controls?: string;
  buttonRef?: Ref<HTMLButtonElement>;
}) {
  return (
    <button
      ref={buttonRef}
      type="button"
      className={`${iconButton} ${className}`}
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      title={label}
      aria-expanded={expanded}
      aria-controls={controls}
      data-testid={testId}
    >
      {children}
    </button>
  );
}

/**
 * The reader's controls (docs/product.md#reading), one row on a phone: back to the book, the page,
 * the display panel (fit, zoom, theme), full screen and the information panel. They slide away while
 * the reader reads and stay in the page for keyboards and screen readers; the keys are the page's.
 */
export function ReaderToolbar({ title, backHref, reportHref, page, pageCount, onPage, display, panel, onPanel, fullScreen, shown, chromeRef }: ReaderToolbarProps) {
  const { t } = useTranslation();
  // What the reader is typing in the page box; the page shown otherwise.
  const [draft, setDraft] = useState<string | null>(null);
  const last = pageCount ?? page;
  const known = pageCount !== undefined;
  const togglePanel = (wanted: ReaderPanel) => onPanel(panel === wanted ? null : wanted);
  const displayToggle = useRef<HTMLButtonElement>(null);
  const infoToggle = useRef<HTMLButtonElement>(null);
  // A panel closed (its button, Esc, a page turned) while the focus was in it: the focus goes back to
  // its button rather than to nowhere.
  const focusInPanel = useRef(false);
  const shownPanel = useRef(panel);
  useLayoutEffect(() => {
    const closed = shownPanel.current;
    shownPanel.current = panel;
    if (closed && closed !== panel && focusInPanel.current) (closed === "display" ? displayToggle : infoToggle).current?.focus();
    focusInPanel.current = false;
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wanted = Number(draft);
    if (draft !== null && draft.trim() !== "" && Number.isInteger(wanted) && known) onPage(Math.min(Math.max(wanted, 1), last));
    setDraft(null);
  };

  return (
    <div ref={chromeRef} className="reader-chrome absolute inset-x-0 top-0 z-20" data-shown={shown} data-testid="reader-chrome">
      <div role="toolbar" aria-label={t("reader.controls")} className="flex items-center gap-1 border-b border-line bg-surface/95 px-2 py-1.5 backdrop-blur sm:gap-2 sm:px-4">
        <Link href={backHref} className={iconButton} aria-label={t("reader.backToBook")} title={t("reader.backToBook")} data-testid="reader-back">
          <Icon path={ICONS.back} />
        </Link>
        <h1 className="min-w-0 flex-1 truncate font-serif text-lg font-semibold max-md:sr-only" data-testid="reader-title">
          {title}
        </h1>
        <div className="flex min-w-0 items-center gap-1 max-md:flex-1 max-md:justify-center">
          <ToolButton label={t("reader.firstPage")} onClick={() => onPage(1)} disabled={page <= 1} testId="reader-first" className="max-sm:hidden">
            <Icon path={ICONS.first} />
          </ToolButton>
          <ToolButton label={t("reader.previousPage")} onClick={() => onPage(page - 1)} disabled={page <= 1} testId="reader-previous">
            <Icon path={ICONS.previous} />
          </ToolButton>
          <form onSubmit={submit} className="flex items-center gap-1.5 px-0.5 text-sm">
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
              className="w-12 rounded-md border border-line-strong bg-surface px-1 py-1.5 text-center text-ink"
              data-testid="reader-page-input"
            />
            {known && (
              <>
                <span className="whitespace-nowrap text-ink-muted max-sm:hidden">{t("reader.pageOf", { count: last })}</span>
                <span className="whitespace-nowrap text-ink-muted sm:hidden" aria-hidden="true">
                  / {last}
                </span>
              </>
            )}
            <button type="submit" className="sr-only">
              {t("reader.goToPage")}
            </button>
          </form>
          <ToolButton label={t("reader.nextPage")} onClick={() => onPage(page + 1)} disabled={!known || page >= last} testId="reader-next">
            <Icon path={ICONS.next} />
          </ToolButton>
          <ToolButton label={t("reader.lastPage")} onClick={() => onPage(last)} disabled={!known || page >= last} testId="reader-last" className="max-sm:hidden">
            <Icon path={ICONS.last} />
          </ToolButton>
        </div>
        <div className="flex items-center gap-1 md:flex-1 md:justify-end sm:gap-2">
          <ToolButton label={t("reader.display")} onClick={() => togglePanel("display")} expanded={panel === "display"} controls="reader-panel" testId="reader-display-button" buttonRef={displayToggle}>
            <Icon path={ICONS.display} />
          </ToolButton>
          {fullScreen.supported && (
            <ToolButton
              label={t(fullScreen.active ? "reader.leaveFullScreen" : "reader.fullScreen")}
              onClick={fullScreen.toggle}
              testId="reader-full-screen"
            >
              <Icon path={fullScreen.active ? ICONS.leaveFullScreen : ICONS.enterFullScreen} />
            </ToolButton>
          )}
          <ToolButton label={t("reader.about")} onClick={() => togglePanel("info")} expanded={panel === "info"} controls="reader-panel" testId="reader-info-button" buttonRef={infoToggle}>
            <Icon path={ICONS.info} />
          </ToolButton>
        </div>
        <p className="sr-only" aria-live="polite">
          {known ? t("reader.pageStatus", { page, count: last }) : ""}
        </p>
      </div>
      {panel && (
        <div
          id="reader-panel"
          role="region"
          aria-label={t(panel === "display" ? "reader.display" : "reader.about")}
          className="absolute right-0 left-0 mx-2 mt-2 max-h-[calc(100dvh-8rem)] overflow-y-auto rounded-lg border border-line bg-surface p-4 text-ink shadow-lg sm:left-auto sm:mr-4 sm:w-96"
          data-testid={`reader-${panel}-panel`}
          onFocus={() => (focusInPanel.current = true)}
          onBlur={(event) => (focusInPanel.current = event.currentTarget.contains(event.relatedTarget))}
        >
          <div className="flex items-start justify-between gap-3">
            <h2 className="text-lg font-semibold">{t(panel === "display" ? "reader.display" : "reader.about")}</h2>
            <ToolButton label={t("reader.closePanel")} onClick={() => onPanel(null)} testId="reader-panel-close">
              <Icon path={ICONS.close} />
            </ToolButton>
          </div>
          {panel === "display" ? <DisplayPanel display={display} /> : <InfoPanel reportHref={reportHref} fullScreen={fullScreen.supported} />}
        </div>
      )}
    </div>
  );
}

function DisplayPanel({ display }: { display: DisplayControls }) {
  const { t } = useTranslation();
  return (
    <div className="mt-3 space-y-4">
      <fieldset>
        <legend className="mb-1.5 text-sm font-semibold">{t("reader.pageSize")}</legend>
        <div className="flex gap-2">
          {(["page", "width"] as const).map((fit) => (
            <button
              key={fit}
              type="button"
              className={choiceButton}
              aria-pressed={!display.zoomed && display.fit === fit}
              onClick={() => display.setFit(fit)}
              data-testid={`reader-fit-${fit}`}
            >
              {t(fit === "width" ? "reader.fitWidth" : display.reflowed ? "reader.fitColumn" : "reader.fitPage")}
            </button>
          ))}
        </div>
        <div className="mt-2 flex items-center gap-2">
          <ToolButton label={t("reader.zoomOut")} onClick={display.zoomOut} testId="reader-zoom-out">
            <span aria-hidden="true" className="text-lg leading-none">−</span>
          </ToolButton>
          <span className="min-w-16 flex-1 text-center text-sm tabular-nums" aria-live="polite" data-testid="reader-zoom">
            <span className="sr-only">{t("reader.zoomLevel", { percent: display.percent })}</span>
            <span aria-hidden="true">{display.percent}%</span>
          </span>
          <ToolButton label={t("reader.zoomIn")} onClick={display.zoomIn} testId="reader-zoom-in">
            <span aria-hidden="true" className="text-lg leading-none">+</span>
          </ToolButton>
        </div>
      </fieldset>
      <fieldset>
        <legend className="mb-1.5 text-sm font-semibold">{t("reader.theme")}</legend>
        <div className="flex gap-2">
          {READER_THEMES.map((theme) => (
            <button
              key={theme}
              type="button"
              className={choiceButton}
              aria-pressed={display.theme === theme}
              onClick={() => display.setTheme(theme)}
              data-testid={`reader-theme-${theme}`}
            >
              {t(`reader.themes.${theme}`)}
            </button>
          ))}
        </div>
      </fieldset>
    </div>
  );
}

function InfoPanel({ reportHref, fullScreen }: { reportHref: string; fullScreen: boolean }) {
  const { t } = useTranslation();
  const keys: Array<[string[], string]> = [
    [["←", "→", t("reader.keyNames.pageUp"), t("reader.keyNames.pageDown")], t("reader.keys.turn")],
    [[t("reader.keyNames.home"), t("reader.keyNames.end")], t("reader.keys.ends")],
    [["+", "−"], t("reader.keys.zoom")],
    ...(fullScreen ? [[["F"], t("reader.keys.fullScreen")] as [string[], string]] : []),
    [["T"], t("reader.keys.theme")],
    [[t("reader.keyNames.escape")], t("reader.keys.close")],
  ];
  return (
    <div className="mt-2 space-y-3 text-sm">
      <p data-testid="reader-counts-notice">{t("reader.countsNotice")}</p>
      {/* A phone's reader has no keyboard: the keys make way there for the touch help. */}
      <h3 className="font-semibold pointer-coarse:hidden">{t("reader.keysTitle")}</h3>
      <dl className="space-y-1.5 pointer-coarse:hidden">
        {keys.map(([names, action]) => (
          <div key={action} className="flex gap-3">
            <dt className="flex w-36 shrink-0 flex-wrap gap-1">
              {names.map((name) => (
                <kbd key={name} className="rounded border border-line-strong px-1.5 font-sans text-xs leading-5">
                  {name}
                </kbd>
              ))}
            </dt>
            <dd className="text-ink-muted">{action}</dd>
          </div>
        ))}
      </dl>
      <p className="text-ink-muted">{t("reader.touchHint")}</p>
      {/* Anyone may report what they read (docs/product.md#moderation): the form names this book and this page. */}
      <Link href={reportHref} data-testid="reader-report-link" className={`inline-block ${textLinkClassName}`}>
        {t("reader.report")}
      </Link>
    </div>
  );
}
