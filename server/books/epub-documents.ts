import { posix } from "node:path";
import { SaxesParser } from "saxes";
import type yauzl from "yauzl";
import { COVER_MAX_BYTES } from "../../shared/books.ts";
import type { DocxLimits } from "../config.ts";
import { type ZipPart, UnsafeZipName, declaresTooMuch, decodeXml, judgeInflatedSizes, openZip, readPart } from "./zip-packages.ts";

/**
 * What makes an uploaded EPUB unfit to pass on to readers, judged by its content (docs/decisions/0095):
 * - `malformed`: not the container EPUB 2 and 3 define (a stored `mimetype` first, a container naming
 *   a package document that parses, a manifest and spine whose items are in the zip), or an XML part
 *   that is not well-formed, nested too deep or too large to read;
 * - `entities`: a DOCTYPE with an internal subset (entity declarations: billion laughs) or a reference
 *   to a DTD or entity outside the well-known public ones (XXE);
 * - `scripts`: a script element, an `on*` attribute, a `javascript:` URL, a manifest item that is a
 *   script or says it is `scripted`;
 * - `remote-resources`: anything a reading system would fetch from elsewhere on opening the book
 *   (an image, a stylesheet, a frame, a font); a hyperlink the reader clicks is fine;
 * - `encrypted`: DRM (an encryption.xml with anything but font obfuscation, or Adobe's rights.xml);
 * - `unpacks-too-large`: the zip-bomb bounds of a DOCX (docs/decisions/0023);
 * - `unsafe-paths`: an entry whose name is absolute or climbs out of the book (`../`).
 */
export type UnsafeEpub = "malformed" | "entities" | "scripts" | "remote-resources" | "encrypted" | "unpacks-too-large" | "unsafe-paths";

export type EpubVerdict =
  | { unsafe: UnsafeEpub; detail: string }
  | { unsafe: null; /** The package's cover image, at most a cover's size; null without one. */ cover: Uint8Array | null };

/** The bounds: a DOCX's zip-bomb limits, and its document bound as the bound of any one XML part. */
export type EpubLimits = Pick<DocxLimits, "unpackedMaxBytes" | "inflateRatioMax" | "documentMaxBytes">;

/** Deeper than any book's markup; a parser's stack past it is what a crafted file is after. */
const MAX_ELEMENT_DEPTH = 256;
/** container.xml, encryption.xml and the package document are lists; a megabyte is far past any real one. */
const MAX_LIST_PART_BYTES = 1024 * 1024;
const MIMETYPE = "application/epub+zip";

/** Font obfuscation (IDPF's and Adobe's) only scrambles a font's first bytes: the book reads without a key. */
const FONT_OBFUSCATION = new Set(["http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"]);
/**
 * The DTDs a reading system knows by their public identifier and never fetches (XHTML, NCX, DTBook,
 * SVG, OEB 1.2), each with where its standard system identifier lives: a known public identifier
 * naming a DTD elsewhere is what a parser that fetches DTDs would fetch.
 */
const KNOWN_DTDS: Array<[publicId: RegExp, systemId: RegExp]> = [
  [/^-\/\/W3C\/\/DTD XHTML 1\.[01]( Strict| Transitional)?\/\/EN$/, /^https?:\/\/www\.w3\.org\/TR\/xhtml11?\/DTD\/[\w.-]+\.dtd$/],
  [/^-\/\/NISO\/\/DTD (ncx|dtbook) 2005-1\/\/EN$/, /^https?:\/\/www\.daisy\.org\/z3986\/2005\/[\w.-]+\.dtd$/],
  [/^-\/\/W3C\/\/DTD SVG 1\.1\/\/EN$/, /^https?:\/\/www\.w3\.org\/Graphics\/SVG\/1\.1\/DTD\/[\w.-]+\.dtd$/],
  [/^\+\/\/ISBN 0-9673008-1-9\/\/DTD OEB 1\.2 Package\/\/EN$/, /^https?:\/\/openebook\.org\/dtds\/oeb-1\.2\/[\w.-]+\.dtd$/],
];
/** A DOCTYPE's external identifier: `PUBLIC "public" "system"` or `SYSTEM "system"`. */
const EXTERNAL_ID = /\b(PUBLIC|SYSTEM)\s+(?:"([^"]*)"|'([^']*)')(?:\s+(?:"([^"]*)"|'([^']*)'))?/i;

