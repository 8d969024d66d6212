import { ZipFile } from "yazl";

/** A chapter of a made-up EPUB: its title (in the contents too) and its body's XHTML. */
export interface EpubChapter {
  title: string;
  body: string;
}

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const xhtml = (title: string, body: string, head = "") =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en"><head><title>${escape(title)}</title>${head}</head><body>${body}</body></html>`;

/**
 * An EPUB 3 made by the test (its chapters, a navigation document, a stylesheet), zipped as the
 * format asks: "mimetype" first and stored. `extraFiles` go in beside the chapters, unlisted.
 */
export function makeEpub({ title, chapters, css = "", extraFiles = {} }: { title: string; chapters: EpubChapter[]; css?: string; extraFiles?: Record<string, string> }): Promise<Buffer> {
  const zip = new ZipFile();
  zip.addBuffer(Buffer.from("application/epub+zip"), "mimetype", { compress: false });
  zip.addBuffer(
    Buffer.from(
      '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    ),
    "META-INF/container.xml",
  );
  const ids = chapters.map((_, index) => `chapter-${index + 1}`);
  const opf = `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id" xml:lang="en">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:uuid:${crypto.randomUUID()}</dc:identifier><dc:title>${escape(title)}</dc:title><dc:language>en</dc:language><meta property="dcterms:modified">2026-01-01T00:00:00Z</meta></metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="css" href="style.css" media-type="text/css"/>
    ${ids.map((id) => `<item id="${id}" href="${id}.xhtml" media-type="application/xhtml+xml"/>`).join("\n    ")}
  </manifest>
  <spine>${ids.map((id) => `<itemref idref="${id}"/>`).join("")}</spine>
</package>`;
  zip.addBuffer(Buffer.from(opf), "OEBPS/content.opf");
  const nav = `<nav epub:type="toc" id="toc"><h1>Contents</h1><ol>${chapters.map((chapter, index) => `<li><a href="${ids[index]}.xhtml">${escape(chapter.title)}</a></li>`).join("")}</ol></nav>`;
  zip.addBuffer(Buffer.from(xhtml("Contents", nav)), "OEBPS/nav.xhtml");
  zip.addBuffer(Buffer.from(css), "OEBPS/style.css");
  const link = '<link rel="stylesheet" type="text/css" href="style.css"/>';
  chapters.forEach((chapter, index) => zip.addBuffer(Buffer.from(xhtml(chapter.title, chapter.body, link)), `OEBPS/${ids[index]}.xhtml`));
  for (const [name, content] of Object.entries(extraFiles)) zip.addBuffer(Buffer.from(content), `OEBPS/${name}`);
  zip.end();
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    zip.outputStream.on("data", (part: Buffer) => parts.push(part));
    zip.outputStream.on("end", () => resolve(Buffer.concat(parts)));
    zip.outputStream.on("error", reject);
  });
}

/** A chapter long enough for several pages at any width: numbered paragraphs that say where they are. */
export function longChapter(title: string, paragraphs = 40): EpubChapter {
  const text = Array.from(
    { length: paragraphs },
    (_, index) => `<p>${escape(title)}, paragraph ${index + 1}. The river ran under the old bridge while the town slept, and the lamps along the quay burned until morning came grey over the water.</p>`,
  ).join("");
  return { title, body: `<h1 style="letter-spacing: 0.05em">${escape(title)}</h1>${text}` };
}
