import type { OpenedBook } from "@shared/reading";
import type { View } from "foliate-js/view.js";
import { type MouseEvent as ReactMouseEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { isEditable } from "@/features/reader/editable-target";
import { EpubToc } from "@/features/reader/epub-toc";
import { type EpubLocation, FONT_SIZES, THEME_COLORS, positionOf, readerStyles, useEpubBook } from "@/features/reader/use-epub-book";
import { usePreference } from "@/features/reader/reader-preferences";
import { READER_THEMES, type ReaderTheme } from "@/features/reader/reader-theme";
import { usePositionSaver } from "@/features/reader/use-reading-position";

const FONT_SIZE_KEY = "plume.reader.fontSize";
const parseFontSize = (stored: string) => FONT_SIZES.find((size) => String(size) === stored);

/** Space presses a focused button or link: it turns the page only elsewhere. */
const isPressable = (target: EventTarget | null) => target instanceof Element && target.closest("button, a[href], summary, [role=button]") !== null;

type Turn = "left" | "right" | "back" | "forward";
/** A page ending this far through the book is its last (foliate's fraction is where the page shown ends). */
const END_FRACTION = 0.995;
/** Turns asked while one is under way wait for it, this many at most. */
const MAX_WAITING_TURNS = 3;

const LISTEN_PROBE = "plume-listen-probe";
/**
 * Whether a listener added from this page runs inside a chapter's sandboxed frame. WebKit runs none
 * (its bug 218086: the frame may run no script, and it counts this page's listeners as the frame's),
 * so taps, swipes and keys inside the page never reach the reader there.
 */
function listensInFrame(doc: Document): boolean {
  let heard = false;
  const hear = () => {
    heard = true;
  };
  doc.addEventListener(LISTEN_PROBE, hear);
  doc.dispatchEvent(new Event(LISTEN_PROBE));
  doc.removeEventListener(LISTEN_PROBE, hear);
  return heard;
}

/** A finger drawn this far sideways is a swipe, not a tap. */
const SWIPE_PX = 40;

/**
 * Where a chapter's frame hears nothing from this page (WebKit), a side of the page laid over it
 * that turns it by a tap or a swipe; the middle third stays the book's, for selecting text and
 * following links. For pointers only: the keys and the buttons do the same.
 */
function SideTurner({ side, onTurn }: { side: "left" | "right"; onTurn(direction: Turn): void }) {
  const start = useRef<number | null>(null);
  return (
    <div
      aria-hidden="true"
      className={`absolute inset-y-0 z-10 w-1/3 touch-pan-y ${side === "left" ? "left-0" : "right-0"}`}
      onPointerDown={(event) => {
        start.current = event.clientX;
      }}
      // The turn is made here: the click that follows must not be taken again as a tap on the page.
      onClick={(event) => event.stopPropagation()}
      onPointerUp={(event) => {
        if (start.current === null) return;
        const moved = event.clientX - start.current;
        start.current = null;
        // A finger drawn to the left brings the next page, as a page would follow it.
        if (Math.abs(moved) >= SWIPE_PX) onTurn(moved < 0 ? "right" : "left");
        else onTurn(side);
      }}
      data-testid={`epub-turn-${side}`}
    />
  );
}

const toolButton =
  "inline-flex h-10 min-w-10 items-center justify-center rounded-md border border-line bg-surface px-2 text-sm font-semibold text-ink transition-colors hover:border-accent hover:text-accent disabled:cursor-not-allowed disabled:opacity-50 aria-pressed:border-accent aria-pressed:bg-accent-soft aria-pressed:text-accent-strong";


/**
 * An EPUB read in the page (docs/product.md#reading, docs/decisions/0097): reflowed by foliate-js into
 * pages, with its contents, a text size and page colours of the reader's choosing, turned by keys,
 * taps on the page's sides or a swipe, and the place saved as the pages turn.
 */
export function EpubReader({
  book,
  theme,
  onTheme,
  onEnd,
}: {
  book: OpenedBook;
  theme: ReaderTheme;
  onTheme: (theme: ReaderTheme) => void;
  /** Whether the page shown is the book's last: its fraction is where the page ends. */
  onEnd?: (atEnd: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const tocToggle = useRef<HTMLButtonElement>(null);
  const tocId = useId();
  const [fontSize, setFontSize] = usePreference<number>(FONT_SIZE_KEY, parseFontSize, 100);
  const [location, setLocation] = useState<EpubLocation | null>(null);
  const [tocOpen, setTocOpen] = useState(false);
  // Whether this browser runs Plume's listeners inside a chapter's frame (WebKit does not: docs/decisions/0097).
  const [frameListens, setFrameListens] = useState(true);
  const save = usePositionSaver(book.id);

  const viewRef = useRef<View | null>(null);
  // foliate ignores a turn asked while the last one is under way: turns wait for each other instead,
  // a few at most, so that a held key does not run on after it is let go.
  const turns = useRef({ last: Promise.resolve(), waiting: 0 });
  const turn = useCallback((direction: Turn) => {
    const view = viewRef.current;
    const queue = turns.current;
    if (!view || queue.waiting >= MAX_WAITING_TURNS) return;
    queue.waiting += 1;
    const go = { left: () => view.goLeft(), right: () => view.goRight(), back: () => view.prev(), forward: () => view.next() }[direction];
    queue.last = queue.last
      .then(go)
      .catch(() => undefined)
      .finally(() => {
        queue.waiting -= 1;
      });
  }, []);

  // The keys of docs/product.md#reading, from this page or from inside the book's frame.
  const onKey = useCallback(
    (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isEditable(event.target)) return;
      if (event.target instanceof Element && event.target.closest("[data-testid=epub-toc]")) {
        if (event.key === "Escape") {
          setTocOpen(false);
          tocToggle.current?.focus();
        }
        return;
      }
      const space = event.key === " " && !isPressable(event.target);
      const direction: Turn | undefined = space
        ? event.shiftKey
          ? "back"
          : "forward"
        : ({ ArrowLeft: "left", ArrowRight: "right", PageUp: "back", PageDown: "forward" } as const)[event.key as string];
      if (!direction) return;
      event.preventDefault();
      turn(direction);
    },
    [turn],
  );
  useEffect(() => {
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onKey]);

  // A tap or click on the left or right third of the page turns it; the middle is for reading and selecting.
  const onTap = useCallback(
    (event: MouseEvent) => {
      const view = viewRef.current;
      const target = event.target as Element | null;
      if (!view || event.defaultPrevented || event.button !== 0 || target?.closest?.("a[href]")) return;
      const doc = target?.ownerDocument ?? document;
      if (doc.getSelection()?.toString()) return;
      // A click in a chapter's frame is measured from the frame; the page's thirds from the reader's box.
      const frame = doc === document ? null : doc.defaultView?.frameElement;
      const x = event.clientX + (frame?.getBoundingClientRect().left ?? 0);
      const box = view.getBoundingClientRect();
      const third = (x - box.left) / box.width;
      if (third < 1 / 3) turn("left");
      else if (third > 2 / 3) turn("right");
    },
    [turn],
  );

  const { view, toc, loading, failed } = useEpubBook(book, host, readerStyles(theme, fontSize), {
    onRelocate: (found) => {
      setLocation({ fraction: found.fraction, chapter: found.tocItem?.label?.trim() || null, href: found.tocItem?.href ?? null });
      save(positionOf(found));
      onEnd?.(found.fraction >= END_FRACTION);
    },
    onChapter: (doc) => {
      doc.addEventListener("keydown", onKey);
      doc.addEventListener("click", onTap);
      setFrameListens(listensInFrame(doc));
    },
  });
  useEffect(() => {
    viewRef.current = view;
  }, [view]);

  const sizeIndex = FONT_SIZES.indexOf(fontSize as (typeof FONT_SIZES)[number]);
  const resize = (by: number) => {
    const next = FONT_SIZES[Math.min(Math.max(sizeIndex + by, 0), FONT_SIZES.length - 1)]!;
    setFontSize(next);
  };
  const goToChapter = (href: string) => {
    void view?.goTo(href);
    // On a phone the contents cover the page: they close once a chapter is chosen, and the book has the focus.
    if (!window.matchMedia?.("(min-width: 640px)").matches) {
      setTocOpen(false);
      host.current?.focus();
    }
  };

  const percent = (fraction: number) => new Intl.NumberFormat(i18n.language, { style: "percent", maximumFractionDigits: 0 }).format(fraction);
  const colors = THEME_COLORS[theme];

  return (
    <div data-testid="epub-reader" data-theme={theme} data-font-size={fontSize}>
      <div
        role="toolbar"
        aria-label={t("reader.controls")}
        className="sticky top-0 z-30 flex flex-wrap items-center justify-center gap-x-2 gap-y-2 border-b border-line bg-surface/95 px-2 py-2 backdrop-blur sm:gap-x-3"
      >
        <div className="flex items-center gap-1">
          <button type="button" className={toolButton} onClick={() => turn("left")} disabled={!view} aria-label={t("reader.previousPage")} title={t("reader.previousPage")} data-testid="epub-previous">
            <span aria-hidden="true">‹</span>
          </button>
          <button
            ref={tocToggle}
            type="button"
            className={toolButton}
            onClick={() => setTocOpen((open) => !open)}
            aria-expanded={tocOpen}
            aria-controls={tocOpen ? tocId : undefined}
            disabled={!view}
            data-testid="epub-toc-toggle"
          >
            {t("epubReader.contents")}
          </button>
          <button type="button" className={toolButton} onClick={() => turn("right")} disabled={!view} aria-label={t("reader.nextPage")} title={t("reader.nextPage")} data-testid="epub-next">
            <span aria-hidden="true">›</span>
          </button>
        </div>
        <div className="flex items-center gap-1" role="group" aria-label={t("epubReader.textSize", { percent: `${fontSize} %` })}>
          <button type="button" className={toolButton} onClick={() => resize(-1)} disabled={sizeIndex <= 0} title={t("epubReader.smaller")} data-testid="epub-smaller">
            <span aria-hidden="true" className="text-xs">A−</span>
            <span className="sr-only">{t("epubReader.smaller")}</span>
          </button>
          <span className="hidden w-12 text-center text-sm tabular-nums text-ink-muted sm:inline" data-testid="epub-font-size">
            {percent(fontSize / 100)}
          </span>
          <button
            type="button"
            className={toolButton}
            onClick={() => resize(1)}
            disabled={sizeIndex >= FONT_SIZES.length - 1}
            title={t("epubReader.larger")}
            data-testid="epub-larger"
          >
            <span aria-hidden="true" className="text-base">A+</span>
            <span className="sr-only">{t("epubReader.larger")}</span>
          </button>
        </div>
        <div className="hidden items-center gap-1 sm:flex" role="group" aria-label={t("epubReader.theme")}>
          {READER_THEMES.map((choice) => (
            <button key={choice} type="button" className={toolButton} aria-pressed={theme === choice} onClick={() => onTheme(choice)} data-testid={`epub-theme-${choice}`}>
              {t(`epubReader.themes.${choice}`)}
            </button>
          ))}
        </div>
        {/* On a phone one button goes through the colours, so that the controls keep to one row above the page. */}
        <button
          type="button"
          className={`${toolButton} sm:hidden`}
          onClick={() => onTheme(READER_THEMES[(READER_THEMES.indexOf(theme) + 1) % READER_THEMES.length]!)}
          aria-label={t("epubReader.nextTheme", { theme: t(`epubReader.themes.${theme}`) })}
          data-testid="epub-theme-next"
        >
          {t(`epubReader.themes.${theme}`)}
        </button>
      </div>
      <p className="flex min-h-10 flex-wrap items-center justify-center gap-x-2 px-4 py-2 text-sm text-ink-muted" aria-live="polite" data-testid="epub-progress">
        {location && (
          <>
            <span className="font-semibold text-ink tabular-nums" data-testid="epub-percent" data-fraction={location.fraction}>
              {percent(location.fraction)}
            </span>
            {location.chapter && (
              <>
                <span aria-hidden="true">·</span>
                <span data-testid="epub-chapter">{location.chapter}</span>
              </>
            )}
          </>
        )}
      </p>
      <div className="relative flex">
        {tocOpen && <EpubToc id={tocId} items={toc} current={location?.href ?? null} onGo={goToChapter} />}
        <div
          ref={host}
          role="region"
          tabIndex={-1}
          aria-label={t("epubReader.bookText", { title: book.title })}
          aria-busy={loading}
          className="relative h-[calc(100dvh-7rem)] min-h-80 min-w-0 flex-1 focus:outline-none"
          style={{ background: colors.page, color: colors.text }}
          onClick={(event: ReactMouseEvent) => onTap(event.nativeEvent)}
          data-testid="epub-book"
        >
          {!frameListens && view && (
            <>
              <SideTurner side="left" onTurn={turn} />
              <SideTurner side="right" onTurn={turn} />
            </>
          )}
          {loading && (
            <p role="status" className="absolute inset-0 flex items-center justify-center px-4 text-center">
              {t("reader.loadingPage")}
            </p>
          )}
          {failed && (
            <p role="alert" className="absolute inset-0 flex items-center justify-center px-4 text-center">
              {t("epubReader.failed")}
            </p>
          )}
        </div>
      </div>
      <p className="mx-auto mt-3 hidden max-w-3xl px-4 text-center text-sm text-ink-muted sm:block">{t("epubReader.keyboardHint")}</p>
    </div>
  );
}