/** Whether a DOCTYPE without an internal subset names a DTD no reading system fetches (or none: `<!DOCTYPE html>`). */
function knownDoctype(doctype: string): boolean {
  const external = EXTERNAL_ID.exec(doctype);
  if (!external) return !/\b(PUBLIC|SYSTEM)\b/i.test(doctype);
  const [, keyword, firstDouble, firstSingle, secondDouble, secondSingle] = external;
  const first = (firstDouble ?? firstSingle ?? "").trim();
  const second = (secondDouble ?? secondSingle)?.trim();
  // HTML5's legacy form, which no one fetches.
  if (keyword!.toUpperCase() === "SYSTEM") return first === "about:legacy-compat";
  return KNOWN_DTDS.some(([publicId, systemId]) => publicId.test(first) && (second === undefined || systemId.test(second)));
}
const SCRIPT_TYPES = /^(application|text)\/(x-)?(java|ecma)script$|^(application|text)\/(javascript|ecmascript|jscript|livescript)|^module$/i;
/** A URL with a scheme (http:, file:, data:…) or a network path (//host). */
const WITH_SCHEME = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;
/** Images inlined in the markup load nothing; an SVG could hold scripts, so only raster ones. */
const INLINE_IMAGE = /^data:image\/(png|jpeg|gif|webp)[;,]/i;
/** Elements whose URL attributes a reading system loads when it shows the page. */
const LOADING_ELEMENTS = new Set(["img", "image", "link", "audio", "video", "iframe", "frame", "object", "embed", "source", "track", "script", "use", "feimage", "input", "base", "body", "table", "td", "th"]);
const URL_ATTRIBUTES = new Set(["src", "href", "data", "poster", "srcset", "background", "codebase", "archive"]);
/** Every attribute a browser follows as a URL, loaded or clicked: where a `javascript:` URL runs. */
const ANY_URL_ATTRIBUTES = new Set([...URL_ATTRIBUTES, "action", "formaction", "cite", "longdesc", "usemap", "ping", "dynsrc", "lowsrc"]);
/** SVG animation sets an attribute (an `href`) to these values: `<set attributeName="href" to="javascript:…">`. */
const ANIMATIONS = new Set(["set", "animate", "animatemotion", "animatetransform"]);
const ANIMATED_VALUES = new Set(["to", "from", "by", "values"]);
/** What a stylesheet loads: `@import`'s target, every `url(…)`, and the strings of an `image-set(…)`. */
const CSS_LOADS = /@import\s*(?:url\(\s*)?["']?\s*([^"')\s;]+)|url\(\s*["']?\s*([^"')\s]+)|image-set\(([^)]*)\)/gi;
/** Whitespace and control characters a browser drops from a URL before reading its scheme; a backslash it reads as a slash (`\\host` is `//host`). */
const stripUrl = (value: string) => value.replace(/[\s\p{Cc}]+/gu, "").replace(/\\/g, "/").toLowerCase();

class Refusal extends Error {
  constructor(
    readonly reason: UnsafeEpub,
    readonly detail: string,
  ) {
    super(detail);
  }
}

const localName = (name: string) => name.slice(name.lastIndexOf(":") + 1).toLowerCase();

/** Comments dropped and escapes read first, as a browser does: `u\\72l(` is a `url(`. */
function cssReachesOut(css: string): boolean {
  const plain = css
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\\([0-9a-f]{1,6})\s?/gi, (_, hex: string) => String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff) || 0xfffd))
    .replace(/\\(.)/g, "$1");
  const targets = [...plain.matchAll(CSS_LOADS)].flatMap(([, imported, url, set]) => (set !== undefined ? [...set.matchAll(/["']([^"']*)["']/g)].map(([, quoted]) => quoted!) : [imported ?? url ?? ""]));
  return targets.some((target) => {
    const stripped = stripUrl(target);
    return WITH_SCHEME.test(stripped) && !INLINE_IMAGE.test(stripped);
  });
}

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
}

interface ParseOptions {
  /** Called for each element as it opens, with its depth's stack of local names. */
  onElement?: (element: { name: string; attributes: Record<string, string> }, stack: readonly string[]) => void;
  onText?: (text: string, stack: readonly string[]) => void;
  onProcessingInstruction?: (target: string, body: string) => void;
}

