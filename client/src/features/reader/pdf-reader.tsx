import { bookFileUrl } from "@shared/reading";
import { GlobalWorkerOptions, type PDFDocumentProxy, type RenderTask, TextLayer, getDocument } from "pdfjs-dist";
import workerUrl from "pdfjs-dist/build/pdf.worker.min.mjs?url";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { FormatViewProps } from "@/features/reader/format-view";
import { fitScale } from "@/features/reader/page-fit";

// The worker is a file of the build, served by Plume itself: the CSP's script-src 'self' covers it
// (docs/decisions/0029-reading-in-the-browser.md).
GlobalWorkerOptions.workerSrc = workerUrl;

/** Bytes per Range request: a page of a large book comes in a few requests, not the whole file. */
const RANGE_CHUNK_BYTES = 256 * 1024;

/**
 * One page of a PDF at a time, drawn by pdf.js on one canvas with its text layer above it (text can be
 * selected and found): a 300-page book never has more than one page rendered. The page fits the room
 * whole or by its width, or takes the reader's zoom; in the dark theme reader.css inverts it.
 */
export function PdfReader({ bookId, page, layout, room, onPageCount, onScale }: FormatViewProps) {
  const { t } = useTranslation();
  const [pdf, setPdf] = useState<PDFDocumentProxy>();
  const [failed, setFailed] = useState(false);
  // The drawing on the canvas, named by what it shows: the page is being drawn while this differs.
  const [drawn, setDrawn] = useState("");
  const sheet = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const textLayer = useRef<HTMLDivElement>(null);
  const { fit, scale: zoom } = layout;
  const { width, height } = room;
  const drawing = `${page}:${fit}:${zoom}:${width}x${height}`;

  useEffect(() => {
    const task = getDocument({
      url: bookFileUrl(bookId),
      // CVE-2024-4367: fonts are never compiled into functions (docs/decisions/0029-reading-in-the-browser.md).
      isEvalSupported: false,
      // Only the pages shown are fetched, by Range requests, rather than the whole file in the background.
      disableAutoFetch: true,
      disableStream: true,
      rangeChunkSize: RANGE_CHUNK_BYTES,
    });
    task.promise.then(
      (document) => {
        setPdf(document);
        onPageCount(document.numPages);
      },
      () => setFailed(true),
    );
    return () => void task.destroy();
  }, [bookId, onPageCount]);

  useEffect(() => {
    if (!pdf || width <= 0 || height <= 0) return;
    let cancelled = false;
    let rendering: RenderTask | undefined;
    let text: TextLayer | undefined;
    void (async () => {
      try {
        const pdfPage = await pdf.getPage(Math.min(Math.max(page, 1), pdf.numPages));
        if (cancelled) return;
        const natural = pdfPage.getViewport({ scale: 1 });
        const scale = zoom ?? fitScale(natural, { width, height }, fit);
        onScale(scale);
        const viewport = pdfPage.getViewport({ scale });
        const pixels = window.devicePixelRatio || 1;
        const target = canvas.current!;
        target.width = Math.floor(viewport.width * pixels);
        target.height = Math.floor(viewport.height * pixels);
        target.style.width = `${Math.floor(viewport.width)}px`;
        target.style.height = `${Math.floor(viewport.height)}px`;
        sheet.current!.style.width = target.style.width;
        sheet.current!.style.setProperty("--total-scale-factor", String(scale));
        sheet.current!.dataset.scale = scale.toFixed(3);
        rendering = pdfPage.render({ canvas: target, viewport, transform: pixels === 1 ? undefined : [pixels, 0, 0, pixels, 0, 0] });
        const layer = textLayer.current!;
        layer.replaceChildren();
        text = new TextLayer({ textContentSource: pdfPage.streamTextContent(), container: layer, viewport });
        await Promise.all([rendering.promise, text.render()]);
        if (!cancelled) setDrawn(drawing);
      } catch (error) {
        // A newer page or zoom cancelled this drawing; anything else means the page cannot be shown.
        if (!cancelled && (error as Error).name !== "RenderingCancelledException") setFailed(true);
      }
    })();
    return () => {
      cancelled = true;
      rendering?.cancel();
      text?.cancel();
    };
  }, [pdf, page, fit, zoom, width, height, drawing, onScale]);

  const isDrawn = pdf !== undefined && drawn === drawing;
  if (failed) return <p role="alert" className="mx-auto max-w-prose px-4 py-16 text-center text-ink">{t("reader.pdfFailed")}</p>;
  return (
    <div className="relative w-fit min-w-full">
      {!isDrawn && (
        <p role="status" className="absolute inset-x-0 top-1/3 z-10 text-center text-sm text-ink-muted">
          {t("reader.loadingPage")}
        </p>
      )}
      <div ref={sheet} className="pdf-page" data-testid="pdf-page" data-page={page} data-drawn={isDrawn}>
        <canvas ref={canvas} aria-hidden="true" />
        <div ref={textLayer} className="textLayer" />
      </div>
    </div>
  );
}
