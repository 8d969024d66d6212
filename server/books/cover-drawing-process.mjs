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
import { open } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createCanvas } from "@napi-rs/canvas";
import { encodeGeneratedCover } from "./generated-covers.mjs";
import { failCagedJob, serveCagedJob } from "../system/caged-job-child.mjs";

const pdfjsFolder = dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"));
/** pdf.js reads the file in ranges it asks for: a 50 MB book is never in memory whole. */
const CHUNK_BYTES = 64 * 1024;
/** Images inside the PDF above this many pixels are skipped, not decoded (a decompression bomb). */
const MAX_IMAGE_PIXELS = 16_000_000;
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
async function firstPage({ path, covers }) {
  // Loaded for a PDF only: a typographic cover does not wait for pdf.js to load.
  const { PDFDataRangeTransport, getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const file = await open(path, "r");
  try {
    const { size } = await file.stat();
    const readRange = async (begin, end) => {
      const chunk = Buffer.alloc(end - begin);
      const { bytesRead } = await file.read(chunk, 0, chunk.length, begin);
      return new Uint8Array(chunk.buffer, chunk.byteOffset, bytesRead);
    };
    const transport = new PDFDataRangeTransport(size, await readRange(0, Math.min(size, CHUNK_BYTES)));
    transport.requestDataRange = (begin, end) => {
      readRange(begin, end).then(
        (chunk) => transport.onDataRange(begin, chunk),
        (error) => failCagedJob(error),
      );
    };
    const task = getDocument({
      range: transport,
      rangeChunkSize: CHUNK_BYTES,
      disableAutoFetch: true,
      disableStream: true,
      // CVE-2024-4367: no code generated from a font's data (pdf.js at or above 4.2.67 and this flag).
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      maxImageSize: MAX_IMAGE_PIXELS,
      standardFontDataUrl: join(pdfjsFolder, "standard_fonts/"),
      cMapUrl: join(pdfjsFolder, "cmaps/"),
      cMapPacked: true,
      wasmUrl: join(pdfjsFolder, "wasm/"),
      iccUrl: join(pdfjsFolder, "iccs/"),
      verbosity: 0,
    });
    const document = await task.promise;
    try {
      const pageCount = document.numPages;
      if (!covers) return { pageCount, covers: null };
      const page = await document.getPage(1);
      const drawn = [];
      for (const width of covers.widths) {
        const webp = await drawCover(page, width, Math.round(width * covers.heightRatio), covers.webpQuality);
        drawn.push({ width, webp });
      }
      return { pageCount, covers: drawn };
    } finally {
      await document.destroy();
    }
  } finally {
    await file.close();
  }
}

/** @param {{ kind: "pdf-first-page" | "generated" } & Record<string, any>} job */
function draw(job) {
  if (job.kind === "generated") return encodeGeneratedCover(job.drawing, job.covers).then((covers) => ({ pageCount: null, covers }));
  return firstPage(job);
}

serveCagedJob(draw);
