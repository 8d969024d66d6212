import { crc32, deflateSync } from "node:zlib";
import { proseParagraph, seededRandom } from "./text-books.ts";
import { HYPERLINK, OFFICE_DOCUMENT, type ZipPart, zipPackage } from "./word-packages.ts";

/**
 * A long, messy DOCX as authors' files are: headings that skip levels, empty headings, a paragraph
 * styled as a heading, a second-level heading before the first chapter, nested lists, tables with
 * merged cells and a table in a table, images (PNG and WebP, with and without a description),
 * footnotes, links (one a javascript: URL), characters XML and e-readers trip on, and a paragraph of
 * hundreds of thousands of characters. Written part by part so that mammoth reads its styles,
 * numbering and notes as Word's own.
 */

const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PACKAGE_RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships";
const TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A PNG of one colour, `size` pixels square, built by hand (no image library in the tests). */
export function solidPng(size: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3, Buffer.from(rgb))]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", pixels), chunk("IEND", Buffer.alloc(0))]);
}

/** A 2×2 lossless WebP, half transparent (a format e-readers may not show: the EPUB carries it as PNG). */
const TINY_WEBP = Buffer.from("UklGRhwAAABXRUJQVlA4TBAAAAAvAUAAEAdQvChyAQMR0f8A", "base64");

const STYLES =
  `${XML}<w:styles xmlns:w="${W}">` +
  [1, 2, 3, 4].map((level) => `<w:style w:type="paragraph" w:styleId="Heading${level}"><w:name w:val="heading ${level}"/></w:style>`).join("") +
  `<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/></w:style></w:styles>`;

const NUMBERING =
  `${XML}<w:numbering xmlns:w="${W}">` +
  `<w:abstractNum w:abstractNumId="0">${[0, 1, 2].map((level) => `<w:lvl w:ilvl="${level}"><w:numFmt w:val="${level === 1 ? "decimal" : "bullet"}"/></w:lvl>`).join("")}</w:abstractNum>` +
  `<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`;

const FOOTNOTES =
  `${XML}<w:footnotes xmlns:w="${W}">` +
  `<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>` +
  `<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>` +
  `<w:footnote w:id="1"><w:p><w:r><w:t>A note with &lt;angle brackets&gt; &amp; an ampersand.</w:t></w:r></w:p></w:footnote>` +
  `<w:footnote w:id="2"><w:p><w:r><w:t xml:space="preserve">Un «second» renvoi — ça marche.</w:t></w:r></w:p></w:footnote></w:footnotes>`;

const run = (text: string, props = "") => `<w:r>${props ? `<w:rPr>${props}</w:rPr>` : ""}<w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;
const paragraph = (content: string, style?: string) => `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ""}${content}</w:p>`;
const heading = (level: number, text: string) => paragraph(text ? run(text) : "", `Heading${level}`);
const listItem = (level: number, text: string) => `<w:p><w:pPr><w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="${level}"/><w:numId w:val="1"/></w:numPr></w:pPr>${run(text)}</w:p>`;
const cell = (content: string, props = "") => `<w:tc>${props ? `<w:tcPr>${props}</w:tcPr>` : ""}${content}</w:tc>`;
const table = (rows: string[][]) => `<w:tbl>${rows.map((cells) => `<w:tr>${cells.join("")}</w:tr>`).join("")}</w:tbl>`;

function image(relationship: string, id: number, description: string | null): string {
  const described = description === null ? "" : ` descr="${escapeXml(description)}"`;
  return (
    `<w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="952500" cy="952500"/><wp:docPr id="${id}" name="Picture ${id}"${described}/>` +
    `<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">` +
    `<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="${id}" name="Picture ${id}"/><pic:cNvPicPr/></pic:nvPicPr>` +
    `<pic:blipFill><a:blip r:embed="${relationship}"/></pic:blipFill><pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`
  );
}

const ODD_TEXT =
  "Odd characters: <tag> & \"quotes\" 'apostrophes' — «guillemets» – ellipsis… nbsp\u00a0here, soft\u00adhyphen, zero\u200bwidth, " +
  "joiner 👩\u200d💻, emoji 📚🪶, a non-BMP 𝔘𝔫𝔦𝔠𝔬𝔡𝔢, combining e\u0301, Arabic مرحبا, Hebrew שלום, CJK 你好, replacement \ufffd, and a lone backslash \\.";

/**
 * The messy DOCX, with about `chapters` chapters of `paragraphsPerChapter` paragraphs of ~100 words (a
 * printed page holds about three). Its first chapters carry every oddity; the rest are plain prose.
 */
