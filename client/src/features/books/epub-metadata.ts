/**
 * What an EPUB's package says of its book (title, author, language, description) and its cover,
 * read in the browser from the chosen file, before anything is sent (docs/product.md#epub): only the
 * zip's central directory, two small parts and the cover image are read, by File.slice, inflated by the browser's own
 * DecompressionStream and parsed by DOMParser, which never loads an external entity. Imported lazily
 * when an EPUB is chosen, so the first screens do not carry it. The server judges the file anyway.
 */

import { COVER_MAX_BYTES } from "@shared/books";

export interface EpubMetadata {
  title: string | null;
  author: string | null;
  language: string | null;
  description: string | null;
  /** The image the package names as its cover, for the preview: the server takes it from the file itself. */
  cover: File | null;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end record (22 bytes) and the longest comment a zip may end with. */
const TAIL_BYTES = 22 + 0xffff;
/** A book's central directory is a few kilobytes; a megabyte holds thousands of entries. */
const MAX_DIRECTORY_BYTES = 1024 * 1024;
/** container.xml and the package document are lists of a few kilobytes. */
const MAX_PART_BYTES = 1024 * 1024;
const DUBLIN_CORE = "http://purl.org/dc/elements/1.1/";

interface Entry {
  method: number;
  compressedSize: number;
  size: number;
  offset: number;
}

const bytesOf = async (file: Blob, start: number, end: number) => new DataView(await file.slice(start, end).arrayBuffer());

async function centralDirectory(file: File): Promise<Map<string, Entry> | null> {
  const tailStart = Math.max(0, file.size - TAIL_BYTES);
  const tail = await bytesOf(file, tailStart, file.size);
  let end = -1;
  for (let at = tail.byteLength - 22; at >= 0; at -= 1) {
    if (tail.getUint32(at, true) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) return null;
  const directorySize = tail.getUint32(end + 12, true);
  const directoryOffset = tail.getUint32(end + 16, true);
  if (directorySize > MAX_DIRECTORY_BYTES || directoryOffset + directorySize > file.size) return null;
  const directory = await bytesOf(file, directoryOffset, directoryOffset + directorySize);
  const names = new TextDecoder();
  const entries = new Map<string, Entry>();
  for (let at = 0; at + 46 <= directory.byteLength && directory.getUint32(at, true) === CENTRAL_ENTRY; ) {
    const nameLength = directory.getUint16(at + 28, true);
    const next = at + 46 + nameLength + directory.getUint16(at + 30, true) + directory.getUint16(at + 32, true);
    if (next > directory.byteLength) return null;
    const name = names.decode(new Uint8Array(directory.buffer, directory.byteOffset + at + 46, nameLength));
    entries.set(name, {
      method: directory.getUint16(at + 10, true),
      compressedSize: directory.getUint32(at + 20, true),
      size: directory.getUint32(at + 24, true),
      offset: directory.getUint32(at + 42, true),
    });
    at = next;
  }
  return entries;
}

/** Inflates raw deflate data, giving up past `maxBytes`: a part that claims little and inflates much is not read. */
async function inflated(data: Uint8Array<ArrayBuffer>, maxBytes: number): Promise<Uint8Array | null> {
  const stream = new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(controller) {
      controller.enqueue(data);
      controller.close();
    },
  }).pipeThrough(new DecompressionStream("deflate-raw"));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const whole = new Uint8Array(length);
  chunks.reduce((at, chunk) => (whole.set(chunk, at), at + chunk.length), 0);
  return whole;
}

async function partBytes(file: File, entries: Map<string, Entry>, name: string, maxBytes: number): Promise<Uint8Array | null> {
  const entry = entries.get(name);
  if (!entry || entry.size > maxBytes || entry.compressedSize > maxBytes) return null;
  const header = await bytesOf(file, entry.offset, entry.offset + 30);
  if (header.byteLength < 30 || header.getUint32(0, true) !== LOCAL_HEADER) return null;
  const start = entry.offset + 30 + header.getUint16(26, true) + header.getUint16(28, true);
  const data = new Uint8Array(await file.slice(start, start + entry.compressedSize).arrayBuffer());
  return entry.method === 0 ? data : entry.method === 8 ? await inflated(data, maxBytes) : null;
}

