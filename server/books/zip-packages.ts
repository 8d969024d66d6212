import yauzl from "yauzl";
import type { DocxLimits } from "../config.ts";

/**
 * Reading an uploaded zip package (a DOCX, an EPUB) without trusting it: the central directory with
 * a bound on its entries, parts inflated with a bound on what is kept and stopped as soon as they
 * pass their declared size, and the declared sizes judged against the zip-bomb limits
 * (docs/decisions/0023, 0050, 0095).
 */

const MAX_ENTRIES = 10_000;
/** Small parts (styles, settings) compress far better than a document's bulk and cannot make a bomb. */
const RATIO_GRACE_BYTES = 1024 * 1024;

export interface ZipPart {
  entry: yauzl.Entry;
  /** The part's name as Word compares it: percent-decoded, case-insensitive. */
  name: string;
}

/** A zip holding an entry whose name is absolute or climbs out of its folder (`../`), which an unpacking reader could write anywhere. */
export class UnsafeZipName extends Error {
  override name = "UnsafeZipName";
}

export function partNameOf(fileName: string): string {
  try {
    return decodeURIComponent(fileName).toLowerCase();
  } catch {
    return fileName.toLowerCase();
  }
}

/** yauzl's own refusals of an entry's name (its validateFileName). */
const UNSAFE_NAME = /^(absolute path|invalid relative path|invalid characters in fileName)/;

export function openZip(path: string): Promise<{ zip: yauzl.ZipFile; parts: ZipPart[] }> {
  return new Promise((resolve, reject) => {
    // Sizes are checked below against what each part declares, with a reason of our own.
    yauzl.open(path, { lazyEntries: true, autoClose: false, strictFileNames: false, validateEntrySizes: false }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error("unreadable zip"));
      const parts: ZipPart[] = [];
      zip.on("entry", (entry: yauzl.Entry) => {
        parts.push({ entry, name: partNameOf(entry.fileName) });
        if (parts.length > MAX_ENTRIES) {
          zip.close();
          return reject(new Error("too many zip entries"));
        }
        zip.readEntry();
      });
      zip.on("end", () => resolve({ zip, parts }));
      zip.on("error", (error: Error) => {
        zip.close();
        reject(UNSAFE_NAME.test(error.message) ? new UnsafeZipName(error.message) : error);
      });
      zip.readEntry();
    });
  });
}

/** The names of a zip's parts, read from its central directory without extracting anything. */
export async function zipPartNames(path: string): Promise<string[]> {
  const { zip, parts } = await openZip(path);
  zip.close();
  return parts.map(({ entry }) => entry.fileName);
}

/**
 * Inflates a part, keeping at most `keepBytes` of it, and stops as soon as it passes its declared
 * size: `inflated` is then one chunk past it, which is all a lying header gets to cost.
 */
export function inflate(zip: yauzl.ZipFile, entry: yauzl.Entry, keepBytes: number): Promise<{ inflated: number; kept: Buffer }> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) return reject(error ?? new Error("unreadable part"));
      const chunks: Buffer[] = [];
      let inflated = 0;
      stream.on("data", (chunk: Buffer) => {
        if (inflated < keepBytes) chunks.push(chunk.subarray(0, keepBytes - inflated));
        inflated += chunk.length;
        if (inflated > entry.uncompressedSize) {
          stream.destroy();
          resolve({ inflated, kept: Buffer.concat(chunks) });
        }
      });
      stream.on("end", () => resolve({ inflated, kept: Buffer.concat(chunks) }));
      stream.on("error", reject);
    });
  });
}

/**
 * A part whole, when it declares at most `maxBytes` and inflates to exactly what it declares;
 * null otherwise (too large to read, or lying about its size).
 */
export async function readPart(zip: yauzl.ZipFile, entry: yauzl.Entry, maxBytes: number): Promise<Buffer | null> {
  if (entry.uncompressedSize > maxBytes) return null;
  const { inflated, kept } = await inflate(zip, entry, maxBytes);
  return inflated === entry.uncompressedSize ? kept : null;
}

/** The declared sizes: in total under the bound, and no large part inflating like a bomb. */
export function declaresTooMuch(parts: ZipPart[], limits: Pick<DocxLimits, "unpackedMaxBytes" | "inflateRatioMax">): boolean {
  const unpacked = parts.reduce((sum, { entry }) => sum + entry.uncompressedSize, 0);
  return (
    unpacked > limits.unpackedMaxBytes ||
    parts.some(({ entry }) => entry.uncompressedSize > RATIO_GRACE_BYTES && entry.uncompressedSize > entry.compressedSize * limits.inflateRatioMax)
  );
}

/** Inflates every part once, counting: a part that inflates past its declared size is a bomb that lies. */
export async function judgeInflatedSizes(zip: yauzl.ZipFile, parts: ZipPart[]): Promise<"unpacks-too-large" | "malformed" | null> {
  for (const { entry } of parts) {
    const { inflated } = await inflate(zip, entry, 0);
    if (inflated > entry.uncompressedSize) return "unpacks-too-large";
    if (inflated < entry.uncompressedSize) return "malformed";
  }
  return null;
}

/**
 * A package's XML part as text. OPC and EPUB's OCF both allow UTF-8 and UTF-16 only (ECMA-376 Part 2,
 * M1.17; EPUB 3.3 §4.3.4); a part in UTF-16 read as UTF-8 would hide every element, so the encoding
 * is followed, and any other refused.
 */
export function decodeXml(bytes: Buffer): string | "malformed" {
  const utf16 = (littleEndian: Buffer) => (littleEndian.length % 2 === 0 ? littleEndian.toString("utf16le") : "\0");
  let text: string;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = utf16(bytes.subarray(2));
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = utf16(Buffer.from(bytes.subarray(2)).swap16());
  else if (bytes[0] === 0x3c && bytes[1] === 0x00) text = utf16(bytes);
  else if (bytes[0] === 0x00 && bytes[1] === 0x3c) text = utf16(Buffer.from(bytes).swap16());
  else text = bytes.toString("utf8").replace(/^\uFEFF/, "");
  const encoding = /^<\?xml[^>]*?encoding\s*=\s*["']([^"']*)/.exec(text)?.[1];
  if (/[\0\uFFFD]/.test(text) || (encoding !== undefined && !/^utf-?(8|16(le|be)?)$/i.test(encoding))) return "malformed";
  return text;
}
