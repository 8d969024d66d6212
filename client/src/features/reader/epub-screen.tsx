import { bookPath, bookReaderPath, reportPath } from "@shared/book-urls";
import type { OpenedBook } from "@shared/reading";
import { useCallback, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { BookEndPanel } from "@/features/reader/book-end-panel";
import { EpubReader } from "@/features/reader/epub-reader";
import { useReaderTheme } from "@/features/reader/reader-theme";
import { useFirstOpening } from "@/features/reader/use-first-opening";
import { useFullScreen } from "@/features/reader/use-full-screen";
import { buttonClassName, textLinkClassName } from "@/ui/styles";

/**
 * An EPUB's screen (docs/product.md#reading): the book's way back, its title, full screen, and the
 * counting notice with the Report link — open at the book's first opening in this browser, one tap
 * away after — around the reflowed book, in the reader's colours.
 */
export function EpubScreen({ book }: { book: OpenedBook }) {
  const { t } = useTranslation();
  const stage = useRef<HTMLElement>(null);
  // The reader's colours, shared with the PDF and Word readers (reader-theme.ts): this screen's and its book's.
  const { theme, setTheme } = useReaderTheme();
  const fullScreen = useFullScreen(stage);
  const firstOpening = useFirstOpening(book.id);
  // The last page offers to mark the book as read (docs/product.md#shelves); closed, it stays closed until the reader leaves the end.
  const [atEnd, setAtEnd] = useState(false);
  const [endClosed, setEndClosed] = useState(false);
  const onEnd = useCallback((end: boolean) => {
    setAtEnd(end);
    if (!end) setEndClosed(false);
  }, []);
  return (
    <section ref={stage} className="reader-stage-epub bg-surface" data-theme={theme} data-testid="reader-page">
      <header className="flex items-center gap-x-4 px-3 pt-3 pb-1 text-sm">
        <Link href={bookPath(book)} className={textLinkClassName} data-testid="reader-back-link">
          ← {t("reader.backToBook")}
        </Link>
        {/* On a phone the page goes first: the title is the tab's. */}
        <h1 className="hidden min-w-0 flex-1 truncate text-base font-semibold sm:block" data-testid="reader-title">
          {book.title}
        </h1>
        {fullScreen.supported && (
          <button type="button" className={buttonClassName("ghost", "ml-auto sm:ml-0")} onClick={fullScreen.toggle} data-testid="reader-full-screen">
            {t(fullScreen.active ? "reader.leaveFullScreen" : "reader.fullScreen")}
          </button>
        )}
      </header>
      <details open={firstOpening} className="px-3 pb-2 text-sm text-ink-muted">
        <summary className="cursor-pointer">{t("reader.about")}</summary>
        <p data-testid="reader-counts-notice">{t("reader.countsNotice")}</p>
        <Link href={reportPath({ book: book.id }, bookReaderPath(book))} data-testid="reader-report-link" className={textLinkClassName}>
          {t("reader.report")}
        </Link>
      </details>
      <div className="relative">
        <EpubReader book={book} theme={theme} onTheme={setTheme} onEnd={onEnd} />
        {atEnd && !endClosed && <BookEndPanel book={book} onClose={() => setEndClosed(true)} />}
      </div>
    </section>
  );
}
