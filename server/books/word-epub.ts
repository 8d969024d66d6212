import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import yazl from "yazl";
import type { BookLanguage } from "../../shared/books.ts";

/**
 * The EPUB 3 Plume makes of a Word book (docs/decisions/0096): the sanitized HTML its reading view is
 * cut from (server/reading/word-view.ts#wordFileHtml), written again as XHTML content documents split
 * at its chapters, with a navigation document, an NCX for EPUB 2 readers, the book's cover and
 * accessibility metadata. Run in the cage of word-epub-process.ts, never on the server.
 */

/** What the package says of the book, from its row. */
export interface EpubMetadata {
  title: string;
  /** The author's display name; none: no dc:creator. */
  creator: string | null;
  language: BookLanguage;
  /** A UUID, the same each time the book's EPUB is made (epubIdentifierOf). */
  identifier: string;
  modified: Date;
}

/** An image the EPUB carries, already in a type every reading system shows (JPEG, PNG or GIF). */
export interface EpubImage {
  mediaType: "image/jpeg" | "image/png" | "image/gif";
  data: Buffer;
}

/** Turns an image of the book in a type e-readers may not show (WebP) into one they do. */
export type ImageConverter = (data: Buffer, mediaType: string) => Promise<EpubImage | null>;

export interface EpubSummary {
  chapters: number;
  images: number;
  navEntries: number;
}

/** Past this many characters of markup a content document ends at the next block: reading systems page long files slowly. */
export const CHAPTER_MAX_CHARS = 150_000;
/** A nav entry of a book without headings is named by the start of its text, this long at most. */
const UNTITLED_ENTRY_CHARS = 60;
/** A heading this long is a paragraph styled as one: its entry in the contents (and its file's title) is cut. */
const HEADING_ENTRY_CHARS = 200;

const NAMESPACE = "7c1b2a4e-93d5-4f0e-8a51-0e5d2f6b9c30";