async function partText(file: File, entries: Map<string, Entry>, name: string): Promise<string | null> {
  const bytes = await partBytes(file, entries, name, MAX_PART_BYTES);
  if (!bytes) return null;
  // OCF allows UTF-8 and UTF-16, told apart by their byte order mark.
  const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? "utf-16le" : bytes[0] === 0xfe && bytes[1] === 0xff ? "utf-16be" : "utf-8";
  return new TextDecoder(encoding).decode(bytes);
}

/** A part parsed as XML, or null if it does not parse, or declares entities (which DOMParser would expand). */
function xmlOf(text: string | null): Document | null {
  if (text === null || /<!ENTITY/i.test(text)) return null;
  const document = new DOMParser().parseFromString(text, "application/xml");
  return document.getElementsByTagName("parsererror").length > 0 ? null : document;
}

/** Pictures an <img> shows without running anything (an SVG cover is left to the server). */
const PREVIEWED_COVER = /^image\/(png|jpeg|gif|webp)$/;

/**
 * The package's cover item, as the server finds it: EPUB 3's cover-image, else EPUB 2's cover meta,
 * else an image named as a cover; its zip entry resolved from the package document's folder.
 */
function coverEntryOf(opf: Document, opfPath: string): { entry: string; type: string } | null {
  const items = [...opf.getElementsByTagName("item")].filter((item) => PREVIEWED_COVER.test(item.getAttribute("media-type") ?? ""));
  const coverId = [...opf.getElementsByTagName("meta")].find((meta) => meta.getAttribute("name") === "cover")?.getAttribute("content");
  const item =
    items.find((candidate) => (candidate.getAttribute("properties") ?? "").split(/\s+/).includes("cover-image")) ??
    items.find((candidate) => coverId && candidate.getAttribute("id") === coverId) ??
    items.find((candidate) => /cover/i.test(candidate.getAttribute("id") ?? "") || /cover/i.test((candidate.getAttribute("href") ?? "").split("/").pop() ?? ""));
  const href = item?.getAttribute("href");
  if (!item || !href) return null;
  try {
    // A URL against a made-up origin resolves "../images/a.png" as the package's folder sees it, and never leaves the book.
    const base = new URL(opfPath, "epub://book/");
    const resolved = new URL(href, base);
    if (resolved.protocol !== base.protocol || resolved.host !== base.host) return null;
    return { entry: decodeURIComponent(resolved.pathname.slice(1)), type: item.getAttribute("media-type")! };
  } catch {
    return null;
  }
}

/** The package's metadata, or null for a file that is not an EPUB this can read (the server then says why). */
export async function readEpubMetadata(file: File): Promise<EpubMetadata | null> {
  try {
    const entries = await centralDirectory(file);
    if (!entries) return null;
    const container = xmlOf(await partText(file, entries, "META-INF/container.xml"));
    const opfPath = container?.getElementsByTagName("rootfile")[0]?.getAttribute("full-path");
    const opf = opfPath ? xmlOf(await partText(file, entries, opfPath)) : null;
    if (!opf) return null;
    const first = (name: string) => opf.getElementsByTagNameNS(DUBLIN_CORE, name)[0]?.textContent?.replace(/\s+/g, " ").trim() || null;
    const coverEntry = coverEntryOf(opf, opfPath!);
    const coverBytes = coverEntry ? await partBytes(file, entries, coverEntry.entry, COVER_MAX_BYTES) : null;
    const cover = coverBytes && coverEntry ? new File([coverBytes as Uint8Array<ArrayBuffer>], "cover", { type: coverEntry.type }) : null;
    return { title: first("title"), author: first("creator"), language: first("language"), description: first("description"), cover };
  } catch {
    // A file the browser cannot slice or inflate (damaged, or removed meanwhile) pre-fills nothing.
    return null;
  }
}
