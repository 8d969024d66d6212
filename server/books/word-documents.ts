import { open } from "node:fs/promises";
import type yauzl from "yauzl";
import type { BookFileType } from "../../shared/books.ts";
import type { DocxLimits } from "../config.ts";
import { type ZipPart, declaresTooMuch, decodeXml, judgeInflatedSizes, openZip, partNameOf, readPart } from "./zip-packages.ts";
import { type CompoundFile, DamagedCompoundFile, readCompoundFile } from "./compound-files.ts";

/**
 * What makes a Word document unsafe to pass on to readers, judged by its content, never by the
 * names of its parts (docs/decisions/0023):
 * - `macros`: a macro-enabled part or a VBA project (DOCX: by the content types the package
 *   declares or the relationships that point to them; DOC: a `Macros` or `_VBA_PROJECT_CUR`
 *   storage in the compound file);
 * - `external-content`: a relationship that makes Word fetch something from elsewhere when the file
 *   is opened (a remote template, a linked sub-document or object); links a reader clicks are fine;
 * - `unpacks-too-large`: a DOCX whose parts, unpacked, would exceed the bound, or inflate far more
 *   than a document does, or inflate past the size they declare (a zip bomb);
 * - `text-too-large`: a DOCX whose text (the parts the reading view parses) unpacks to more than the
 *   view can convert (docs/decisions/0050);
 * - `damaged`: a DOC whose compound file a reader could not follow safely: a chain that loops or
 *   leaves the file, a directory that loops, sizes its chains do not hold (docs/decisions/0050);
 * - `malformed`: a package that cannot be read as one, or a compound file holding no Word 97 document.
 */
export type UnsafeDocument = "macros" | "external-content" | "unpacks-too-large" | "text-too-large" | "damaged" | "malformed";

/** The package's XML parts read to judge it ([Content_Types].xml, *.rels) are small. */
const MAX_INSPECTED_PART_BYTES = 1024 * 1024;

/** Content or relationship types of macros, VBA data, ActiveX controls and Word's command customisations. */
const MACRO_TYPE = /vbaProject|vbaData|macro|activeX|keyMapCustomizations|attachedToolbars/i;
/** The only relationship a document may point outside with: a hyperlink, followed only when clicked. */
const HYPERLINKS = new Set([
  "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink",
  "http://purl.oclc.org/ooxml/officeDocument/relationships/hyperlink",
]);
/** A target with a scheme (http:, file:, mhtml:…) or a network path (//host, \\host) is outside the package. */
const OUTSIDE_TARGET = /^\s*(?:[a-z][a-z0-9+.-]*:|[/\\]{2})/i;

const XML_ESCAPES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const unescapeXml = (value: string) =>
  value.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (/^#x/i.test(name)) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)));
    return XML_ESCAPES[name] ?? whole;
  });

/**
 * Comments, CDATA, processing instructions, end tags, start tags (attributes quote by quote, so a
 * `>` or a comment inside a value ends nothing), or a `<` that begins none of them.
 */