/** A name-based UUID (RFC 9562 version 5) of the book's stored file: remade EPUBs keep their identity in readers' libraries. */
export function epubIdentifierOf(bookFile: string): string {
  const hash = createHash("sha1").update(Buffer.from(NAMESPACE.replace(/-/g, ""), "hex")).update(bookFile).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// ---------------------------------------------------------------------------------------------------
// HTML to XHTML

/** Characters XML 1.0 forbids, and halves of surrogate pairs: dropped from text and attributes. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ENTITY = /&(#\d+|#x[0-9a-f]+|amp|lt|gt|quot|apos|nbsp);/gi;
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

function decodeEntities(text: string): string {
  return text.replace(ENTITY, (whole, name: string) => {
    if (name[0] !== "#") return NAMED[name.toLowerCase()] ?? whole;
    const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
  });
}

/** Text as XML: numeric references for the markup characters, nothing XML cannot hold. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML, "").replace(/&/g, "&#38;").replace(/</g, "&#60;").replace(/>/g, "&#62;").replace(/"/g, "&#34;");
}

const TAG = /<(\/?)([a-z][a-z0-9]*)\b([^>]*)>/g;
const ATTRIBUTE = /([a-z-]+)(?:="([^"]*)")?/g;
const VOID = new Set(["br", "hr", "img"]);
const HEADING = /^h([1-6])$/;
/** What each element keeps: links out of the book (the sanitizer allowed no other), images' sources and texts, table spans. */
const KEPT_ATTRIBUTES: Record<string, readonly string[]> = { a: ["href", "id"], li: ["id"], img: ["src", "alt"], td: ["colspan", "rowspan"], th: ["colspan", "rowspan"] };
/** A link within the book: to a note or back to its reference (the sanitizer let no other through). */
const FRAGMENT = /^#([A-Za-z][\w-]*)$/;
const NOTE_REFERENCE = /^#(?:foot|end)note-\d+$/;

interface Heading {
  level: number;
  text: string;
  id: string;
}

/** A top-level element (or run of text) of the book, as XHTML. */
interface Block {
  xhtml: string;
  text: string;
  heading?: Heading;
  /** The ids in it (notes and their references), which links from other documents name with its file. */
  ids: string[];
}

/**
 * Reads sanitized HTML (in which every `<` opens a tag, and values are quoted) into top-level blocks of
 * well-formed XHTML: tags balanced whatever the input, void elements closed, text re-escaped with
 * numeric references, images replaced by what `imageHref` names (null drops the image).
 */
function blocksOf(html: string, imageHref: (src: string, alt: string) => string | null): Block[] {
  const blocks: Block[] = [];
  const seenIds = new Set<string>();
  const open: string[] = [];
  let xhtml = "";
  let text = "";
  let headingLevel = 0;
  let ids: string[] = [];
  let from = 0;
  const endBlock = () => {
    if (xhtml.trim() === "") {
      xhtml = "";
      text = "";
      ids = [];
      return;
    }
    const id = `h${blocks.length + 1}`;
    const heading = headingLevel > 0 ? { level: headingLevel, text: text.replace(/\s+/g, " ").trim(), id } : undefined;
    if (heading) xhtml = xhtml.replace(/^<h([1-6])>/, `<h$1 id="${id}">`);
    blocks.push({ xhtml, text, ids, ...(heading ? { heading } : {}) });
    xhtml = "";
    text = "";
    ids = [];
    headingLevel = 0;
  };
  const addText = (raw: string) => {
    if (raw === "") return;
    const decoded = decodeEntities(raw);
    xhtml += xmlText(decoded);
    text += decoded;
  };
  for (const match of html.matchAll(TAG)) {
    const [tag, closing, name, rest] = match as unknown as [string, string, string, string];
    addText(html.slice(from, match.index));
    from = match.index + tag.length;
    if (closing) {
      const at = open.lastIndexOf(name);
      if (at < 0) continue;
      while (open.length > at) xhtml += `</${open.pop()}>`;
      if (open.length === 0) endBlock();
      continue;
    }
    const attributes = new Map<string, string>();
    for (const [, key, value] of rest.matchAll(ATTRIBUTE)) {
      if (KEPT_ATTRIBUTES[name]?.includes(key!)) attributes.set(key!, decodeEntities(value ?? ""));
    }
    // An href as the sanitizer let it through may hold what a URI may not (`<`, spaces): written as the URL parser encodes it.
    if (name === "a" && attributes.has("href") && !FRAGMENT.test(attributes.get("href")!)) {
      const href = URL.parse(attributes.get("href")!)?.href;
      if (href) attributes.set("href", href);
      else attributes.delete("href");
    }
    // E-readers show a note beside the text when its reference says it is one.
    if (name === "a" && NOTE_REFERENCE.test(attributes.get("href") ?? "")) attributes.set("epub:type", "noteref");
    const id = attributes.get("id");
    if (id !== undefined) {
      if (FRAGMENT.test(`#${id}`) && !seenIds.has(id)) {
        seenIds.add(id);
        ids.push(id);
      } else attributes.delete("id");
    }
    if (name === "img") {
      const href = imageHref(attributes.get("src") ?? "", attributes.get("alt") ?? "");
      if (href === null) continue;
      attributes.set("src", href);
      attributes.set("alt", attributes.get("alt") ?? "");
    }
    if (open.length === 0) {
      endBlock();
      headingLevel = Number(HEADING.exec(name)?.[1] ?? 0);
    }
    const written = [...attributes].map(([key, value]) => ` ${key}="${xmlText(value)}"`).join("");
    if (VOID.has(name)) {
      xhtml += `<${name}${written}/>`;
      if (open.length === 0) endBlock();
    } else {
      xhtml += `<${name}${written}>`;
      open.push(name);
    }
  }
  addText(html.slice(from));
  while (open.length > 0) xhtml += `</${open.pop()}>`;
  endBlock();
  return blocks;
}

// ---------------------------------------------------------------------------------------------------
// Chapters and navigation

interface Chapter {
  file: string;
  title: string;
  blocks: Block[];
}

interface NavEntry {
  text: string;
  href: string;
  children: NavEntry[];
}

/**
 * Cuts the blocks into content documents: at each heading of the highest level the book uses (its
 * chapters), and past CHAPTER_MAX_CHARS at the next block (a book without headings is cut so only).
 */
function chaptersOf(blocks: Block[], bookTitle: string): Chapter[] {
  const levels = [...new Set(blocks.flatMap((block) => (block.heading?.text ? [block.heading.level] : [])))].sort();
  const splitLevel = levels[0];
  const chapters: Chapter[] = [];
  let current: Block[] = [];
  let chars = 0;
  const close = () => {
    if (current.length === 0) return;
    const file = `chapter-${String(chapters.length + 1).padStart(4, "0")}.xhtml`;
    const title = shortened(current.find((block) => block.heading?.text)?.heading!.text ?? bookTitle, HEADING_ENTRY_CHARS);
    chapters.push({ file, title, blocks: current });
    current = [];
    chars = 0;
  };
  for (const block of blocks) {
    if ((block.heading?.text && block.heading.level === splitLevel) || chars >= CHAPTER_MAX_CHARS) close();
    current.push(block);
    chars += block.xhtml.length;
  }
  close();
  if (chapters.length === 0) chapters.push({ file: "chapter-0001.xhtml", title: bookTitle, blocks: [] });
  return chapters;
}

/** Links within the book name the file their target ended up in; a link to an id that is nowhere loses its href. */
function linkedAcrossFiles(chapters: Chapter[]): Chapter[] {
  const fileOf = new Map(chapters.flatMap((chapter) => chapter.blocks.flatMap((block) => block.ids.map((id) => [id, chapter.file] as const))));
  return chapters.map((chapter) => ({
    ...chapter,
    blocks: chapter.blocks.map((block) => ({
      ...block,
      xhtml: block.xhtml.replace(/ href="#([^"]+)"/g, (_, id: string) => {
        const file = fileOf.get(id);
        return file === undefined ? "" : ` href="${file === chapter.file ? "" : file}#${id}"`;
      }),
    })),
  }));
}

