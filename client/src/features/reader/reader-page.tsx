import { bookIdOfSegment, bookPath, bookReaderPath, reportPath } from "@shared/book-urls";
import { type OpenedBook, openBookUrl } from "@shared/reading";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Suspense, lazy, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "wouter";
import { ReaderToolbar, type ZoomControls } from "@/features/reader/reader-toolbar";
import { useReadingPosition } from "@/features/reader/use-reading-position";
import { WordReader } from "@/features/reader/word-reader";
import { buttonClassName, textLinkClassName } from "@/ui/styles";
import { useDocumentTitle } from "@/lib/use-document-title";
import { ApiError, apiRequest } from "@/lib/api";
import { errorText } from "@/lib/error-text";

// pdf.js (≈ 400 KB, and its worker) is fetched only when a PDF is opened: never for a Word book, never on a first visit.
const PdfReader = lazy(() => import("@/features/reader/pdf-reader").then((module) => ({ default: module.PdfReader })));
// foliate-js likewise, only when an EPUB is opened (docs/decisions/0097).
const EpubReader = lazy(() => import("@/features/reader/epub-reader").then((module) => ({ default: module.EpubReader })));

/** Zoom steps and bounds; "fit" follows the width the reader has. */
const ZOOM_STEP = 1.25;
const MIN_SCALE = 0.25;
const MAX_SCALE = 4;
type Zoom = number | "fit";
/** The sticky toolbar above the page, on a phone where it takes two rows. */
const TOOLBAR_HEIGHT_PX = 110;

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

const isEditable = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

/**
 * The keys of docs/product.md#reading: ← → and Page Up/Down turn pages, Home/End go to the ends, + and −
 * zoom. Left alone while the reader types in a field, and with a modifier (Ctrl + is the browser's zoom).
 */
function useReaderKeys(actions: { turn(by: number): void; first(): void; last(): void; zoomIn(): void; zoomOut(): void }) {
  // One listener for the screen's life, calling the actions of the latest render.
  const latest = useRef(actions);
  useEffect(() => {
    latest.current = actions;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isEditable(event.target)) return;
      const { turn, first, last, zoomIn, zoomOut } = latest.current;
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
      }[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

function OpenedReader({ book }: { book: OpenedBook }) {
  const { t } = useTranslation();
  const { page, goTo } = useReadingPosition(book.id, book.position?.page ?? null);
  // The server's count when it has one; the file's own once it is read.
  const [pageCount, setPageCount] = useState<number | undefined>(book.pageCount ?? undefined);
  const [zoom, setZoom] = useState<Zoom>("fit");
  // The scale "fit" stands for: the PDF's width-fitting scale, or 1 for a Word book's text.
  const [fitScale, setFitScale] = useState(1);
  const scale = zoom === "fit" ? fitScale : zoom;

  const show = useCallback((wanted: number) => goTo(Math.min(Math.max(wanted, 1), pageCount ?? 1)), [goTo, pageCount]);
  // A saved page past the end (a book whose pages were counted differently) shows the last one.
  useEffect(() => {
    if (pageCount !== undefined && page > pageCount) goTo(pageCount);
  }, [goTo, page, pageCount]);

  // A new page starts at its top: back up to it when the reader had scrolled down the last one.
  const content = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const top = content.current?.getBoundingClientRect().top ?? 0;
    if (top < 0) window.scrollBy({ top: top - TOOLBAR_HEIGHT_PX });
  }, [page]);

  const zoomBy = useCallback((factor: number) => setZoom(Math.min(Math.max(scale * factor, MIN_SCALE), MAX_SCALE)), [scale]);
  const controls: ZoomControls = {
    percent: Math.round(scale * 100),
    zoomIn: () => zoomBy(ZOOM_STEP),
    zoomOut: () => zoomBy(1 / ZOOM_STEP),
    fitWidth: () => setZoom("fit"),
  };
  useReaderKeys({ turn: (by) => show(page + by), first: () => show(1), last: () => show(pageCount ?? page), zoomIn: controls.zoomIn, zoomOut: controls.zoomOut });

  return (
    <>
      <ReaderToolbar page={Math.min(page, pageCount ?? page)} pageCount={pageCount} onPage={show} zoom={controls} />
      <div ref={content} className="min-h-[60vh] bg-line/40 py-4" data-testid="reader-content" aria-label={t("reader.readerFor", { title: book.title, page })} role="region">
        {book.format === "pdf" ? (
          <Suspense fallback={<ReaderStatus text={t("reader.loadingPage")} />}>
            <PdfReader bookId={book.id} page={page} zoom={zoom} onPageCount={setPageCount} onFitScale={setFitScale} />
          </Suspense>
        ) : (
          <WordReader bookId={book.id} page={page} textScale={scale} onPageCount={setPageCount} />
        )}
      </div>
      <p className="mx-auto mt-3 hidden max-w-3xl px-4 text-center text-sm text-ink-muted sm:block">{t("reader.keyboardHint")}</p>
    </>
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

  let body;
  if (bookId === undefined) body = <ReaderStatus role="alert" text={t("reader.invalidId")} />;
  else if (opening.isPending) body = <ReaderStatus text={t("reader.opening")} />;
  else if (opening.isError) {
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
  } else if (book!.format === "epub") {
    body = (
      <Suspense fallback={<ReaderStatus text={t("reader.loadingPage")} />}>
        <EpubReader key={book!.id} book={book!} />
      </Suspense>
    );
  } else body = <OpenedReader key={book!.id} book={book!} />;

  return (
    <section className="mx-auto w-full max-w-6xl pb-8" data-testid="reader-page">
      <header className="px-4 pt-6 pb-4">
        {book && (
          <div className="flex flex-wrap justify-between gap-x-6 gap-y-2 text-sm">
            <Link href={bookPath(book)} className={textLinkClassName}>
              ← {t("reader.backToBook")}
            </Link>
            {/* Anyone may report what they read (docs/product.md#moderation): the form names this book and this page. */}
            <Link href={reportPath({ book: book.id }, bookReaderPath(book))} data-testid="reader-report-link" className={textLinkClassName}>
              {t("reader.report")}
            </Link>
          </div>
        )}
        <h1 className="mt-2 text-2xl font-semibold break-words sm:text-3xl" data-testid="reader-title">
          {book?.title ?? t("reader.opening")}
        </h1>
        <p className="mt-2 max-w-3xl text-sm text-ink-muted" data-testid="reader-counts-notice">
          {t("reader.countsNotice")}
        </p>
      </header>
      {body}
    </section>
  );
}
