// The cage's child that reads an uploaded book's text and answers its fingerprint (docs/decisions/0091):
// a PDF's text layer through pdf.js, a DOCX's through mammoth, a DOC's through word-extractor, an EPUB's
// spine with its tags stripped (epub-documents.ts), then
// normalised, shingled and MinHashed (text-fingerprints.ts). The file may be hostile: the server kills
// this process past its time, CPU or memory cap (server/system/caged-job.ts). TypeScript bundled by esbuild: at its first start
// from the sources (server/system/child-bundle.ts), by scripts/build-server.mjs for production.
import { serveCagedJob } from "../system/caged-job-child.mjs";
import { epubText } from "./epub-documents.ts";
import { withPdfDocument } from "./pdf-documents.mjs";
import { type TextFingerprint, fingerprintText } from "./text-fingerprints.ts";

export interface FingerprintJob {
  path: string;
  kind: "pdf" | "docx" | "doc" | "epub";
}

/** Text read past this is left out: a book's first sixteen million characters tell it apart well enough, and the heap stays bounded. */
const TEXT_MAX_CHARS = 16 * 1024 * 1024;

/** A PDF's text layer, page by page, each line ended where pdf.js saw one end; a scanned PDF has none. */
async function pdfText(path: string): Promise<string> {
  return withPdfDocument(path, async (document) => {
    let text = "";
    for (let number = 1; number <= document.numPages && text.length < TEXT_MAX_CHARS; number += 1) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      for (const item of content.items) {
        if ("str" in item) text += item.str + (item.hasEOL ? "\n" : "");
      }
      text += "\n";
      page.cleanup();
    }
    return text;
  });
}

/** A Word book's text; each reader is loaded only for its kind, as pdf.js only for a PDF: the child's start is most of an upload's wait. */
async function wordText(path: string, kind: "docx" | "doc"): Promise<string> {
  if (kind === "docx") {
    const { default: mammoth } = await import("mammoth");
    return (await mammoth.extractRawText({ path })).value;
  }
  const { default: WordExtractor } = await import("word-extractor");
  return (await new WordExtractor().extract(path)).getBody();
}

async function bookText(path: string, kind: FingerprintJob["kind"]): Promise<string> {
  if (kind === "pdf") return pdfText(path);
  if (kind === "epub") return epubText(path, TEXT_MAX_CHARS);
  return wordText(path, kind);
}

serveCagedJob<FingerprintJob, TextFingerprint>(async ({ path, kind }) => {
  const text = await bookText(path, kind);
  return fingerprintText(text.slice(0, TEXT_MAX_CHARS));
});