const shortened = (text: string, chars = UNTITLED_ENTRY_CHARS) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= chars ? flat : `${flat.slice(0, chars - 1).trimEnd()}…`;
};

/**
 * The table of contents: the book's two highest heading levels, the second nested in the first (a
 * skipped level is not a hole: h1 then h3 nest as h1 then h2). A book without headings gets one entry
 * per content document, named by its first words.
 */
function navEntriesOf(chapters: Chapter[], bookTitle: string): NavEntry[] {
  const headings = chapters.flatMap((chapter) => chapter.blocks.flatMap((block) => (block.heading?.text ? [{ ...block.heading, file: chapter.file }] : [])));
  const [top, second] = [...new Set(headings.map((heading) => heading.level))].sort();
  if (top === undefined) {
    return chapters.map((chapter, index) => ({
      text: shortened(chapter.blocks.map((block) => block.text).join(" ")) || (chapters.length > 1 ? `${bookTitle} (${index + 1})` : bookTitle),
      href: chapter.file,
      children: [],
    }));
  }
  const entries: NavEntry[] = [];
  // Text before the first chapter (a title page, a dedication) is reached by the reading order; the contents begin with the chapters.
  for (const heading of headings) {
    const entry = { text: shortened(heading.text, HEADING_ENTRY_CHARS), href: `${heading.file}#${heading.id}`, children: [] };
    if (heading.level === top) entries.push(entry);
    else if (heading.level === second) (entries.at(-1)?.children ?? entries).push(entry);
  }
  return entries;
}

// ---------------------------------------------------------------------------------------------------
// The package

const CONTENTS_TITLE: Record<BookLanguage, string> = { en: "Contents", es: "Índice", fr: "Table des matières" };
const STYLE = `body { margin: 0 1em; line-height: 1.5; }
h1, h2, h3, h4, h5, h6 { line-height: 1.2; page-break-after: avoid; break-after: avoid; }
h1 { page-break-before: always; break-before: page; }
img { max-width: 100%; height: auto; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border: 1px solid; padding: 0.2em 0.4em; vertical-align: top; }
blockquote { margin: 1em 2em; }
pre { white-space: pre-wrap; }
`;
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

function contentDocument(language: BookLanguage, title: string, body: string, extraHead = ""): string {
  return (
    `${XML_DECLARATION}<!DOCTYPE html>\n` +
    `<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${language}" lang="${language}">\n` +
    `<head><meta charset="UTF-8"/><title>${xmlText(title)}</title>${extraHead}<link rel="stylesheet" type="text/css" href="style.css"/></head>\n` +
    `<body>\n${body}\n</body>\n</html>\n`
  );
}

