// A child process that draws one cover and answers it as the stored cover's WebP widths, so that the
// server never loads an image library for it (docs/decisions/0060-covers-drawn-without-sharp.md)
// and never runs @napi-rs/canvas, whose encodes crashed the whole server when several ran at once
// (docs/decisions/0052-cover-drawing-apart-from-the-server.md). Its job is one of:
// - a PDF: opened with pdf.js, its page count answered and, when asked, its cover: its first page drawn
//   at each width from the page itself (sharper than scaling one image down), or, when that page does
//   not work as a cover on a card (first-page-covers.mjs), the typographic cover of the title sent
//   with it (docs/decisions/0108-text-first-pdf-covers.md). A crafted PDF can only exhaust or crash
//   this process, never the server: the server kills it past its time cap, and its heap and image
//   sizes are capped here (docs/decisions/0031-covers-for-every-book.md);
// - a Word book's typographic cover (generated-covers.mjs), from the title, author and palette sent.
// The server's cage (server/system/caged-job.ts) caps its heap, time and CPU. Plain JavaScript: it is
// started by path, from the sources and by the production bundle alike, with no loader.
import { firstPageCover } from "./first-page-covers.mjs";
import { encodeGeneratedCover } from "./generated-covers.mjs";
import { serveCagedJob } from "../system/caged-job-child.mjs";
import { withPdfDocument } from "./pdf-documents.mjs";

/**
 * @param {{ path: string, cover: { sizes: { widths: number[], heightRatio: number, webpQuality: number }, typographic: import("./generated-covers.mjs").CoverDrawing } | null }} job
 * @returns {Promise<{ pageCount: number, covers: Array<{ width: number, webp: Buffer }> | null, source: "first-page" | "generated" | null }>}
 */
async function firstPage({ path, cover }) {
  const { pageCount, drawn } = await withPdfDocument(path, async (document) => ({
    pageCount: document.numPages,
    drawn: cover ? await firstPageCover(await document.getPage(1), cover.sizes) : null,
  }));
  if (!cover) return { pageCount, covers: null, source: null };
  if (drawn) return { pageCount, covers: drawn, source: "first-page" };
  return { pageCount, covers: await encodeGeneratedCover(cover.typographic, cover.sizes), source: "generated" };
}

/** @param {{ kind: "pdf-first-page" | "generated" } & Record<string, any>} job */
function draw(job) {
  if (job.kind === "generated") return encodeGeneratedCover(job.drawing, job.covers).then((covers) => ({ pageCount: null, covers, source: "generated" }));
  return firstPage(job);
}

serveCagedJob(draw);
