import { type ReadingPosition, percentageOfPage, readingPositionUrl } from "@shared/reading";
import { useCallback, useEffect, useRef, useState } from "react";

/** Pages turned in a row are saved once, this long after the last turn. */
export const SAVE_DELAY_MS = 1000;

/**
 * Sent with keepalive, so a save started as the reader leaves (another screen, a closed tab) still
 * reaches the server. A failed save is not worth interrupting the reading: the next turn saves again.
 */
function sendPosition(bookId: number, position: ReadingPosition): void {
  void fetch(readingPositionUrl(bookId), {
    method: "PUT",
    credentials: "include",
    keepalive: true,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(position),
  }).catch(() => undefined);
}

/**
 * Remembers where the reader is on the server (docs/product.md#reading): saved a moment after the
 * pages stop turning, and at once when the reader leaves the screen or the tab is hidden.
 */
export function usePositionSaver(bookId: number): (position: ReadingPosition) => void {
  const unsaved = useRef<ReadingPosition | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const flush = useCallback(() => {
    clearTimeout(timer.current);
    if (unsaved.current === null) return;
    sendPosition(bookId, unsaved.current);
    unsaved.current = null;
  }, [bookId]);

  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === "hidden") flush();
    };
    document.addEventListener("visibilitychange", onHide);
    window.addEventListener("pagehide", flush);
    return () => {
      document.removeEventListener("visibilitychange", onHide);
      window.removeEventListener("pagehide", flush);
      flush();
    };
  }, [flush]);

  return useCallback(
    (position: ReadingPosition) => {
      unsaved.current = position;
      clearTimeout(timer.current);
      timer.current = setTimeout(flush, SAVE_DELAY_MS);
    },
    [flush],
  );
}

/**
 * The page a PDF or a reading view is on, saved as it turns, with how far through the book it is once
 * the page count is known: a new edition of the book opens at that percentage (docs/product.md#editions).
 */
export function useReadingPosition(bookId: number, savedPage: number | null, pageCount?: number) {
  const [page, setPage] = useState(savedPage ?? 1);
  const shown = useRef(page);
  const save = usePositionSaver(bookId);

  const goTo = useCallback(
    (next: number) => {
      if (next === shown.current) return;
      shown.current = next;
      setPage(next);
      save(pageCount === undefined ? { page: next } : { page: next, percentage: percentageOfPage(next, pageCount) });
    },
    [save, pageCount],
  );

  return { page, goTo };
}
