import mammoth from "mammoth";
import sanitizeHtml from "sanitize-html";
import WordExtractor from "word-extractor";
import type { WordView } from "../../shared/reading.ts";

/**
 * The reading view of a Word book (docs/decisions/0029-reading-in-the-browser.md): a DOCX through
 * mammoth into HTML, a DOC by text extraction into paragraphs, both through one allow-list
 * sanitizer on the server's side, then cut into pages so that a reader's position works as for a PDF.
 * Run in a cage, once per stored file (docs/decisions/0051).
 */

/** About two printed pages of text per page of the view. */
export const PAGE_TEXT_CHARS = 3500;
/** What an image weighs in a page, in characters of text. */
const IMAGE_WEIGHT_CHARS = 700;
/** Images ride inside the HTML as data URIs (the CSP's img-src allows data:); bigger ones are dropped. */
const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
const IMAGES_MAX_TOTAL_BYTES = 16 * 1024 * 1024;
/** Formats every browser shows and that carry no script (SVG can), as the sanitizer checks them again. */
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+=*$/;

/** The schemes a link may have; the transform below keeps no rel or target on any other (its href is dropped). */
const SAFE_LINK = /^(?:https?|mailto):/i;

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    "h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "blockquote", "pre", "code",
    "strong", "b", "em", "i", "u", "s", "sub", "sup", "small",
    "ul", "ol", "li", "table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption",
    "a", "img",
  ],
  // rel and target are set by the transform below, whatever the document said.
  allowedAttributes: { a: ["href", "rel", "target"], img: ["src", "alt"], td: ["colspan", "rowspan"], th: ["colspan", "rowspan"] },
  // Links out of the book only: no javascript:, no data:, and no in-document anchors (ids are not
  // kept, so a book cannot shadow the app's own elements, and a page may not hold the target anyway).
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["data"] },
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
  transformTags: {
    a: (tagName, attribs): sanitizeHtml.Tag => ({
      tagName,
      attribs: SAFE_LINK.test(attribs.href ?? "") ? { href: attribs.href!, rel: "nofollow noopener noreferrer", target: "_blank" } : {},
    }),
  },
  exclusiveFilter: (frame) => frame.tag === "img" && !DATA_IMAGE.test(frame.attribs.src ?? ""),
};

export const sanitizeBookHtml = (html: string) => sanitizeHtml(html, SANITIZE);

/** The ids mammoth gives notes and their references ("footnote-1", "endnote-ref-2"), and links to them. */
const NOTE_ID = /^(?:foot|end)note-(?:ref-)?\d{1,6}$/;

/**
 * The same allow-list, plus the links between notes and their references: an EPUB is a document of
 * its own, where they are worth keeping (docs/decisions/0096), and only ids of that one shape pass.
 */
const SANITIZE_WITH_NOTES: sanitizeHtml.IOptions = {
  ...SANITIZE,
  allowedAttributes: { ...(SANITIZE.allowedAttributes as Record<string, string[]>), a: ["href", "rel", "target", "id"], li: ["id"] },
  transformTags: {
    a: (tagName, attribs): sanitizeHtml.Tag => {
      const kept: Record<string, string> = {};
      const href = attribs.href ?? "";
      if (SAFE_LINK.test(href) || (href.startsWith("#") && NOTE_ID.test(href.slice(1)))) kept.href = href;
      if (NOTE_ID.test(attribs.id ?? "")) kept.id = attribs.id!;
      return { tagName, attribs: kept };
    },
    li: (tagName, attribs): sanitizeHtml.Tag => ({ tagName, attribs: NOTE_ID.test(attribs.id ?? "") ? { id: attribs.id! } : {} }),
  },
};

