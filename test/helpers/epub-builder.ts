import { readFileSync } from "node:fs";
import yazl from "yazl";
import { fixture } from "./book-fixtures.ts";

/**
 * EPUBs made by the tests, valid or hostile in one way each (docs/decisions/0095): a small EPUB 3
 * whose parts a test replaces, removes or adds to, zipped with yazl.
 */

export const CONTAINER_XML = `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>`;

export interface OpfOptions {
  /** Inside <metadata>, after the title, creator and language. */
  metadata?: string;
  /** Manifest items besides the chapter, the stylesheet and the cover. */
  items?: string;
  /** The cover item's attributes past its id, href and media-type. */
  coverProperties?: string;
  coverId?: string;
  coverHref?: string;
}

export function opf({ metadata = "", items = "", coverProperties = ' properties="cover-image"', coverId = "cover-image", coverHref = "images/cover.png" }: OpfOptions = {}) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="id">urn:uuid:0b5f1c2e-7a41-4d3e-9c55-2a6f3e1d0c7b</dc:identifier>
    <dc:title>Made by a test</dc:title>
    <dc:creator>Ana García</dc:creator>
    <dc:language>es</dc:language>
    <dc:description>A book a test made.</dc:description>
    <meta property="dcterms:modified">2026-11-28T00:00:00Z</meta>
    ${metadata}
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="c1" href="text/chapter-1.xhtml" media-type="application/xhtml+xml"/>
    <item id="css" href="style.css" media-type="text/css"/>
    <item id="${coverId}" href="${coverHref}" media-type="image/png"${coverProperties}/>
    ${items}
  </manifest>
  <spine><itemref idref="c1"/></spine>
</package>`;
}

export function xhtml(body: string, { head = "", doctype = "<!DOCTYPE html>" } = {}) {
  return `<?xml version="1.0" encoding="UTF-8"?>
${doctype}
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="es">
<head><title>Capítulo</title>${head}</head>
<body>${body}</body>
</html>`;
}

const NAV = xhtml('<nav epub:type="toc"><ol><li><a href="text/chapter-1.xhtml">Uno</a></li></ol></nav>');
export const CHAPTER_TEXT = "El faro se encendió al caer la noche y la guardiana subió los ciento doce escalones.";

/** The parts of the valid book, by name, in the order they are zipped after `mimetype`. */
export function epubParts(): Record<string, string | Buffer> {
  return {
    "META-INF/container.xml": CONTAINER_XML,
    "OEBPS/content.opf": opf(),
    "OEBPS/nav.xhtml": NAV,
    "OEBPS/text/chapter-1.xhtml": xhtml(`<h1>Uno</h1><p>${CHAPTER_TEXT}</p><p>Leer <a href="https://example.org/">más</a>.</p>`),
    "OEBPS/style.css": "body { font-family: serif; }",
    "OEBPS/images/cover.png": readFileSync(fixture("cover.png")),
  };
}

export interface EpubOptions {
  /** Parts replaced or added (a string or bytes), or removed (null). */
  parts?: Record<string, string | Buffer | null>;
  /** The `mimetype` entry: its text, whether it is deflated, whether it comes first; `false` leaves it out. */
  mimetype?: { content?: string; compress?: boolean; first?: boolean } | false;
  /** Entry names rewritten in the zip's bytes (same length), for names yazl itself refuses (`../x`). */
  renames?: Record<string, string>;
}

export async function buildEpub({ parts = {}, mimetype = {}, renames = {} }: EpubOptions = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const addMimetype = () => mimetype && zip.addBuffer(Buffer.from(mimetype.content ?? "application/epub+zip"), "mimetype", { compress: mimetype.compress ?? false });
  if (mimetype && mimetype.first !== false) addMimetype();
  for (const [name, content] of Object.entries({ ...epubParts(), ...parts })) {
    if (content !== null) zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name);
  }
  if (mimetype && mimetype.first === false) addMimetype();
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  let bytes = Buffer.concat(chunks);
  for (const [from, to] of Object.entries(renames)) {
    if (from.length !== to.length) throw new Error("A rename keeps the name's length");
    bytes = Buffer.from(bytes.toString("latin1").replaceAll(from, to), "latin1");
  }
  return bytes;
}
