// A child process that draws one cover and answers it as the stored cover's WebP widths, so that the
// server never loads an image library for it (docs/decisions/0060-covers-drawn-without-sharp.md)
// and never runs @napi-rs/canvas, whose encodes crashed the whole server when several ran at once
// (docs/decisions/0052-cover-drawing-apart-from-the-server.md). Its job is one of:
// - a PDF: opened with pdf.js, its page count answered and, when asked, its first page drawn at each
//   width from the page itself (sharper than scaling one image down). A crafted PDF can only exhaust
//   or crash this process, never the server: the server kills it past its time cap, and its heap and
//   image sizes are capped here (docs/decisions/0031-covers-for-every-book.md);
// - a Word book's typographic cover (generated-covers.mjs), from the title, author and palette sent.
// The server's cage (server/system/caged-job.ts) caps its heap, time and CPU. Plain JavaScript: it is
// started by path, from the sources and by the production bundle alike, with no loader.
import { createCanvas } from "@napi-rs/canvas";
import { encodeGeneratedCover } from "./generated-covers.mjs";
import { serveCagedJob } from "../system/caged-job-child.mjs";
import { withPdfDocument } from "./pdf-documents.mjs";

/**
 * The page, drawn whole, never exceeds this area, whatever its declared size or shape: a page too
 * narrow or too short to fill a cover's box within it is drawn smaller, on white.
 */
const MAX_PAGE_PIXELS = 4_000_000;

/**
 * The page drawn to fill a `width` × `height` box, centred across and kept from its top down (where a
 * title page has its title), as WebP.
 * @param {import("pdfjs-dist").PDFPageProxy} page
 */
async function drawCover(page, width, height, quality) {
  const natural = page.getViewport({ scale: 1 });
  let scale = Math.max(width / natural.width, height / natural.height);
  scale = Math.min(scale, Math.sqrt(MAX_PAGE_PIXELS / (natural.width * natural.height)));
  const viewport = page.getViewport({ scale, offsetX: (width - natural.width * scale) / 2, offsetY: 0 });
  const canvas = createCanvas(width, height);
  await page.render({ canvas, canvasContext: canvas.getContext("2d"), viewport, background: "#ffffff" }).promise;
  return canvas.encode("webp", quality);
}

/**
 * @param {{ path: string, covers: { widths: number[], heightRatio: number, webpQuality: number } | null }} job
 * @returns {Promise<{ pageCount: number, covers: Array<{ width: number, webp: Buffer }> | null }>}
 */
function firstPage({ path, covers }) {
  return withPdfDocument(path, async (document) => {
    const pageCount = document.numPages;
    if (!covers) return { pageCount, covers: null };
    const page = await document.getPage(1);
    const drawn = [];
    for (const width of covers.widths) {
      const webp = await drawCover(page, width, Math.round(width * covers.heightRatio), covers.webpQuality);
      drawn.push({ width, webp });
    }
    return { pageCount, covers: drawn };
  });
}

/** @param {{ kind: "pdf-first-page" | "generated" } & Record<string, any>} job */
function draw(job) {
  if (job.kind === "generated") return encodeGeneratedCover(job.drawing, job.covers).then((covers) => ({ pageCount: null, covers }));
  return firstPage(job);
}

serveCagedJob(draw);
