import { open } from "node:fs/promises";
import type { BookFileType } from "../../shared/books.ts";
import { zipPartNames } from "./zip-packages.ts";

/** What a stored upload really is, judged by its bytes, never by its name or the browser's claim. */

export const BOOK_MIME_TYPES: Record<BookFileType, string> = {
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  epub: "application/epub+zip",
};

export type CoverType = "jpeg" | "png" | "webp";
export const COVER_MIME_TYPES: Record<CoverType, string> = { jpeg: "image/jpeg", png: "image/png", webp: "image/webp" };

const PDF_MAGIC = Buffer.from("%PDF-", "latin1");
const PDF_END = Buffer.from("%%EOF", "latin1");
const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export const SNIFF_BYTES = 16;

/** The lower-cased last extension of a client file name ("Book.Final.PDF" → "pdf"). */
export function extensionOf(fileName: string): string {
  const match = /\.([^./\\]+)$/.exec(fileName);
  return match ? match[1]!.toLowerCase() : "";
}

export function coverTypeOfExtension(extension: string): CoverType | undefined {
  if (extension === "jpg" || extension === "jpeg") return "jpeg";
  if (extension === "png" || extension === "webp") return extension;
  return undefined;
}

export function isCoverOfType(header: Buffer, type: CoverType): boolean {
  switch (type) {
    case "jpeg":
      return header.subarray(0, 3).equals(JPEG_MAGIC);
    case "png":
      return header.subarray(0, 8).equals(PNG_MAGIC);
    case "webp":
      return header.toString("latin1", 0, 4) === "RIFF" && header.toString("latin1", 8, 12) === "WEBP";
  }
}

async function readAt(path: string, start: number, length: number): Promise<Buffer> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, start);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const readTail = (path: string, size: number, length: number) => readAt(path, Math.max(0, size - length), Math.min(size, length));

/** Whether a zip's first entry is named `mimetype`, by its local header (name length at byte 26, name from byte 30). */
async function firstEntryIsMimetype(path: string): Promise<boolean> {
  const head = await readAt(path, 0, 30 + 8);
  return head.length === 38 && head.readUInt16LE(26) === 8 && head.toString("latin1", 30) === "mimetype";
}

/**
 * True when the stored file is a real document of the type its extension claims:
 * a PDF starts with %PDF- and ends with %%EOF; a DOC is an OLE compound file; a DOCX is a zip
 * holding word/document.xml; an EPUB a zip whose first entry is `mimetype` (OCF §4.3). Whether a Word
 * document or an EPUB is safe to pass on is word-documents.ts's and epub-documents.ts's question.
 */
export async function isBookOfType(path: string, size: number, header: Buffer, type: BookFileType): Promise<boolean> {
  switch (type) {
    case "pdf":
      return header.subarray(0, 5).equals(PDF_MAGIC) && (await readTail(path, size, 1024)).includes(PDF_END);
    case "doc":
      return header.subarray(0, 8).equals(OLE_MAGIC);
    case "docx": {
      if (!header.subarray(0, 4).equals(ZIP_MAGIC)) return false;
      const names = await zipPartNames(path).catch(() => [] as string[]);
      return names.includes("word/document.xml");
    }
    case "epub":
      return header.subarray(0, 4).equals(ZIP_MAGIC) && (await firstEntryIsMimetype(path));
  }
}