const MARKUP = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<\/[^>]*>|<([\w.:-]+)((?:[^"'>]|"[^"]*"|'[^']*')*)>|</g;

/**
 * The elements of an OPC part, by local name, with their attributes. These parts are flat lists of
 * attributed elements and may hold no DTD (ECMA-376 Part 2), so a `<!DOCTYPE` is refused, never
 * parsed: no entity expansion, no external entity. Anything this reader cannot follow is
 * `malformed`, so what Word reads is never more than what is judged here.
 */
function xmlElements(bytes: Buffer): Array<{ name: string; attributes: Map<string, string> }> | "malformed" {
  const xml = decodeXml(bytes);
  if (xml === "malformed") return xml;
  const elements: Array<{ name: string; attributes: Map<string, string> }> = [];
  for (const [markup, name, rawAttributes] of xml.matchAll(MARKUP)) {
    if (markup.startsWith("<!--") || markup.startsWith("<![CDATA[") || markup.startsWith("<?") || markup.startsWith("</")) continue;
    if (name === undefined) return "malformed";
    const attributes = new Map<string, string>();
    const source = rawAttributes!.replace(/\/$/, "");
    const pattern = /\s*([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')\s*/y;
    for (let match = pattern.exec(source); match; match = pattern.exec(source)) {
      if (attributes.has(match[1]!)) return "malformed";
      attributes.set(match[1]!, unescapeXml(match[2] ?? match[3] ?? "").replace(/[\t\n\r]/g, " "));
      if (pattern.lastIndex === source.length) break;
    }
    if (source.trim() !== "" && pattern.lastIndex !== source.length) return "malformed";
    elements.push({ name: name.slice(name.lastIndexOf(":") + 1), attributes });
  }
  return elements;
}

async function elementsOfPart(zip: yauzl.ZipFile, entry: yauzl.Entry) {
  const part = await readPart(zip, entry, MAX_INSPECTED_PART_BYTES);
  return part ? xmlElements(part) : "malformed";
}

const RELATIONSHIP_NAMESPACES = ["http://schemas.openxmlformats.org/officeDocument/2006/relationships/", "http://purl.oclc.org/ooxml/officeDocument/relationships/"];
const relationshipTypes = (...names: string[]) => new Set(RELATIONSHIP_NAMESPACES.flatMap((namespace) => names.map((name) => namespace + name)));
/** The package's relationship to its main part, in the transitional and the strict namespaces. */
const OFFICE_DOCUMENT = relationshipTypes("officeDocument");
/** The parts mammoth parses with the main part (its docx-reader.js): each found by relationship, else by its usual name. */
const VIEWED_WITH_MAIN = ["styles", "numbering", "footnotes", "endnotes", "comments"];
const VIEWED_TYPES = relationshipTypes(...VIEWED_WITH_MAIN);
/** The name mammoth falls back on, and the one a DOCX is recognised by (file-types.ts). */
const USUAL_MAIN_PART = "word/document.xml";

interface Relationship {
  type: string;
  target: string;
  external: boolean;
}

/** The relationships part of a part (`word/document.xml` → `word/_rels/document.xml.rels`; the package's is `_rels/.rels`). */
function relationshipsPartOf(partName: string): string {
  const slash = partName.lastIndexOf("/");
  return `${partName.slice(0, slash + 1)}_rels/${partName.slice(slash + 1)}.rels`;
}

/** A relationship's target as a part name, resolved from the folder of its source part as OPC does (RFC 3986). */
function resolveTarget(sourcePart: string, target: string): string {
  const path = partNameOf(target.replace(/[?#].*$/, "").replace(/\\/g, "/"));
  const segments = path.startsWith("/") ? [] : sourcePart.split("/").slice(0, -1);
  for (const segment of path.split("/")) {
    if (segment === "..") segments.pop();
    else if (segment !== "." && segment !== "") segments.push(segment);
  }
  return segments.join("/");
}

/**
 * What the reading view will parse: the main part (the package's officeDocument relationship, as
 * Word finds it, and `word/document.xml`, as mammoth falls back on it) with the styles, numbering,
 * notes and comments each relates to, or that sit under their usual names. Counting every candidate
 * makes the bound hold whichever one a reader picks.
 */
function viewedBytes(parts: ZipPart[], relationships: Map<string, Relationship[]>): number {
  const related = (source: string, types: Set<string>) =>
    (relationships.get(relationshipsPartOf(source)) ?? []).filter(({ type, external }) => types.has(type) && !external).map(({ target }) => resolveTarget(source, target));
  const mains = new Set([USUAL_MAIN_PART, ...related("", OFFICE_DOCUMENT)]);
  const viewed = new Set([...mains, ...VIEWED_WITH_MAIN.map((name) => `word/${name}.xml`), ...[...mains].flatMap((main) => related(main, VIEWED_TYPES))]);
  return parts.reduce((sum, { name, entry }) => (viewed.has(name) ? sum + entry.uncompressedSize : sum), 0);
}

/** What the package's content types and relationships say about it, and how much of it the reading view parses. */
async function judgeDeclarations(zip: yauzl.ZipFile, parts: ZipPart[], limits: DocxLimits): Promise<UnsafeDocument | null> {
  // Two content-type parts (differing in case, or one name twice) leave open which one Word reads.
  const contentTypes = parts.filter(({ name }) => name === "[content_types].xml");
  if (contentTypes.length !== 1) return "malformed";
  const types = await elementsOfPart(zip, contentTypes[0]!.entry);
  if (types === "malformed") return "malformed";
  // Every declared type counts, used by a part or not: a Default covers whatever part has its extension.
  const declared = types.filter(({ name }) => name === "Default" || name === "Override");
  if (declared.some(({ attributes }) => MACRO_TYPE.test(attributes.get("ContentType") ?? ""))) return "macros";
  if (parts.some(({ name }) => /(^|\/)vbaproject\.bin$/.test(name))) return "macros";

  let reachesOut = false;
  const relationshipsByPart = new Map<string, Relationship[]>();
  for (const { name: partName, entry } of parts.filter(({ name }) => name.endsWith(".rels"))) {
    const elements = await elementsOfPart(zip, entry);
    if (elements === "malformed") return "malformed";
    const relationships: Relationship[] = [];
    for (const { name, attributes } of elements) {
      if (name !== "Relationship") continue;
      const type = (attributes.get("Type") ?? "").trim();
      if (MACRO_TYPE.test(type)) return "macros";
      const target = attributes.get("Target") ?? "";
      const external = attributes.get("TargetMode")?.trim().toLowerCase() === "external" || OUTSIDE_TARGET.test(target);
      if (external && !HYPERLINKS.has(type)) reachesOut = true;
      relationships.push({ type, target, external });
    }
    relationshipsByPart.set(partName, [...(relationshipsByPart.get(partName) ?? []), ...relationships]);
  }
  if (reachesOut) return "external-content";
  return viewedBytes(parts, relationshipsByPart) > limits.documentMaxBytes ? "text-too-large" : null;
}

/** The DOCX (already known to be a zip with word/document.xml) is safe, or why it is not. */
export async function inspectDocx(path: string, limits: DocxLimits): Promise<UnsafeDocument | null> {
  let opened: Awaited<ReturnType<typeof openZip>>;
  try {
    opened = await openZip(path);
  } catch {
    return "malformed";
  }
  const { zip, parts } = opened;
  try {
    if (declaresTooMuch(parts, limits)) return "unpacks-too-large";
    return (await judgeDeclarations(zip, parts, limits)) ?? (await judgeInflatedSizes(zip, parts));
  } catch {
    return "malformed";
  } finally {
    zip.close();
  }
}

/** Compound-file names compare case-insensitively (MS-CFB 2.6.4), as Word looks its storages up. */
const MACRO_STORAGES = new Set(["MACROS", "_VBA_PROJECT_CUR", "_VBA_PROJECT", "VBA"]);
/** The FIB up to its `fcClx`/`lcbClx` pair, where the text's piece table is (MS-DOC 2.5.1, 2.5.6). */
const FIB_BYTES = 0x1aa;
/** Word 97's nFib; Word 6 and 95 wrote lower ones, and keep no table stream. */
const WORD_97_NFIB = 0x00c1;

/** What the FIB says a reader will read: its table stream, and the piece table within it. */
async function judgeWordStreams(file: CompoundFile): Promise<UnsafeDocument | null> {
  const main = file.root.get("WORDDOCUMENT");
  if (main?.type !== "stream") return "malformed";
  const fib = await file.readStream(main, FIB_BYTES);
  if (fib.length < 4 || fib.readUInt16LE(0) !== 0xa5ec || fib.readUInt16LE(2) < WORD_97_NFIB) return "malformed";
  if (fib.length < FIB_BYTES) return "damaged";
  const table = file.root.get((fib.readUInt16LE(0xa) & 0x0200) !== 0 ? "1TABLE" : "0TABLE");
  const clxAt = fib.readUInt32LE(0x1a2);
  const clxBytes = fib.readUInt32LE(0x1a6);
  return table?.type === "stream" && clxBytes > 0 && clxAt + clxBytes <= table.size ? null : "damaged";
}

/**
 * A Word 97 document is read as a compound file whose every chain is checked (compound-files.ts),
 * holding a `WordDocument` stream whose FIB names a table stream that holds its piece table. Its
 * macros are a `Macros` (or `_VBA_PROJECT_CUR`…) storage anywhere in the directory's tree, as Word
 * finds storages: by the tree, never by a name somewhere in the bytes.
 */
export async function inspectDoc(path: string): Promise<UnsafeDocument | null> {
  const handle = await open(path, "r");
  try {
    const file = await readCompoundFile(handle, (await handle.stat()).size);
    if (file.storageNames.some((name) => MACRO_STORAGES.has(name.toUpperCase()))) return "macros";
    return await judgeWordStreams(file);
  } catch (error) {
    if (error instanceof DamagedCompoundFile) return "damaged";
    throw error;
  } finally {
    await handle.close();
  }
}

/** Why a Word book must not reach readers, if it must not. */
export async function unsafeWordDocument(path: string, type: BookFileType, limits: DocxLimits): Promise<UnsafeDocument | null> {
  if (type === "docx") return inspectDocx(path, limits);
  if (type === "doc") return inspectDoc(path);
  return null;
}
