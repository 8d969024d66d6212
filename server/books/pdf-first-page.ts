import { join } from "node:path";
import type { CoverPalette } from "../../shared/cover-palettes.ts";
import { projectRoot } from "../paths.ts";
import { type CageLimits, CagedJobError, type CagedProgram, runApart, runCaged, scriptAt } from "../system/caged-job.ts";

// Plain JavaScript started by path: the same file from the sources and under the production bundle.
const RENDER_PROCESS: CagedProgram = scriptAt(join(projectRoot, "server", "books", "cover-drawing-process.mjs"));

export type PdfRenderLimits = CageLimits;

export const PDF_RENDER_LIMITS: PdfRenderLimits = { timeoutMs: 20_000, heapMegabytes: 160 };

/** The clock's cap of a background drawing over its CPU cap: below the server's priority, a busy machine stretches it. */
const BACKGROUND_CLOCK_PER_CPU = 5;

/**
 * The limits of a drawing the cover queue makes in the background at `niceness` (docs/decisions/0073):
 * judged by the CPU it spends, as PDF_RENDER_LIMITS judge it by the clock, since below the server's
 * priority its time by the clock is what the server leaves it, not what the file needs.
 */
export function backgroundDrawingLimits(niceness: number): PdfRenderLimits {
  const cpuSeconds = PDF_RENDER_LIMITS.timeoutMs / 1000;
  return { ...PDF_RENDER_LIMITS, cpuSeconds, timeoutMs: PDF_RENDER_LIMITS.timeoutMs * BACKGROUND_CLOCK_PER_CPU, niceness };
}

/** The stored cover's widths and encoding, which the render process draws the first page at. */
export interface CoverSizes {
  widths: readonly number[];
  /** Height ÷ width of every width's box. */
  heightRatio: number;
  webpQuality: number;
}

export interface DrawnCoverWidth {
  width: number;
  webp: Buffer;
}

/** Who drew a cover Plume made: a PDF's first page, or Plume's typographic cover (docs/product.md#covers). */
export type DrawnCoverSource = "first-page" | "generated";

export interface PdfFirstPage {
  pageCount: number;
  /** The cover as WebP at each width asked for; null when none was asked for. */
  cover: {
    widths: DrawnCoverWidth[];
    /** The first page, or the typographic cover when that page does not work as a cover on a card. */
    source: DrawnCoverSource;
  } | null;
}

export class PdfUnreadableError extends Error {
  override name = "PdfUnreadableError";
}

/** What the typographic cover of a book shows, in the colours of its genre (generated-covers.mjs). */
export interface GeneratedCoverDrawing {
  title: string;
  authorName: string | null;
  palette: CoverPalette;
  heightRatio: number;
}

/**
 * The cover wanted of a PDF: its first page at these sizes or, when that page does not work as a cover
 * on a card, the typographic cover drawn from `typographic` (docs/decisions/0108-text-first-pdf-covers.md).
 */
export interface PdfCoverWanted {
  sizes: CoverSizes;
  typographic: GeneratedCoverDrawing;
}

/** One cover for the drawing process to draw (cover-drawing-process.mjs). */
type DrawingJob =
  | { kind: "pdf-first-page"; path: string; cover: PdfCoverWanted | null }
  | { kind: "generated"; drawing: GeneratedCoverDrawing; covers: CoverSizes };
type Answer = { pageCount: number | null; covers: Array<{ width: number; webp: Uint8Array }> | null; source: DrawnCoverSource | null };

const drawnOf = (covers: Answer["covers"]): DrawnCoverWidth[] | null =>
  covers?.map(({ width, webp }) => ({ width, webp: Buffer.from(webp.buffer, webp.byteOffset, webp.byteLength) })) ?? null;

/**
 * Opens a stored PDF in a cage (cover-drawing-process.mjs through server/system/caged-job.ts) and
 * answers its page count and, given `cover`, its cover drawn and encoded at each of its widths (the
 * first page, or the typographic cover when that page reads as a blank sheet on a card), so that the
 * server loads no image library for it (docs/decisions/0060-covers-drawn-without-sharp.md).
 * A PDF that pdf.js cannot open, that takes longer than the time cap or that exhausts its heap is a
 * PdfUnreadableError; the server itself is never at risk (docs/decisions/0031-covers-for-every-book.md).
 */
export async function readPdfFirstPage(
  path: string,
  cover: PdfCoverWanted | null,
  limits: PdfRenderLimits = PDF_RENDER_LIMITS,
): Promise<PdfFirstPage> {
  let answer: Answer;
  try {
    ({ answer } = await runCaged<DrawingJob, Answer>(RENDER_PROCESS, { kind: "pdf-first-page", path, cover }, limits));
  } catch (error) {
    throw new PdfUnreadableError((error as Error).message);
  }
  const widths = drawnOf(answer.covers);
  return { pageCount: answer.pageCount!, cover: widths && { widths, source: answer.source! } };
}

/**
 * Draws a Word book's typographic cover at every width of `covers` in the drawing process: never in the
 * server's, where @napi-rs/canvas crashed the whole process when covers were encoded at once
 * (docs/decisions/0052-cover-drawing-apart-from-the-server.md). Its input is the author's text, not a
 * hostile file, so it does not queue behind a file's cage (a Word book's view may hold it for a minute)
 * but is bounded by the caller. A cover not drawn within the limits is an Error.
 */
export async function drawGeneratedCoverApart(
  drawing: GeneratedCoverDrawing,
  covers: CoverSizes,
  limits: PdfRenderLimits = PDF_RENDER_LIMITS,
): Promise<DrawnCoverWidth[]> {
  const draw = () => runApart<DrawingJob, Answer>(RENDER_PROCESS, { kind: "generated", drawing, covers }, limits);
  let answer: Answer;
  try {
    ({ answer } = await draw().catch((error: unknown) => {
      // Its input is the author's text, never hostile: a crash is the canvas's own, seen now and then
      // under load (docs/decisions/0052), not the cover's, and a new process draws it once more.
      if (error instanceof CagedJobError && error.failure === "crashed") return draw();
      throw error;
    }));
  } catch (error) {
    throw new Error(`The cover could not be drawn: ${(error as Error).message}`, { cause: error });
  }
  return drawnOf(answer.covers)!;
}
