import { type OpenedBook, type ReadingPosition, MAX_LOCATOR_LENGTH, bookEpubUrl } from "@shared/reading";
import { useQuery } from "@tanstack/react-query";
import type { FoliateLocation, FoliateTocItem, View } from "foliate-js/view.js";
import "foliate-js/view.js";
import { type RefObject, useEffect, useRef, useState } from "react";
import { apiRequest } from "@/lib/api";
import { fitBookToPolicy, openEpub } from "./foliate-book";
import type { ReaderTheme } from "@/features/reader/reader-theme";

/** The User Timing mark set when a book's first page is shown (bench/epub-reader.ts reads it). */
export const FIRST_PAGE_MARK = "plume:epub-first-page";


/** The book's text size, in percent of its own; the steps "smaller" and "larger" go through. */
export const FONT_SIZES = [80, 90, 100, 110, 120, 135, 150, 175, 200] as const;

/** Colours of the book's pages in each theme; contrast of text on page is at least 7:1 in each. */
export const THEME_COLORS: Record<ReaderTheme, { page: string; text: string; link: string }> = {
  light: { page: "#ffffff", text: "#1f2328", link: "#1d4ed8" },
  sepia: { page: "#f4ecd8", text: "#3b2f1e", link: "#7c2d12" },
  dark: { page: "#17171a", text: "#e4e1da", link: "#8ab4f8" },
};

/**
 * The reader's styles laid over the book's own (foliate's last stylesheet): the theme's colours and the
 * chosen size. Sepia and dark also take the book's own colours away, which were chosen for white paper.
 */
export function readerStyles(theme: ReaderTheme, fontSize: number): string {
  const { page, text, link } = THEME_COLORS[theme];
  const recolour = theme === "light" ? "" : `body *:not(a, a *) { color: inherit !important; background-color: transparent !important; }`;
  return `
    @namespace epub "http://www.idpf.org/2007/ops";
    html { color-scheme: ${theme === "dark" ? "dark" : "light"}; font-size: ${fontSize}% !important; }
    html, body { color: ${text} !important; background: ${page} !important; }
    ${recolour}
    a:any-link { color: ${link} !important; }
    p, li, blockquote, dd { line-height: 1.5; widows: 2; orphans: 2; }
    img, svg, video { max-width: 100%; height: auto; object-fit: contain; }
    aside[epub|type~="footnote"], aside[epub|type~="endnote"] { display: none; }
  `;
}

/** Where the reader is, as shown above the book. */
export interface EpubLocation {
  fraction: number;
  chapter: string | null;
  /** The chapter's entry in the contents, to mark it there. */
  href: string | null;
}

/** The place to open at: the exact place (a CFI) first, else how far through (KOReader's), else the spine item. */
export function startOf(position: OpenedBook["position"]): string | number | { fraction: number } | null {
  if (!position) return null;
  if (position.locator?.startsWith("epubcfi(")) return position.locator;
  if (position.percentage !== null) return { fraction: position.percentage };
  if (position.format === "epub" && position.page > 1) return position.page - 1;
  return null;
}

/** The position saved for a location: the spine item (1-based), how far through, the CFI. */
export function positionOf(location: FoliateLocation): ReadingPosition {
  return {
    page: location.section.current + 1,
    percentage: Math.min(Math.max(location.fraction, 0), 1),
    ...(location.cfi.length <= MAX_LOCATOR_LENGTH ? { locator: location.cfi } : {}),
    format: "epub",
  };
}

interface EpubBookEvents {
  onRelocate(location: FoliateLocation): void;
  /** Each chapter's document as it loads: the reader listens to it for keys and taps. */
  onChapter(doc: Document): void;
}

/**
 * The book's EPUB, fetched once per visit, opened in foliate-js inside `host`, at the saved place.
 * Returns the view once the first page is shown, and the book's table of contents; `styles` are the
 * reader's (readerStyles), laid over every chapter.
 */
export function useEpubBook(book: OpenedBook, host: RefObject<HTMLDivElement | null>, styles: string, events: EpubBookEvents) {
  const file = useQuery({
    queryKey: [bookEpubUrl(book.id)],
    // A book's bytes are not kept once the reader has left.
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => (await apiRequest("GET", bookEpubUrl(book.id))).blob(),
  });
  const [view, setView] = useState<View | null>(null);
  const [toc, setToc] = useState<FoliateTocItem[]>([]);
  const [failed, setFailed] = useState(false);
  const latest = useRef(events);
  useEffect(() => {
    latest.current = events;
  });
  // The place to open at is the one saved when the book was opened: later saves are this visit's own.
  const start = useRef(startOf(book.position));
  const latestStyles = useRef(styles);
  useEffect(() => {
    latestStyles.current = styles;
    view?.renderer.setStyles(styles);
  }, [view, styles]);

  const blob = file.data;
  useEffect(() => {
    const target = host.current;
    if (!blob || !target) return;
    let closed = false;
    const element = document.createElement("foliate-view") as View;
    element.className = "block size-full";
    (async () => {
      const epub = await openEpub(blob);
      if (closed) return;
      const chapterLoaded = fitBookToPolicy(epub);
      element.addEventListener("load", (event) => {
        const { doc, index } = (event as CustomEvent<{ doc: Document; index: number }>).detail;
        chapterLoaded(doc, index);
        latest.current.onChapter(doc);
      });
      element.addEventListener("relocate", (event) => latest.current.onRelocate((event as CustomEvent<FoliateLocation>).detail));
      // Links out of the book open in a new tab, and only web or mail ones: never a javascript: or data: URL.
      element.addEventListener("external-link", (event) => {
        event.preventDefault();
        const { href } = (event as CustomEvent<{ href: string }>).detail;
        if (/^(https?|mailto):/i.test(href)) window.open(href, "_blank", "noopener,noreferrer");
      });
      target.append(element);
      await element.open(epub);
      // Styled before the first page is laid out, so that it is not laid out twice.
      element.renderer.setStyles(latestStyles.current);
      element.renderer.setAttribute("max-column-count", "2");
      element.renderer.setAttribute("margin", "32px");
      await element.init({ lastLocation: start.current, showTextStart: start.current === null });
      if (closed) return;
      performance.mark(FIRST_PAGE_MARK);
      setToc(epub.toc ?? []);
      setView(element);
    })().catch((error: unknown) => {
      console.error(error);
      if (!closed) setFailed(true);
    });
    return () => {
      closed = true;
      setView(null);
      element.close();
      element.remove();
    };
  }, [blob, host]);

  return { view, toc, loading: file.isPending || (!view && !failed && !file.isError), failed: failed || file.isError, error: file.error };
}
