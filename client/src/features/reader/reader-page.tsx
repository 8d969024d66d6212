import { bookIdOfSegment, bookPath, bookReaderPath, reportPath } from "@shared/book-urls";
import { type OpenedBook, openBookUrl, pageAtPercentage } from "@shared/reading";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type CSSProperties, type RefObject, Suspense, lazy, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { isEditable } from "@/features/reader/editable-target";
import { useParams } from "wouter";
import type { FormatViewProps } from "@/features/reader/format-view";
import { DEFAULT_LAYOUT, type PageLayout, type Size, ZOOM_STEP, clampScale, parseLayout } from "@/features/reader/page-fit";
import { type Gesture, isPinchZoomed, usePageGestures } from "@/features/reader/page-gestures";
import { usePreference } from "@/features/reader/reader-preferences";
import { useReaderTheme } from "@/features/reader/reader-theme";
import { type DisplayControls, type ReaderPanel, ReaderToolbar } from "@/features/reader/reader-toolbar";
import { useFullScreen } from "@/features/reader/use-full-screen";
import { useFirstOpening } from "@/features/reader/use-first-opening";
import { useReaderChrome } from "@/features/reader/use-reader-chrome";
import { useReadingPosition } from "@/features/reader/use-reading-position";
import { WordReader } from "@/features/reader/word-reader";
import { BookEndPanel } from "@/features/reader/book-end-panel";
import { buttonClassName } from "@/ui/styles";
import { useDocumentTitle } from "@/lib/use-document-title";
import { ApiError, apiRequest } from "@/lib/api";
import { errorText } from "@/lib/error-text";
import "./reader.css";

// pdf.js (≈ 400 KB, and its worker) is fetched only when a PDF is opened: never for a Word book, never on a first visit.
const PdfReader = lazy(() => import("@/features/reader/pdf-reader").then((module) => ({ default: module.PdfReader })));
// foliate-js likewise, only when an EPUB is opened (docs/decisions/0097).
const EpubScreen = lazy(() => import("@/features/reader/epub-screen").then((module) => ({ default: module.EpubScreen })));

/** Every cached read that shows a book's downloads: an opening may have counted one (docs/product.md#client-data). */
const COUNTED_READS = ["/api/books", "/api/authors", "/api/stats"];

function useOpenedBook(bookId: number | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ["reader", bookId],
    enabled: bookId !== undefined,
    // Each visit opens the book again: the saved page comes back with the answer.
    gcTime: 0,
    queryFn: async () => {
      const opened = (await (await apiRequest("POST", openBookUrl(bookId!))).json()) as OpenedBook;
      void queryClient.invalidateQueries({
        predicate: ({ queryKey: [path] }) => typeof path === "string" && COUNTED_READS.some((prefix) => path.startsWith(prefix)),
      });
      return opened;
    },
  });
}


interface ReaderKeyActions {
  turn(by: number): void;
  first(): void;
  last(): void;
  zoomIn(): void;
  zoomOut(): void;
  fullScreen(): void;
  cycleTheme(): void;
  escape(): boolean;
}

/**
 * The keys of docs/product.md#reading: ← → and Page Up/Down turn pages, Home/End go to the ends, + and −
 * zoom, F full screen, T the next theme, Esc closes a panel. Left alone while the reader types in a
 * field, and with a modifier (Ctrl + is the browser's zoom).
 */