export function messyDocx({ chapters = 6, paragraphsPerChapter = 40 }: { chapters?: number; paragraphsPerChapter?: number } = {}): Buffer {
  const random = seededRandom(31);
  // Generated prose (about fifteen words a sentence) compresses as a real book's does: the upload's zip-bomb check passes it.
  const prose = (words: number) => proseParagraph(random, Math.ceil(words / 15));
  const body: string[] = [
    // Text before any heading, then a second-level heading before the first chapter, and an empty heading.
    paragraph(run("A dedication before the first heading.", "<w:i/>")),
    heading(2, "A section before any chapter"),
    heading(1, ""),
    heading(1, "Chapter one: lists & <tables>"),
    paragraph(run("Plain ") + run("bold", "<w:b/>") + run(" and ") + run("italic", "<w:i/>") + run(" with a note") + `<w:r><w:footnoteReference w:id="1"/></w:r>` + run(".")),
    listItem(0, "First bullet"),
    listItem(1, "Nested numbered"),
    listItem(2, "Deeper still"),
    listItem(1, "Back one level"),
    listItem(0, "Second bullet"),
    table([
      [cell(paragraph(run("Merged across")), '<w:gridSpan w:val="2"/>'), cell(paragraph(run("C")))],
      [cell(paragraph(run("Merged down")), '<w:vMerge w:val="restart"/>'), cell(paragraph(run("B2"))), cell(table([[cell(paragraph(run("Inner")))]]) + paragraph(""))],
      [cell(paragraph(""), "<w:vMerge/>"), cell(paragraph(run("B3"))), cell(paragraph(""))],
    ]),
    // Skips a level: h1 then h3.
    heading(3, "A third-level heading straight under a chapter"),
    paragraph(run(ODD_TEXT) + "<w:r><w:tab/></w:r>" + run("after a tab") + "<w:r><w:br/></w:r>" + run("after a line break")),
    `<w:p><w:hyperlink r:id="rLinkSafe">${run("a link out")}</w:hyperlink>${run(" and ")}<w:hyperlink r:id="rLinkScript">${run("a script link")}</w:hyperlink>${run(" and ")}<w:hyperlink w:anchor="_Toc1">${run("an anchor")}</w:hyperlink></w:p>`,
    heading(1, "Chapter two: images"),
    paragraph(image("rImgPng", 1, "A red square") + run(" beside ") + image("rImgPng", 2, "The same red square again")),
    paragraph(image("rImgWebp", 3, null)),
    heading(2, "   "),
    heading(2, "A section with a very long paragraph"),
    paragraph(run(prose(40_000))),
    heading(4, "A fourth-level heading"),
    // A paragraph styled as a heading.
    heading(2, prose(400)),
    paragraph(run("Le second renvoi") + `<w:r><w:footnoteReference w:id="2"/></w:r>` + run(".")),
  ];
  for (let chapter = 3; chapter <= chapters; chapter += 1) {
    body.push(heading(1, `Chapter ${chapter}`));
    for (let index = 0; index < paragraphsPerChapter; index += 1) {
      if (index > 0 && index % 20 === 0) body.push(heading(2, `Section ${chapter}.${index / 20}`));
      body.push(paragraph(run(prose(100))));
    }
  }
  const document = `${XML}<w:document xmlns:w="${W}" xmlns:r="${R}"><w:body>${body.join("")}</w:body></w:document>`;
  const relationship = (id: string, type: string, target: string, external = false) =>
    `<Relationship Id="${id}" Type="${type}" Target="${escapeXml(target)}"${external ? ' TargetMode="External"' : ""}/>`;
  const parts: ZipPart[] = [
    {
      name: "[Content_Types].xml",
      data:
        `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        '<Default Extension="png" ContentType="image/png"/><Default Extension="webp" ContentType="image/webp"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
        '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>' +
        '<Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/>' +
        '<Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/></Types>',
    },
    { name: "_rels/.rels", data: `${XML}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">${relationship("rId1", OFFICE_DOCUMENT, "word/document.xml")}</Relationships>` },
    { name: "word/document.xml", data: document },
    {
      name: "word/_rels/document.xml.rels",
      data:
        `${XML}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">` +
        relationship("rStyles", `${TYPE}/styles`, "styles.xml") +
        relationship("rNumbering", `${TYPE}/numbering`, "numbering.xml") +
        relationship("rFootnotes", `${TYPE}/footnotes`, "footnotes.xml") +
        relationship("rImgPng", `${TYPE}/image`, "media/image1.png") +
        relationship("rImgWebp", `${TYPE}/image`, "media/image2.webp") +
        relationship("rLinkSafe", HYPERLINK, "https://example.org/a?b=1&c=<2>", true) +
        relationship("rLinkScript", HYPERLINK, "javascript:alert(1)", true) +
        "</Relationships>",
    },
    { name: "word/styles.xml", data: STYLES },
    { name: "word/numbering.xml", data: NUMBERING },
    { name: "word/footnotes.xml", data: FOOTNOTES },
    { name: "word/media/image1.png", data: solidPng(64, [200, 30, 30]) },
    { name: "word/media/image2.webp", data: TINY_WEBP },
  ];
  return zipPackage(parts);
}