const navList = (entries: NavEntry[]): string =>
  `<ol>${entries.map((entry) => `<li><a href="${xmlText(entry.href)}">${xmlText(entry.text)}</a>${entry.children.length > 0 ? navList(entry.children) : ""}</li>`).join("")}</ol>`;

function ncxDocument(metadata: EpubMetadata, entries: NavEntry[]): string {
  let order = 0;
  let depth = 0;
  const points = (list: NavEntry[], level: number): string =>
    list
      .map((entry) => {
        order += 1;
        depth = Math.max(depth, level);
        return `<navPoint id="nav-${order}" playOrder="${order}"><navLabel><text>${xmlText(entry.text)}</text></navLabel><content src="${xmlText(entry.href)}"/>${points(entry.children, level + 1)}</navPoint>`;
      })
      .join("");
  const map = points(entries, 1);
  return (
    `${XML_DECLARATION}<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1" xml:lang="${metadata.language}">\n` +
    `<head><meta name="dtb:uid" content="urn:uuid:${metadata.identifier}"/><meta name="dtb:depth" content="${depth}"/><meta name="dtb:totalPageCount" content="0"/><meta name="dtb:maxPageNumber" content="0"/></head>\n` +
    `<docTitle><text>${xmlText(metadata.title)}</text></docTitle>\n<navMap>${map}</navMap>\n</ncx>\n`
  );
}

const EXTENSIONS: Record<EpubImage["mediaType"], string> = { "image/jpeg": "jpg", "image/png": "png", "image/gif": "gif" };
const DATA_URI = /^data:(image\/[a-z]+);base64,([A-Za-z0-9+/]+=*)$/;

/** Images the book carries, once each however often they appear, numbered in order of first use. */
class ImageTable {
  readonly items: Array<{ href: string; image: EpubImage }> = [];
  private readonly byContent = new Map<string, string | null>();
  readonly pending: Array<{ key: string; mediaType: string; data: Buffer }> = [];
  altMissing = false;

  /** A first pass names every distinct image; the second pass (after conversion) fills in the hrefs. */
  collect(src: string): void {
    const match = DATA_URI.exec(src);
    if (!match || this.byContent.has(src)) return;
    this.byContent.set(src, null);
    this.pending.push({ key: src, mediaType: match[1]!, data: Buffer.from(match[2]!, "base64") });
  }

  async convert(converter: ImageConverter): Promise<void> {
    for (const { key, mediaType, data } of this.pending) {
      const image = mediaType in EXTENSIONS ? { mediaType: mediaType as EpubImage["mediaType"], data } : await converter(data, mediaType);
      if (!image) continue;
      const href = `images/image-${String(this.items.length + 1).padStart(4, "0")}.${EXTENSIONS[image.mediaType]}`;
      this.items.push({ href, image });
      this.byContent.set(key, href);
    }
    this.pending.length = 0;
  }

  hrefOf(src: string): string | null {
    return this.byContent.get(src) ?? null;
  }
}

