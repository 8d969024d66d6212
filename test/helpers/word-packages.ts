import { randomBytes } from "node:crypto";
import { crc32, deflateRawSync } from "node:zlib";

/**
 * Word packages made in the test, so that each hostile one differs from a plain document by the one
 * thing it tries: a zip written by hand (stored or deflated parts, sizes that may lie), and the
 * smallest DOCX Word opens.
 */

export interface ZipPart {
  name: string;
  data: Buffer | string;
  /** The unpacked size the headers declare, when it should not be the true one. */
  declaredSize?: number;
}

export function zipPackage(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const data = Buffer.from(part.data);
    const packed = deflateRawSync(data);
    const name = Buffer.from(part.name, "utf8");
    // Version needed, flags (bit 11: UTF-8 name), method (8: deflate), time, date (1980-01-01), CRC, sizes, name length, extra length.
    const fields = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at);
      header.writeUInt16LE(0x0800, at + 2);
      header.writeUInt16LE(8, at + 4);
      header.writeUInt16LE(0, at + 6);
      header.writeUInt16LE(0x21, at + 8);
      header.writeUInt32LE(crc32(data), at + 10);
      header.writeUInt32LE(packed.length, at + 14);
      header.writeUInt32LE(part.declaredSize ?? data.length, at + 18);
      header.writeUInt16LE(name.length, at + 22);
      header.writeUInt16LE(0, at + 24);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    fields(local, 4);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    fields(central, 6);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships";
export const OFFICE_DOCUMENT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument";
export const ATTACHED_TEMPLATE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate";
export const HYPERLINK = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink";

/**
 * The parts of the smallest DOCX: content types (with `types` added), the package's relationships,
 * the document, and the document's relationships (with `relationships` added).
 */
export function docxParts({ types = "", relationships = "" }: { types?: string; relationships?: string } = {}): ZipPart[] {
  const xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
  return [
    {
      name: "[Content_Types].xml",
      data:
        `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
        `${types}</Types>`,
    },
    { name: "_rels/.rels", data: `${xml}<Relationships xmlns="${RELATIONSHIPS}"><Relationship Id="rId1" Type="${OFFICE_DOCUMENT}" Target="word/document.xml"/></Relationships>` },
    {
      name: "word/document.xml",
      data: `${xml}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Mañana en París</w:t></w:r></w:p></w:body></w:document>`,
    },
    { name: "word/_rels/document.xml.rels", data: `${xml}<Relationships xmlns="${RELATIONSHIPS}">${relationships}</Relationships>` },
  ];
}

export const docxPackage = (options?: Parameters<typeof docxParts>[0]) => zipPackage(docxParts(options));

/**
 * A main part of about `bytes` bytes of paragraphs of text that compresses as prose does (about
 * five times, not a thousand), so that only its unpacked size can refuse it: random words from a
 * vocabulary of 256.
 */
export function largeDocumentXml(bytes: number): Buffer {
  const letters = randomBytes(256 * 8);
  const vocabulary = Array.from({ length: 256 }, (_, word) =>
    String.fromCharCode(...letters.subarray(word * 8, word * 8 + 3 + (letters[word * 8]! % 6)).map((byte) => 97 + (byte % 26))),
  );
  const choices = randomBytes(Math.ceil(bytes / 4));
  const paragraphs: string[] = [];
  let length = 0;
  for (let at = 0; length < bytes; ) {
    const words: string[] = [];
    for (let word = 0; word < 40; word += 1, at = (at + 1) % choices.length) words.push(vocabulary[choices[at]!]!);
    const paragraph = `<w:p><w:r><w:t>${words.join(" ")}</w:t></w:r></w:p>`;
    paragraphs.push(paragraph);
    length += paragraph.length;
  }
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs.join("")}</w:body></w:document>`);
}