/**
 * Parses one XML part with saxes, which never fetches anything nor expands a declared entity; a DOCTYPE
 * declaring any is refused all the same, before a reading system less careful meets it.
 */
function parseXml(partName: string, bytes: Buffer, options: ParseOptions): void {
  const xml = decodeXml(bytes);
  if (xml === "malformed") throw new Refusal("malformed", `${partName} is not UTF-8 or UTF-16 text`);
  const parser = new SaxesParser({ position: false });
  const stack: string[] = [];
  parser.on("doctype", (doctype) => {
    if (/[[\]]|<!ENTITY/i.test(doctype)) throw new Refusal("entities", `${partName} declares entities in its DOCTYPE`);
    if (!knownDoctype(doctype)) throw new Refusal("entities", `${partName} refers to an outside DTD or entity`);
  });
  parser.on("opentag", (tag) => {
    const name = localName(tag.name);
    stack.push(name);
    if (stack.length > MAX_ELEMENT_DEPTH) throw new Refusal("malformed", `${partName} nests elements more than ${MAX_ELEMENT_DEPTH} deep`);
    const attributes = tag.attributes as Record<string, string>;
    options.onElement?.({ name, attributes }, stack);
  });
  parser.on("text", (text) => options.onText?.(text, stack));
  parser.on("cdata", (text) => options.onText?.(text, stack));
  parser.on("closetag", () => stack.pop());
  parser.on("processinginstruction", ({ target, body }) => options.onProcessingInstruction?.(target, body));
  parser.on("error", (error) => {
    // Without a DTD, an XHTML named entity (&nbsp;) is unknown to XML: left unexpanded, as a reading system that knows it shows it.
    if (/undefined entity/i.test(error.message)) return;
    throw new Refusal("malformed", `${partName} is not well-formed XML (${error.message.split("\n")[0]})`);
  });
  parser.write(xml).close();
}