/** Writes the EPUB of a Word book's sanitized HTML to `outputPath`. */
export async function writeWordEpub(
  outputPath: string,
  { html, metadata, cover, convertImage }: { html: string; metadata: EpubMetadata; cover: EpubImage | null; convertImage: ImageConverter },
): Promise<EpubSummary> {
  const images = new ImageTable();
  blocksOf(html, (src) => (images.collect(src), null));
  await images.convert(convertImage);
  const blocks = blocksOf(html, (src, alt) => {
    const href = images.hrefOf(src);
    if (href && alt.trim() === "") images.altMissing = true;
    return href;
  });
  const chapters = linkedAcrossFiles(chaptersOf(blocks, metadata.title));
  const entries = navEntriesOf(chapters, metadata.title);
  const hasHeadings = blocks.some((block) => block.heading?.text);
  const hasImages = images.items.length > 0;

  const zip = new yazl.ZipFile();
  const written = pipeline(zip.outputStream, createWriteStream(outputPath));
  // The OCF's first entry, stored, so that a reader recognizes the zip as an EPUB by its first bytes.
  zip.addBuffer(Buffer.from("application/epub+zip"), "mimetype", { compress: false });
  zip.addBuffer(
    Buffer.from(
      `${XML_DECLARATION}<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">` +
        '<rootfiles><rootfile full-path="EPUB/package.opf" media-type="application/oebps-package+xml"/></rootfiles></container>\n',
    ),
    "META-INF/container.xml",
  );
  const add = (name: string, content: string | Buffer) => zip.addBuffer(typeof content === "string" ? Buffer.from(content) : content, `EPUB/${name}`);
  for (const chapter of chapters) add(chapter.file, contentDocument(metadata.language, chapter.title, chapter.blocks.map((block) => block.xhtml).join("\n")));
  const contentsTitle = CONTENTS_TITLE[metadata.language];
  add("nav.xhtml", contentDocument(metadata.language, contentsTitle, `<nav epub:type="toc" id="toc"><h1>${xmlText(contentsTitle)}</h1>${navList(entries)}</nav>`));
  add("toc.ncx", ncxDocument(metadata, entries));
  add("style.css", STYLE);
  for (const { href, image } of images.items) zip.addBuffer(image.data, `EPUB/${href}`, { compress: false });
  const coverHref = cover ? `images/cover.${EXTENSIONS[cover.mediaType]}` : null;
  if (cover && coverHref) zip.addBuffer(cover.data, `EPUB/${coverHref}`, { compress: false });

  const manifest = [
    '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
    '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>',
    '<item id="style" href="style.css" media-type="text/css"/>',
    ...chapters.map((chapter, index) => `<item id="c${index + 1}" href="${chapter.file}" media-type="application/xhtml+xml"/>`),
    ...images.items.map(({ href, image }, index) => `<item id="i${index + 1}" href="${href}" media-type="${image.mediaType}"/>`),
    ...(cover && coverHref ? [`<item id="cover-image" href="${coverHref}" media-type="${cover.mediaType}" properties="cover-image"/>`] : []),
  ];
  const meta = (property: string, value: string) => `<meta property="${property}">${xmlText(value)}</meta>`;
  const features = [hasHeadings && "structuralNavigation", "tableOfContents", "readingOrder", hasImages && !images.altMissing && "alternativeText"].filter(
    (feature): feature is string => typeof feature === "string",
  );
  const summary = hasImages
    ? `A reflowable EPUB made from the author's Word document: text in reading order, a table of contents${hasHeadings ? " from its headings" : ""}, and its images${images.altMissing ? ", some without a text alternative" : " with their text alternatives"}.`
    : `A reflowable EPUB made from the author's Word document: text only, in reading order, with a table of contents${hasHeadings ? " from its headings" : ""}.`;
  const modified = metadata.modified.toISOString().replace(/\.\d+Z$/, "Z");
  const opf =
    `${XML_DECLARATION}<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="${metadata.language}">\n` +
    `<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">\n` +
    [
      `<dc:identifier id="book-id">urn:uuid:${metadata.identifier}</dc:identifier>`,
      `<dc:title>${xmlText(metadata.title)}</dc:title>`,
      ...(metadata.creator ? [`<dc:creator>${xmlText(metadata.creator)}</dc:creator>`] : []),
      `<dc:language>${metadata.language}</dc:language>`,
      meta("dcterms:modified", modified),
      meta("schema:accessMode", "textual"),
      ...(hasImages ? [meta("schema:accessMode", "visual")] : []),
      meta("schema:accessModeSufficient", hasImages && images.altMissing ? "textual,visual" : "textual"),
      ...features.map((feature) => meta("schema:accessibilityFeature", feature)),
      meta("schema:accessibilityHazard", "none"),
      meta("schema:accessibilitySummary", summary),
      // EPUB 2 readers find the cover by this name.
      ...(cover ? ['<meta name="cover" content="cover-image"/>'] : []),
    ].join("\n") +
    `\n</metadata>\n<manifest>\n${manifest.join("\n")}\n</manifest>\n` +
    `<spine toc="ncx">\n${chapters.map((_, index) => `<itemref idref="c${index + 1}"/>`).join("\n")}\n</spine>\n</package>\n`;
  add("package.opf", opf);
  zip.end();
  await written;
  return { chapters: chapters.length, images: images.items.length, navEntries: entries.length };
}
