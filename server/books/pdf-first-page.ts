import { join } from "node:path";
import { projectRoot } from "../paths.ts";
import { type CageLimits, type CagedProgram, runCaged } from "../system/caged-job.ts";

// Plain JavaScript started by path: the same file from the sources and under the production bundle.
const RENDER_PROCESS: CagedProgram = { path: join(projectRoot, "server", "books", "pdf-first-page-process.mjs"), execArgv: [] };

export type PdfRenderLimits = CageLimits;

export const PDF_RENDER_LIMITS: PdfRenderLimits = { timeoutMs: 20_000, heapMegabytes: 160 };

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

export interface PdfFirstPage {
  pageCount: number;
  /** The first page as WebP at each width asked for; null when none were asked for. */
  covers: DrawnCoverWidth[] | null;
}

export class PdfUnreadableError extends Error {
  override name = "PdfUnreadableError";
}

type Answer = { pageCount: number; covers: Array<{ width: number; webp: Uint8Array }> | null };

/**
 * Opens a stored PDF in a cage of its own (pdf-first-page-process.mjs through server/system/caged-job.ts)
 * and answers its page count and, given `covers`, its first page drawn and encoded at each of their
 * widths, so that the server loads no image library for it (docs/decisions/0045-footprint-of-the-embedded-default.md).
 * A PDF that pdf.js cannot open, that takes longer than the time cap or that exhausts its heap is a
 * PdfUnreadableError; the server itself is never at risk (docs/decisions/0031-covers-for-every-book.md).
 */
export async function readPdfFirstPage(
  path: string,
  covers: CoverSizes | null,
  limits: PdfRenderLimits = PDF_RENDER_LIMITS,
): Promise<PdfFirstPage> {
  let answer: Answer;
  try {
    ({ answer } = await runCaged<{ path: string; covers: CoverSizes | null }, Answer>(RENDER_PROCESS, { path, covers }, limits));
  } catch (error) {
    throw new PdfUnreadableError((error as Error).message);
  }
  const drawn = answer.covers?.map(({ width, webp }) => ({ width, webp: Buffer.from(webp.buffer, webp.byteOffset, webp.byteLength) })) ?? null;
  return { pageCount: answer.pageCount, covers: drawn };
}
