import { open } from "node:fs/promises";
import yauzl from "yauzl";

/**
 * What makes a Word document unsafe to pass on to readers, judged by its content, never by the
 * names of its parts (docs/decisions/0023):
 * - `macros`: a macro-enabled part or a VBA project (DOCX: by the content types the package
 *   declares; DOC: a `Macros` or `_VBA_PROJECT` storage in the compound file);
 * - `external-content`: a relationship that makes Word fetch something from elsewhere when the file
 *   is opened (a remote template, a linked sub-document or object); links a reader clicks are fine;
 * - `unpacks-too-large`: a DOCX whose parts, unpacked, would exceed DOCX_UNPACKED_MAX_BYTES (a zip bomb);
 * - `malformed`: a package that cannot be read as one.
 */
export type UnsafeDocument = "macros" | "external-content" | "unpacks-too-large" | "malformed";

/** Four times the largest book: a real document's text, styles and images never come near it. */
export const DOCX_UNPACKED_MAX_BYTES = 200 * 1024 * 1024;
const MAX_ENTRIES = 10_000;
/** The package's XML parts read to judge it ([Content_Types].xml, *.rels) are small. */
const MAX_INSPECTED_PART_BYTES = 1024 * 1024;

const MACRO_CONTENT_TYPE = /vbaProject|vbaData|macroEnabled|ms-office\.activeX|ms-word\.keyMapCustomizations|ms-word\.attachedToolbars/i;
/** The only relationship a document may point outside with: a hyperlink, followed only when clicked. */
const HYPERLINK = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink";

interface ZipEntryInfo {
  entry: yauzl.Entry;
  name: string;
}

function openZip(path: string): Promise<{ zip: yauzl.ZipFile; entries: ZipEntryInfo[] }> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, strictFileNames: false }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error("unreadable zip"));
      const entries: ZipEntryInfo[] = [];
      zip.on("entry", (entry: yauzl.Entry) => {
        entries.push({ entry, name: entry.fileName });
        if (entries.length > MAX_ENTRIES) {
          zip.close();
          return reject(new Error("too many zip entries"));
        }
        zip.readEntry();
      });
      zip.on("end", () => resolve({ zip, entries }));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

function readPart(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<string> {
  if (entry.uncompressedSize > MAX_INSPECTED_PART_BYTES) return Promise.reject(new Error(`${entry.fileName} is too large to inspect`));
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) return reject(error ?? new Error("unreadable part"));
      const chunks: Buffer[] = [];
      let length = 0;
      stream.on("data", (chunk: Buffer) => {
        length += chunk.length;
        // yauzl checks the declared size too; this bounds what a lying header could make us hold.
        if (length > MAX_INSPECTED_PART_BYTES) stream.destroy(new Error(`${entry.fileName} is larger than it says`));
        else chunks.push(chunk);
      });
      stream.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      stream.on("error", reject);
    });
  });
}

const XML_ESCAPES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const unescapeXml = (value: string) =>
  value.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, name: string) =>
    name.startsWith("#x") || name.startsWith("#X")
      ? String.fromCodePoint(parseInt(name.slice(2), 16))
      : name.startsWith("#")
        ? String.fromCodePoint(Number(name.slice(1)))
        : XML_ESCAPES[name.toLowerCase()]!,
  );

/**
 * The attributes of every `<tag …>` element of an OPC part. These parts are flat lists of elements
 * with attributes; a DTD is forbidden in them (ECMA-376 Part 2), so one is refused rather than
 * parsed, and no entity can hide a value.
 */
function elementsOf(xml: string, tag: string): Array<Record<string, string>> | "malformed" {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) return "malformed";
  const elements: Array<Record<string, string>> = [];
  for (const [, attributes] of xml.matchAll(new RegExp(`<(?:\\w+:)?${tag}\\b([^>]*)>`, "g"))) {
    elements.push(Object.fromEntries([...attributes!.matchAll(/([\w:]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)].map(([, name, double, single]) => [name!, unescapeXml(double ?? single ?? "")])));
  }
  return elements;
}

/** The DOCX (already known to be a zip with word/document.xml) is safe, or why it is not. */
export async function inspectDocx(path: string): Promise<UnsafeDocument | null> {
  let opened: Awaited<ReturnType<typeof openZip>>;
  try {
    opened = await openZip(path);
  } catch {
    return "malformed";
  }
  const { zip, entries } = opened;
  try {
    const unpacked = entries.reduce((sum, { entry }) => sum + entry.uncompressedSize, 0);
    if (unpacked > DOCX_UNPACKED_MAX_BYTES) return "unpacks-too-large";

    const contentTypes = entries.find(({ name }) => name === "[Content_Types].xml");
    if (!contentTypes) return "malformed";
    const types = elementsOf(await readPart(zip, contentTypes.entry), "(?:Default|Override)");
    if (types === "malformed") return "malformed";
    if (types.some((type) => MACRO_CONTENT_TYPE.test(type.ContentType ?? ""))) return "macros";
    if (entries.some(({ name }) => /(^|\/)vbaProject\.bin$/i.test(name))) return "macros";

    for (const { entry } of entries.filter(({ name }) => name.endsWith(".rels"))) {
      const relationships = elementsOf(await readPart(zip, entry), "Relationship");
      if (relationships === "malformed") return "malformed";
      const reachesOut = relationships.some((relationship) => relationship.TargetMode?.toLowerCase() === "external" && relationship.Type !== HYPERLINK);
      if (reachesOut) return "external-content";
    }
    return null;
  } catch {
    return "malformed";
  } finally {
    zip.close();
  }
}

const OLE_DIRECTORY_ENTRY_BYTES = 128;
const MACRO_STORAGES = ["Macros", "_VBA_PROJECT_CUR", "_VBA_PROJECT", "VBA"].map((name) => Buffer.from(`${name}\0`, "utf16le"));
const READ_BYTES = 1024 * 1024;

/**
 * A Word 97 document holds its macros in a `Macros` (or `_VBA_PROJECT_CUR`) storage. Directory
 * entries of a compound file are 128-byte records at 128-byte boundaries, each starting with its
 * UTF-16 name, whose byte length (with the final NUL) is at offset 64; a storage is type 1 at 66.
 * Every boundary is checked, so no name in the file's text can pass for one, and none can hide.
 */
export async function docHasMacros(path: string): Promise<boolean> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(READ_BYTES);
    for (let position = 0; ; position += READ_BYTES) {
      const { bytesRead } = await handle.read(buffer, 0, READ_BYTES, position);
      for (let offset = 0; offset + OLE_DIRECTORY_ENTRY_BYTES <= bytesRead; offset += OLE_DIRECTORY_ENTRY_BYTES) {
        const entry = buffer.subarray(offset, offset + OLE_DIRECTORY_ENTRY_BYTES);
        const isStorage = entry[66] === 1;
        if (isStorage && MACRO_STORAGES.some((name) => entry.readUInt16LE(64) === name.length && entry.subarray(0, name.length).equals(name))) return true;
      }
      if (bytesRead < READ_BYTES) return false;
    }
  } finally {
    await handle.close();
  }
}
