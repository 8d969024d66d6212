import { WORD_VIEW_RETRY_SECONDS, type WordView, wordViewUrl } from "@shared/reading";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, apiRequest } from "@/lib/api";
import type { FormatViewProps } from "@/features/reader/format-view";

/** Answers that mean "not yet": the view is being made (docs/decisions/0051), or the server has too many to make. */
const NOT_YET_CODES = new Set(["book_view_preparing", "server_busy"]);
const isNotYet = (error: unknown) => error instanceof ApiError && error.status === 503 && NOT_YET_CODES.has(error.body?.code ?? "");
/** Past this many tries (five minutes, longer than the server lets a conversion run) the reader is told it failed. */
const NOT_YET_TRIES = 60;

/**
 * A Word book's reading view, one page at a time. Its HTML was converted and sanitized on the server
 * with an allow-list (docs/decisions/0029-reading-in-the-browser.md): no script, no event handler, no
 * style, links out only; that is why it may be set as HTML here. The view is made once, at the book's
 * first opening: until it is, the reader is told the book is being prepared and asks again by itself.
 * Its "page" fit is a comfortable column, "width" the whole width; a zoom sizes the text. Its colours
 * are the theme's (reader.css).
 */
export function WordReader({ bookId, page, layout, onPageCount, onScale }: FormatViewProps) {
  const { t } = useTranslation();
  const view = useQuery({
    queryKey: [wordViewUrl(bookId)],
    // A long book's view is large: it is not kept once the reader has left.
    gcTime: 0,
    queryFn: async () => (await (await apiRequest("GET", wordViewUrl(bookId))).json()) as WordView,
    retry: (failures, error) => isNotYet(error) && failures < NOT_YET_TRIES,
    retryDelay: WORD_VIEW_RETRY_SECONDS * 1000,
  });
  const pages = view.data?.pages;
  const textScale = layout.scale ?? 1;
  useEffect(() => onScale(textScale), [onScale, textScale]);
  useEffect(() => {
    if (pages) onPageCount(pages.length);
  }, [pages, onPageCount]);

  if (view.isPending) {
    return (
      <p role="status" className="mx-auto max-w-prose px-4 py-16 text-center text-ink-muted" data-testid="word-view-status">
        {isNotYet(view.failureReason) ? t("reader.preparing") : t("reader.loadingPage")}
      </p>
    );
  }
  if (view.isError) {
    const unavailable = view.error instanceof ApiError && view.error.body?.code === "book_view_unavailable";
    return <p role="alert" className="mx-auto max-w-prose px-4 py-16 text-center text-ink">{t(unavailable ? "reader.viewUnavailable" : "reader.viewFailed")}</p>;
  }
  const html = pages![Math.min(page, pages!.length) - 1] ?? "";
  if (!html) return <p className="py-16 text-center text-ink-muted">{t("reader.emptyView")}</p>;
  return (
    <article
      className={`reader-prose mx-auto rounded-md bg-surface px-5 py-8 text-ink shadow-sm sm:px-12 sm:py-12 ${layout.fit === "width" ? "max-w-none" : "max-w-3xl"}`}
      style={{ fontSize: `${textScale * 1.0625}rem` }}
      data-testid="word-page"
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