const escapeText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A DOCX's HTML, its images inlined while they fit the bounds above. */
async function docxHtml(path: string): Promise<string> {
  let imageBytes = 0;
  const { value } = await mammoth.convertToHtml(
    { path },
    {
      // A DOCX may point at images elsewhere (a file, a URL): mammoth must not fetch them.
      externalFileAccess: false,
      ignoreEmptyParagraphs: true,
      convertImage: mammoth.images.imgElement(async (image) => {
        if (!IMAGE_TYPES.has(image.contentType)) return { src: "" };
        const data = await image.readAsBuffer();
        imageBytes += data.length;
        if (data.length > IMAGE_MAX_BYTES || imageBytes > IMAGES_MAX_TOTAL_BYTES) return { src: "" };
        return { src: `data:${image.contentType};base64,${data.toString("base64")}` };
      }),
    },
  );
  return value;
}

/** A DOC (or any Word file) as its text, one paragraph per line. */
async function extractedHtml(path: string): Promise<string> {
  const document = await new WordExtractor().extract(path);
  return document
    .getBody()
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => `<p>${escapeText(line)}</p>`)
    .join("");
}

const TAG = /<(\/?)([a-z][a-z0-9]*)\b[^>]*>/g;
const VOID_TAGS = new Set(["br", "hr", "img"]);

/**
 * Cuts sanitized HTML between its top-level elements into pages of about PAGE_TEXT_CHARS characters;
 * a top-level heading of the first level (a chapter) starts a new page. In sanitized HTML every `<`
 * opens a tag (text and attribute values have theirs escaped), so counting tags finds the top level.
 */
export function paginate(html: string): string[] {
  const pages: string[] = [];
  let page = "";
  let weight = 0;
  let depth = 0;
  let blockStart = 0;
  let blockWeight = 0;
  let textFrom = 0;
  const endBlock = (end: number, opening: string | undefined) => {
    if (opening === "h1" && page && weight > 0) {
      pages.push(page);
      page = "";
      weight = 0;
    }
    page += html.slice(blockStart, end);
    weight += blockWeight;
    blockStart = end;
    blockWeight = 0;
    if (weight >= PAGE_TEXT_CHARS) {
      pages.push(page);
      page = "";
      weight = 0;
    }
  };
  let opening: string | undefined;
  for (const match of html.matchAll(TAG)) {
    const [tag, closing, name] = match as unknown as [string, string, string];
    const at = match.index;
    blockWeight += textLength(html.slice(textFrom, at));
    textFrom = at + tag.length;
    if (depth === 0 && !closing) opening = name;
    if (name === "img") blockWeight += IMAGE_WEIGHT_CHARS;
    if (VOID_TAGS.has(name) || tag.endsWith("/>")) {
      if (depth === 0) endBlock(textFrom, opening);
      continue;
    }
    depth += closing ? -1 : 1;
    if (depth <= 0) {
      depth = 0;
      endBlock(textFrom, opening);
    }
  }
  blockWeight += textLength(html.slice(textFrom));
  endBlock(html.length, opening);
  if (page) pages.push(page);
  return pages.length > 0 ? pages : [""];
}

const ENTITY = /&(?:#\d+|#x[0-9a-f]+|[a-z]+);/gi;
const textLength = (text: string) => text.replace(ENTITY, " ").replace(/\s+/g, " ").trim().length;

/**
 * The reading view of a Word file on disk; its kind ("docx" or "doc") is the stored file's. It parses
 * the whole document in memory and keeps a core busy: only the cage of word-view-process.ts runs it,
 * never the server (docs/decisions/0051).
 */
export async function convertWordFile(path: string, kind: "docx" | "doc"): Promise<WordView> {
  return { pages: paginate(await wordFileHtml(path, kind)) };
}

/**
 * A Word file's sanitized HTML, images inline as data URIs: what both its reading view and the EPUB
 * Plume makes of it are cut from (docs/decisions/0096), the EPUB's with the links between notes and
 * their references (`noteLinks`). Caged like convertWordFile.
 */
export async function wordFileHtml(path: string, kind: "docx" | "doc", { noteLinks = false } = {}): Promise<string> {
  const html = kind === "docx" ? await docxHtml(path) : await extractedHtml(path);
  return noteLinks ? sanitizeHtml(html, SANITIZE_WITH_NOTES) : sanitizeBookHtml(html);
}
