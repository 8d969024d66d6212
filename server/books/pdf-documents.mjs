// Opening a PDF that may be hostile with pdf.js, for the cage's children only (cover-drawing-process.mjs
// draws its first page, text-fingerprint-process.ts reads its text): never in the server's process
// (docs/decisions/0031-covers-for-every-book.md). Plain JavaScript, so that the cover process, started
// by path with no loader, and a bundled child share it.
import { open } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { failCagedJob } from "../system/caged-job-child.mjs";

const pdfjsFolder = dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"));
/** pdf.js reads the file in ranges it asks for: a 50 MB book is never in memory whole. */
const CHUNK_BYTES = 64 * 1024;
/** Images inside the PDF above this many pixels are skipped, not decoded (a decompression bomb). */
const MAX_IMAGE_PIXELS = 16_000_000;

/**
 * Opens the PDF at `path`, runs `use` on it, and closes it whatever happens.
 * @template T
 * @param {string} path
 * @param {(document: import("pdfjs-dist").PDFDocumentProxy) => Promise<T>} use
 * @returns {Promise<T>}
 */
export async function withPdfDocument(path, use) {
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
      return await use(document);
    } finally {
      await document.destroy();
    }
  } finally {
    await file.close();
  }
}