/** The zip entry a package-relative URL points at ("../Images/a.png" from "OEBPS/Text/"), or null outside the book. */
function resolveHref(baseFolder: string, href: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(href.replace(/[?#].*$/, ""));
  } catch {
    return null;
  }
  const joined = posix.normalize(posix.join(baseFolder, path));
  return joined.startsWith("../") || joined === ".." || posix.isAbsolute(path) ? null : joined;
}

interface ManifestItem {
  id: string;
  href: string;
  /** Its zip entry's name, null for a remote item. */
  entry: string | null;
  mediaType: string;
  properties: string[];
}

interface Package {
  /** The package document's own entry, parsed (and its DOCTYPE judged) as it is read. */
  path: string;
  manifest: ManifestItem[];
  spine: ManifestItem[];
  /** EPUB 2's `<meta name="cover" content="ID">`. */
  coverId: string | null;
}

class EpubZip {
  private readonly byName: Map<string, ZipPart>;
  constructor(
    readonly zip: yauzl.ZipFile,
    readonly parts: ZipPart[],
  ) {
    // An EPUB's names are case-sensitive (OCF §4.2.2), unlike a DOCX's.
    this.byName = new Map(parts.map((part) => [part.entry.fileName, part]));
  }
  has(name: string) {
    return this.byName.has(name);
  }
  async read(name: string, maxBytes: number): Promise<Buffer> {
    const part = this.byName.get(name);
    if (!part) throw new Refusal("malformed", `${name} is missing`);
    const bytes = await readPart(this.zip, part.entry, maxBytes);
    if (!bytes) throw new Refusal("malformed", `${name} is larger than ${Math.round(maxBytes / 1024 / 1024)} MB or lies about its size`);
    return bytes;
  }
}

async function readPackage(zip: EpubZip): Promise<Package> {
  const rootfiles: XmlElement[] = [];
  parseXml("META-INF/container.xml", await zip.read("META-INF/container.xml", MAX_LIST_PART_BYTES), {
    onElement: (element) => element.name === "rootfile" && rootfiles.push(element),
  });
  const rootfile = rootfiles.find(({ attributes }) => (attributes["media-type"] ?? "").trim() === "application/oebps-package+xml") ?? rootfiles[0];
  const opfPath = rootfile?.attributes["full-path"]?.trim();
  if (!opfPath) throw new Refusal("malformed", "META-INF/container.xml names no package document");
  const opfEntry = resolveHref("", opfPath);
  if (!opfEntry || !zip.has(opfEntry)) throw new Refusal("malformed", `the package document ${opfPath} is missing`);

  const folder = posix.dirname(opfEntry) === "." ? "" : posix.dirname(opfEntry);
  const items: ManifestItem[] = [];
  const itemrefs: string[] = [];
  let coverId: string | null = null;
  parseXml(opfEntry, await zip.read(opfEntry, MAX_LIST_PART_BYTES), {
    onElement: ({ name, attributes }, stack) => {
      if (name === "item" && stack.at(-2) === "manifest") {
        const href = (attributes.href ?? "").trim();
        items.push({
          id: attributes.id ?? "",
          href,
          entry: WITH_SCHEME.test(href) ? null : resolveHref(folder, href),
          mediaType: (attributes["media-type"] ?? "").trim().toLowerCase(),
          properties: (attributes.properties ?? "").trim().split(/\s+/).filter(Boolean),
        });
      }
      if (name === "itemref" && stack.at(-2) === "spine") itemrefs.push(attributes.idref ?? "");
      if (name === "meta" && stack.at(-2) === "metadata" && attributes.name === "cover") coverId = attributes.content ?? null;
    },
  });
  if (items.length === 0) throw new Refusal("malformed", `${opfEntry} has no manifest`);
  for (const item of items) {
    if (item.entry === null && !WITH_SCHEME.test(item.href)) throw new Refusal("unsafe-paths", `the manifest item ${item.href} points outside the book`);
    if (item.entry !== null && !zip.has(item.entry)) throw new Refusal("malformed", `the manifest names ${item.href}, which is not in the book`);
  }
  const byId = new Map(items.map((item) => [item.id, item]));
  const spine = itemrefs.map((idref) => {
    const item = byId.get(idref);
    if (!item) throw new Refusal("malformed", `the spine names ${idref}, which is not in the manifest`);
    return item;
  });
  if (spine.length === 0) throw new Refusal("malformed", `${opfEntry} has an empty spine`);
  return { path: opfEntry, manifest: items, spine, coverId };
}

function judgeManifest({ manifest }: Package): void {
  for (const item of manifest) {
    if (item.properties.includes("scripted") || SCRIPT_TYPES.test(item.mediaType)) throw new Refusal("scripts", `the manifest item ${item.href} is a script or scripted`);
    if (item.properties.includes("remote-resources") || item.entry === null) throw new Refusal("remote-resources", `the manifest item ${item.href} loads content from elsewhere`);
  }
}

async function judgeEncryption(zip: EpubZip): Promise<void> {
  if (zip.has("META-INF/rights.xml")) throw new Refusal("encrypted", "META-INF/rights.xml holds Adobe DRM rights");
  if (!zip.has("META-INF/encryption.xml")) return;
  const algorithms: string[] = [];
  parseXml("META-INF/encryption.xml", await zip.read("META-INF/encryption.xml", MAX_LIST_PART_BYTES), {
    onElement: ({ name, attributes }, stack) => {
      if (name === "encryptionmethod" && stack.at(-2) === "encrypteddata") algorithms.push((attributes.Algorithm ?? "").trim());
    },
  });
  const drm = algorithms.find((algorithm) => !FONT_OBFUSCATION.has(algorithm));
  if (drm !== undefined) throw new Refusal("encrypted", `META-INF/encryption.xml encrypts content with ${drm || "an unnamed algorithm"}`);
}

const XML_PART = /\.(xhtml|html|htm|xml|svg|opf|ncx|smil)$/i;
const XML_TYPES = /xml|svg|smil/;

/** Every markup part's scripts and remote loads, and every stylesheet's remote imports. */
async function judgeContent(zip: EpubZip, pack: Package, limits: EpubLimits): Promise<void> {
  const css = new Set(pack.manifest.filter((item) => item.mediaType === "text/css" && item.entry).map((item) => item.entry!));
  const markup = new Set(pack.manifest.filter((item) => XML_TYPES.test(item.mediaType) && item.entry).map((item) => item.entry!));
  for (const { entry } of zip.parts) {
    const name = entry.fileName;
    // The package document may link records elsewhere (EPUB 3's metadata <link>), which no reading system loads.
    if (name.endsWith("/") || name === pack.path) continue;
    if (css.has(name) || name.toLowerCase().endsWith(".css")) {
      // Read as UTF-8 with every NUL dropped: a stylesheet in UTF-16 (which a UTF-16 page lends it) then shows its ASCII too.
      const text = (await zip.read(name, limits.documentMaxBytes)).toString("utf8").replace(/\0/g, "");
      if (cssReachesOut(text)) throw new Refusal("remote-resources", `the stylesheet ${name} loads content from elsewhere`);
    } else if (markup.has(name) || XML_PART.test(name)) {
      judgeMarkup(name, await zip.read(name, limits.documentMaxBytes));
    }
  }
}

function judgeUrl(partName: string, element: string, attribute: string, value: string): void {
  const url = stripUrl(value);
  const followed = ANY_URL_ATTRIBUTES.has(attribute) || (ANIMATIONS.has(element) && ANIMATED_VALUES.has(attribute));
  if (followed && /(^|;)(javascript|vbscript):/.test(url)) throw new Refusal("scripts", `${partName} has a ${/vbscript:/.test(url) ? "vbscript" : "javascript"}: link`);
  if (element === "a" || element === "area") return;
  if (!LOADING_ELEMENTS.has(element) || !URL_ATTRIBUTES.has(attribute)) return;
  const urls = attribute === "srcset" ? value.split(",").map((candidate) => stripUrl(candidate.trim().split(/\s+/)[0] ?? "")) : [url];
  if (urls.some((candidate) => WITH_SCHEME.test(candidate) && !INLINE_IMAGE.test(candidate))) {
    throw new Refusal("remote-resources", `${partName} loads ${value.trim().slice(0, 80)} from elsewhere`);
  }
}

function judgeMarkup(partName: string, bytes: Buffer): void {
  let styleText = "";
  parseXml(partName, bytes, {
    onElement: ({ name, attributes }) => {
      if (name === "script") throw new Refusal("scripts", `${partName} has a script element`);
      for (const [qualified, value] of Object.entries(attributes)) {
        const attribute = localName(qualified);
        if (attribute.startsWith("on")) throw new Refusal("scripts", `${partName} has an ${attribute} attribute`);
        if (attribute === "style" && cssReachesOut(value)) throw new Refusal("remote-resources", `${partName} has a style that loads content from elsewhere`);
        if (attribute === "srcdoc") throw new Refusal("scripts", `${partName} has a frame with inline content`);
        if (name === "meta" && (attributes["http-equiv"] ?? "").toLowerCase() === "refresh") throw new Refusal("remote-resources", `${partName} redirects to another page`);
        judgeUrl(partName, name, attribute, value);
      }
    },
    onText: (text, stack) => {
      if (stack.at(-1) === "style") styleText += text;
    },
    onProcessingInstruction: (target, body) => {
      if (target === "xml-stylesheet" && /href\s*=\s*["']\s*(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(body)) {
        throw new Refusal("remote-resources", `${partName} has a stylesheet from elsewhere`);
      }
    },
  });
  if (cssReachesOut(styleText)) throw new Refusal("remote-resources", `${partName} has a style that loads content from elsewhere`);
}

/** EPUB 3's cover-image item, else EPUB 2's cover meta, else an image named as a cover. */
function coverItemOf(pack: Package): ManifestItem | undefined {
  const images = pack.manifest.filter((item) => item.mediaType.startsWith("image/") && item.entry);
  return (
    images.find((item) => item.properties.includes("cover-image")) ??
    images.find((item) => pack.coverId !== null && item.id === pack.coverId) ??
    images.find((item) => /cover/i.test(item.id) || /cover/i.test(posix.basename(item.href)))
  );
}

async function coverOf(zip: EpubZip, pack: Package): Promise<Uint8Array | null> {
  const item = coverItemOf(pack);
  if (!item) return null;
  // A cover larger than an author may upload is left out, as an unreadable one is: the book gets Plume's cover.
  try {
    return new Uint8Array(await zip.read(item.entry!, COVER_MAX_BYTES));
  } catch (error) {
    if (error instanceof Refusal) return null;
    throw error;
  }
}

/**
 * Every name once, case and Unicode forms aside (OCF §4.2.2): of two entries with one name, which a
 * reading system opens is its own choice, so the one judged might not be the one read.
 */
function judgeNames(zip: EpubZip): void {
  const seen = new Set<string>();
  for (const { entry } of zip.parts) {
    const folded = entry.fileName.normalize("NFC").toLowerCase();
    if (seen.has(folded)) throw new Refusal("malformed", `two files are named ${entry.fileName}`);
    seen.add(folded);
  }
}

/** The stored `mimetype` first, holding exactly `application/epub+zip` (OCF §4.3). */
async function judgeMimetype(zip: EpubZip): Promise<void> {
  const first = zip.parts[0]?.entry;
  if (first?.fileName !== "mimetype") throw new Refusal("malformed", "the first entry is not mimetype");
  if (first.compressionMethod !== 0) throw new Refusal("malformed", "the mimetype entry is compressed; it must be stored");
  if (first.uncompressedSize !== MIMETYPE.length || (await zip.read("mimetype", MIMETYPE.length)).toString("latin1") !== MIMETYPE) throw new Refusal("malformed", `the mimetype entry does not hold ${MIMETYPE}`);
}

async function withEpubZip<T>(path: string, work: (zip: EpubZip) => Promise<T>): Promise<T | { unsafe: UnsafeEpub; detail: string }> {
  let opened: Awaited<ReturnType<typeof openZip>>;
  try {
    opened = await openZip(path);
  } catch (error) {
    if (error instanceof UnsafeZipName) return { unsafe: "unsafe-paths", detail: `an entry's name leaves the book (${error.message})` };
    return { unsafe: "malformed", detail: "it is not a readable zip" };
  }
  try {
    return await work(new EpubZip(opened.zip, opened.parts));
  } catch (error) {
    if (error instanceof Refusal) return { unsafe: error.reason, detail: error.detail };
    return { unsafe: "malformed", detail: `it cannot be read (${(error as Error).message})` };
  } finally {
    opened.zip.close();
  }
}

/**
 * Judges an EPUB (already known to be a zip whose first entry is `mimetype`) and, if it is fit for
 * readers, takes its cover (the browser reads its title and description: upload-page's epub-metadata.ts). Everything read is bounded: the
 * zip-bomb limits first, then each XML part's bytes and depth.
 */
export async function inspectEpub(path: string, limits: EpubLimits): Promise<EpubVerdict> {
  return withEpubZip(path, async (zip): Promise<EpubVerdict> => {
    await judgeMimetype(zip);
    judgeNames(zip);
    if (declaresTooMuch(zip.parts, limits)) return { unsafe: "unpacks-too-large", detail: "it unpacks too large" };
    const inflated = await judgeInflatedSizes(zip.zip, zip.parts);
    if (inflated === "unpacks-too-large") return { unsafe: inflated, detail: "a part inflates past its declared size" };
    if (inflated === "malformed") return { unsafe: inflated, detail: "a part is shorter than it declares" };
    await judgeEncryption(zip);
    const pack = await readPackage(zip);
    judgeManifest(pack);
    await judgeContent(zip, pack, limits);
    return { unsafe: null, cover: await coverOf(zip, pack) };
  });
}

/**
 * Twice the largest chapter the upload check takes by default (DOCX_DOCUMENT_MAX_MB): a book whose
 * chapter is larger still, on a server that raised it, is published unfingerprinted (docs/decisions/0091).
 */
const MAX_TEXT_PART_BYTES = 32 * 1024 * 1024;
/** Elements that end a line of the book's text. */
const BLOCKS = new Set(["p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "br", "tr", "blockquote", "section", "pre"]);

/**
 * The book's text as its spine orders it, tags stripped, at most `maxChars`: what the copy checks
 * fingerprint (docs/decisions/0091). Only ever read from an EPUB that inspectEpub accepted.
 */
export async function epubText(path: string, maxChars: number): Promise<string> {
  const text = await withEpubZip(path, async (zip) => {
    const { spine } = await readPackage(zip);
    let text = "";
    for (const item of spine) {
      if (text.length >= maxChars || !item.entry || !XML_TYPES.test(item.mediaType)) continue;
      parseXml(item.entry, await zip.read(item.entry, MAX_TEXT_PART_BYTES), {
        onElement: ({ name }) => {
          if (BLOCKS.has(name)) text += "\n";
        },
        onText: (chunk, stack) => {
          if (stack.includes("body") && !stack.includes("style") && !stack.includes("script")) text += chunk;
        },
      });
      text += "\n";
    }
    return text.slice(0, maxChars);
  });
  if (typeof text !== "string") throw new Error(`The EPUB's text cannot be read: ${text.detail}`);
  return text;
}