function useReaderKeys(actions: ReaderKeyActions) {
  // One listener for the screen's life, calling the actions of the latest render (set before any key can come).
  const latest = useRef(actions);
  useLayoutEffect(() => {
    latest.current = actions;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isEditable(event.target)) return;
      const { turn, first, last, zoomIn, zoomOut, fullScreen, cycleTheme, escape } = latest.current;
      if (event.key === "Escape") {
        if (escape()) event.preventDefault();
        return;
      }
      const action = {
        ArrowLeft: () => turn(-1),
        PageUp: () => turn(-1),
        ArrowRight: () => turn(1),
        PageDown: () => turn(1),
        Home: first,
        End: last,
        "+": zoomIn,
        "=": zoomIn,
        "-": zoomOut,
        _: zoomOut,
        f: fullScreen,
        F: fullScreen,
        t: cycleTheme,
        T: cycleTheme,
      }[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

/** The size of an element's content box, followed as the window turns, resizes or goes full screen. */
function useContentSize(element: RefObject<HTMLElement | null>): Size {
  const [size, setSize] = useState<Size>({ width: 0, height: 0 });
  useEffect(() => {
    const target = element.current;
    if (!target || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => setSize({ width: entry!.contentRect.width, height: entry!.contentRect.height }));
    observer.observe(target);
    return () => observer.disconnect();
  }, [element]);
  return size;
}

/**
 * Where the reader's screen starts in the document (below the site's bar): it takes the rest of the
 * window, so that the whole of a page fits without scrolling the site.
 */
function useStageTop(stage: RefObject<HTMLElement | null>): number {
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    const measure = () => {
      if (stage.current && !document.fullscreenElement) setTop(Math.max(stage.current.getBoundingClientRect().top + window.scrollY, 0));
    };
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, [stage]);
  return top;
}

/** Whether the browser's pinch-zoom has enlarged the page, followed as the reader pinches. */
function usePinchZoomed(): boolean {
  const [zoomed, setZoomed] = useState(isPinchZoomed);
  useEffect(() => {
    const viewport = window.visualViewport;
    if (!viewport) return;
    const onResize = () => setZoomed(isPinchZoomed());
    viewport.addEventListener("resize", onResize);
    return () => viewport.removeEventListener("resize", onResize);
  }, []);
  return zoomed;
}

/** One branch per format: each view takes the same props, the theme among them. */
function BookView({ format, ...props }: FormatViewProps & { format: OpenedBook["format"] }) {
  const { t } = useTranslation();
  if (format === "pdf") {
    return (
      <Suspense fallback={<ReaderStatus text={t("reader.loadingPage")} />}>
        <PdfReader {...props} />
      </Suspense>
    );
  }
  return <WordReader {...props} />;
}

function OpenedReader({ book }: { book: OpenedBook }) {
  const { t } = useTranslation();
  // The server's count when it has one; the file's own once it is read.
  const [pageCount, setPageCount] = useState<number | undefined>(book.pageCount ?? undefined);
  const { page, goTo } = useReadingPosition(book.id, book.position?.page ?? null, pageCount);
  // A place from an older edition whose new page count the server did not know yet (docs/product.md#editions):
  // the same share of the book, once the file tells its pages.
  const pendingShare = useRef(book.position?.earlierEdition && book.pageCount === null ? book.position.percentage : null);
  useEffect(() => {
    const share = pendingShare.current;
    if (share === null || pageCount === undefined) return;
    pendingShare.current = null;
    goTo(pageAtPercentage(share, pageCount));
  }, [goTo, pageCount]);
  const [layout, setLayout] = usePreference<PageLayout>(`plume.reader.layout.${book.format}`, parseLayout, DEFAULT_LAYOUT, JSON.stringify);
  // The scale the view shows at, whether a fit or a zoom decided it.
  const [scale, setScale] = useState(1);
  const { theme, setTheme, cycleTheme } = useReaderTheme();
  const [panel, setPanel] = useState<ReaderPanel | null>(useFirstOpening(book.id) ? "info" : null);

  const stage = useRef<HTMLElement>(null);
  const area = useRef<HTMLDivElement>(null);
  const stageTop = useStageTop(stage);
  const room = useContentSize(area);
  const chrome = useReaderChrome(panel !== null);
  const fullScreen = useFullScreen(stage);
  const pinched = usePinchZoomed();

  // The last page offers to mark the book as read (docs/product.md#shelves) once no panel is open; closed, it stays closed on that page.
  const atEnd = pageCount !== undefined && page >= pageCount;
  const [endClosedAt, setEndClosedAt] = useState<number | null>(null);

  const show = useCallback((wanted: number) => goTo(Math.min(Math.max(wanted, 1), pageCount ?? 1)), [goTo, pageCount]);
  // A saved page past the end (a book whose pages were counted differently) shows the last one.
  useEffect(() => {
    if (pageCount !== undefined && page > pageCount) goTo(pageCount);
  }, [goTo, page, pageCount]);
  // A new page starts at its top.
  useEffect(() => {
    area.current?.scrollTo?.({ top: 0 });
  }, [page]);

  /** Turning by a key or a touch is reading: the controls and panels give the page the screen. */
  const read = (wanted: number) => {
    show(wanted);
    setPanel(null);
    chrome.hide();
  };
  const zoomTo = (next: number) => setLayout({ fit: layout.fit, scale: clampScale(next) });
  const display: DisplayControls = {
    percent: Math.round(scale * 100),
    fit: layout.fit,
    zoomed: layout.scale !== null,
    reflowed: book.format !== "pdf",
    zoomIn: () => zoomTo(scale * ZOOM_STEP),
    zoomOut: () => zoomTo(scale / ZOOM_STEP),
    setFit: (fit) => setLayout({ fit, scale: null }),
    theme,
    setTheme,
  };
  useReaderKeys({
    turn: (by) => read(page + by),
    first: () => read(1),
    last: () => read(pageCount ?? page),
    zoomIn: display.zoomIn,
    zoomOut: display.zoomOut,
    fullScreen: fullScreen.toggle,
    cycleTheme,
    escape: () => {
      if (panel === null) return false;
      setPanel(null);
      return true;
    },
  });
  usePageGestures(area, (gesture: Gesture) => {
    if (gesture === "toggle-chrome") {
      if (chrome.shown) setPanel(null);
      chrome.toggle();
    } else read(page + (gesture === "next" ? 1 : -1));
  });

  return (
    <section
      ref={stage}
      className="reader-stage relative isolate overflow-hidden"
      style={{ "--reader-top": `${stageTop}px` } as CSSProperties}
      data-theme={theme}
      data-testid="reader-page"
    >
      <ReaderToolbar
        title={book.title}
        backHref={bookPath(book)}
        reportHref={reportPath({ book: book.id }, bookReaderPath(book))}
        page={Math.min(page, pageCount ?? page)}
        pageCount={pageCount}
        onPage={show}
        display={display}
        panel={panel}
        onPanel={setPanel}
        fullScreen={fullScreen}
        shown={chrome.shown}
        chromeRef={chrome.chrome}
      />
      <div
        ref={area}
        className="reader-area h-full overflow-auto p-2 sm:p-4"
        // A fitted page never scrolls sideways: a sideways swipe is the reader's, a pinch still the browser's.
        // A page zoomed in, by the controls or a pinch, gives sideways strokes back to the browser for panning.
        style={{ touchAction: layout.scale === null && !pinched ? "pan-y pinch-zoom" : "auto" }}
        data-testid="reader-content"
        // A zoomed page scrolls: the keyboard reaches it too.
        tabIndex={0}
        aria-label={t("reader.readerFor", { title: book.title, page })}
        role="region"
      >
        <BookView format={book.format} bookId={book.id} page={page} onPageCount={setPageCount} theme={theme} layout={layout} room={room} onScale={setScale} />
      </div>
      {/* Not over an open panel (the counting notice of a one-page book's first opening, the display's). */}
      {atEnd && panel === null && endClosedAt !== page && <BookEndPanel book={book} onClose={() => setEndClosedAt(page)} />}
    </section>
  );
}

function ReaderStatus({ text, role = "status" }: { text: string; role?: "status" | "alert" }) {
  return (
    <p role={role} className="mx-auto max-w-prose px-4 py-16 text-center text-ink-muted">
      {text}
    </p>
  );
}

/** `/books/:id/read` (docs/product.md#reading): a signed-in reader reads a PDF or a Word book in the page. */
export function ReaderPage() {
  const { t } = useTranslation();
  const { id = "" } = useParams<{ id: string }>();
  const bookId = bookIdOfSegment(id);
  const opening = useOpenedBook(bookId);
  const book = opening.data;
  useDocumentTitle(book ? t("reader.documentTitle", { title: book.title }) : t("reader.opening"));

  if (book?.format === "epub") {
    return (
      <Suspense fallback={<ReaderStatus text={t("reader.loadingPage")} />}>
        <EpubScreen key={book.id} book={book} />
      </Suspense>
    );
  }
  if (book) return <OpenedReader key={book.id} book={book} />;
  let body;
  if (bookId === undefined) body = <ReaderStatus role="alert" text={t("reader.invalidId")} />;
  else if (opening.isPending) body = <ReaderStatus text={t("reader.opening")} />;
  else {
    const missing = opening.error instanceof ApiError && opening.error.status === 404;
    body = (
      <div className="px-4 py-12 text-center">
        <p role="alert" className="text-ink">
          {missing ? t("reader.notFound") : `${t("reader.failed")} ${errorText(opening.error)}`}
        </p>
        {!missing && (
          <button type="button" className={buttonClassName("secondary", "mt-4")} onClick={() => void opening.refetch()}>
            {t("reader.retry")}
          </button>
        )}
      </div>
    );
  }
  return (
    <section className="mx-auto w-full max-w-6xl pb-8" data-testid="reader-page">
      <h1 className="px-4 pt-6 text-2xl font-semibold sm:text-3xl" data-testid="reader-title">
        {t("reader.opening")}
      </h1>
      {body}
    </section>
  );
}
