import { fork } from "node:child_process";
import { join } from "node:path";
import type { CoverPalette } from "../../shared/cover-palettes.ts";
import { projectRoot } from "../paths.ts";

const RENDER_PROCESS = join(projectRoot, "server", "books", "cover-drawing-process.mjs");

export interface PdfRenderLimits {
  /** The whole job, process start included; past it the process is killed. */
  timeoutMs: number;
  /** The render process's JavaScript heap. */
  heapMegabytes: number;
}

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

/** What the typographic cover of a Word book shows, in the colours of its genre (generated-covers.mjs). */
export interface GeneratedCoverDrawing {
  title: string;
  authorName: string | null;
  palette: CoverPalette;
  heightRatio: number;
}

/** One cover for the drawing process to draw (cover-drawing-process.mjs). */
type DrawingJob =
  | { kind: "pdf-first-page"; path: string; covers: CoverSizes | null }
  | { kind: "generated"; drawing: GeneratedCoverDrawing; covers: CoverSizes };
type Answer = { pageCount: number | null; covers: Array<{ width: number; webp: Uint8Array }> | null } | { error: string };
type Drawn = { pageCount: number | null; covers: DrawnCoverWidth[] | null };

/**
 * Opens a stored PDF in a process of its own (cover-drawing-process.mjs) and answers its page count
 * and, given `covers`, its first page drawn and encoded at each of their widths, so that the server
 * loads no image library for it (docs/decisions/0045-footprint-of-the-embedded-default.md). A PDF that pdf.js cannot open,
 * that takes longer than the time cap or that exhausts its heap is a PdfUnreadableError; the server
 * itself is never at risk (docs/decisions/0031-covers-for-every-book.md).
 */
export async function readPdfFirstPage(
  path: string,
  covers: CoverSizes | null,
  limits: PdfRenderLimits = PDF_RENDER_LIMITS,
): Promise<PdfFirstPage> {
  const drawn = await drawApart({ kind: "pdf-first-page", path, covers }, limits, (why) => new PdfUnreadableError(why));
  return { pageCount: drawn.pageCount!, covers: drawn.covers };
}

/**
 * Draws a Word book's typographic cover at every width of `covers` in the drawing process: never in the
 * server's, where @napi-rs/canvas crashed the whole process when covers were encoded at once
 * (docs/decisions/0052-cover-drawing-apart-from-the-server.md). A cover not drawn within the limits is an Error.
 */
export async function drawGeneratedCoverApart(
  drawing: GeneratedCoverDrawing,
  covers: CoverSizes,
  limits: PdfRenderLimits = PDF_RENDER_LIMITS,
): Promise<DrawnCoverWidth[]> {
  const drawn = await drawApart({ kind: "generated", drawing, covers }, limits, (why) => new Error(`The cover could not be drawn: ${why}`));
  return drawn.covers!;
}

function drawApart(job: DrawingJob, limits: PdfRenderLimits, failure: (why: string) => Error): Promise<Drawn> {
  return new Promise((resolve, reject) => {
    const child = fork(RENDER_PROCESS, {
      execArgv: [`--max-old-space-size=${limits.heapMegabytes}`],
      serialization: "advanced",
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    let settled = false;
    let stderr = "";
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null) child.kill("SIGKILL");
      outcome();
    };
    const unreadable = (why: string) => settle(() => reject(failure(why)));
    const timer = setTimeout(() => unreadable(`no answer within ${limits.timeoutMs} ms`), limits.timeoutMs);
    child.stderr!.on("data", (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString("utf8");
    });
    child.on("message", (answer: Answer) => {
      if ("error" in answer) return unreadable(answer.error);
      const drawn = answer.covers?.map(({ width, webp }) => ({ width, webp: Buffer.from(webp.buffer, webp.byteOffset, webp.byteLength) })) ?? null;
      settle(() => resolve({ pageCount: answer.pageCount, covers: drawn }));
    });
    child.on("error", (error) => settle(() => reject(error)));
    // "close", not "exit": the answer may still be on its way through the IPC channel when the process has exited.
    child.on("close", (code, signal) => unreadable(`the render process ended (${signal ?? `exit ${code}`}) without an answer${stderr ? `: ${stderr.trim().split("\n").at(-1)}` : ""}`));
    child.send(job);
  });
}
