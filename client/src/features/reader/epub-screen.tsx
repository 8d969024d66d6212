import { bookPath, bookReaderPath, reportPath } from "@shared/book-urls";
import type { OpenedBook } from "@shared/reading";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { EpubReader } from "@/features/reader/epub-reader";
import { useReaderTheme } from "@/features/reader/reader-theme";
import { useFirstOpening } from "@/features/reader/use-first-opening";
import { useFullScreen } from "@/features/reader/use-full-screen";
import { buttonClassName, textLinkClassName } from "@/ui/styles";

/**
 * An EPUB's screen (docs/product.md#reading): the book's way back, its title and the Report link, full
 * screen, and the counting notice — open at the book's first opening in this browser, one tap away
 * after — around the reflowed book, in the reader's colours.
 */
export function EpubScreen({ book }: { book: OpenedBook }) {
  const { t } = useTranslation();
  const stage = useRef<HTMLElement>(null);
  const { theme } = useReaderTheme();
  const fullScreen = useFullScreen(stage);
  const firstOpening = useFirstOpening(book.id);
  return (
    <section ref={stage} className="reader-stage-epub bg-surface" data-theme={theme} data-testid="reader-page">
      <header className="flex flex-wrap items-center gap-x-4 gap-y-1 px-3 pt-3 pb-1 text-sm">
        <Link href={bookPath(book)} className={textLinkClassName} data-testid="reader-back-link">
          ← {t("reader.backToBook")}
        </Link>
        <h1 className="min-w-0 flex-1 truncate text-base font-semibold" data-testid="reader-title">
          {book.title}
        </h1>
        {fullScreen.supported && (
          <button type="button" className={buttonClassName("ghost")} onClick={fullScreen.toggle} data-testid="reader-full-screen">
            {t(fullScreen.active ? "reader.leaveFullScreen" : "reader.fullScreen")}
          </button>
        )}
        <Link href={reportPath({ book: book.id }, bookReaderPath(book))} data-testid="reader-report-link" className={textLinkClassName}>
          {t("reader.report")}
        </Link>
      </header>
      <details open={firstOpening} className="px-3 pb-2 text-sm text-ink-muted">
        <summary className="cursor-pointer">{t("reader.about")}</summary>
        <p data-testid="reader-counts-notice">{t("reader.countsNotice")}</p>
      </details>
      <EpubReader book={book} />
    </section>
  );
}
