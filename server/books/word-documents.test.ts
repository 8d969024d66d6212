import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import WordExtractor from "word-extractor";
import { fixture } from "../../test/helpers/book-fixtures.ts";
import { MACROS, brokenWordDocuments, compoundFile, siblings, wordDocument, wordDocumentParts } from "../../test/helpers/compound-files.ts";
import { ATTACHED_TEMPLATE, HYPERLINK, OFFICE_DOCUMENT, type ZipPart, docxPackage, docxParts, largeDocumentXml, zipPackage } from "../../test/helpers/word-packages.ts";
import { inspectDoc, inspectDocx } from "./word-documents.ts";

const scratch = mkdtempSync(join(tmpdir(), "plume-word-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const LIMITS = { unpackedMaxBytes: 200 * 1024 * 1024, inflateRatioMax: 100, documentMaxBytes: 16 * 1024 * 1024 };
let written = 0;
function saved(bytes: Buffer, extension = "docx"): string {
  const path = join(scratch, `package-${(written += 1)}.${extension}`);
  writeFileSync(path, bytes);
  return path;
}
const inspect = (bytes: Buffer, limits = LIMITS) => inspectDocx(saved(bytes), limits);
/** The smallest DOCX with one part changed. */
const withPart = (name: string, change: (part: ZipPart) => ZipPart, parts = docxParts()) => zipPackage(parts.map((part) => (part.name === name ? change(part) : part)));
const relationship = (type: string, target: string, mode = ' TargetMode="External"') => `<Relationship Id="rId9" Type="${type}" Target="${target}"${mode}/>`;
const MB = 1024 * 1024;

describe("Word 2007 documents", () => {
  it("accepts a plain document", async () => {
    expect(await inspectDocx(fixture("book.docx"), LIMITS)).toBeNull();
    expect(await inspect(docxPackage())).toBeNull();
  });

  it("accepts hyperlinks to other addresses, and a large photograph (which hardly compresses)", async () => {
    expect(await inspect(docxPackage({ relationships: relationship(HYPERLINK, "https://example.org/a?b>c") }))).toBeNull();
    expect(await inspect(zipPackage([...docxParts(), { name: "word/media/image1.jpeg", data: randomBytes(3 * MB) }]))).toBeNull();
  });

  it.each([
    ["a macro-enabled main part and a VBA project under an innocent name", "hostile/docx-macro-by-content-type.docx", "macros"],
    ["a template attached from a remote address", "hostile/docx-remote-template.docx", "external-content"],
    ["a part that inflates from 1 MB to 1 GiB", "hostile/docx-zip-bomb.docx", "unpacks-too-large"],
  ])("refuses %s", async (_label, name, reason) => {
    expect(await inspectDocx(fixture(name), LIMITS)).toBe(reason);
  });

  it.each([
    ["a VBA project declared by a Default for its extension", '<Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/>'],
    ["VBA data", '<Override PartName="/word/vbaData.xml" ContentType="application/vnd.ms-word.vbaData+xml"/>'],
    ["an embedded macro sheet", '<Override PartName="/word/embeddings/sheet.xml" ContentType="application/vnd.ms-excel.macrosheet+xml"/>'],
    ["an ActiveX control", '<Override PartName="/word/activeX/activeX1.xml" ContentType="application/vnd.ms-office.activeX+xml"/>'],
    ["a content type hidden behind character references", '<Override PartName="/word/x.bin" ContentType="application/vnd.ms-office.&#x76;ba&#80;roject"/>'],
  ])("refuses %s, whatever the part is called", async (_label, types) => {
    expect(await inspect(docxPackage({ types }))).toBe("macros");
  });

  it("refuses a VBA project reached by its relationship type under a plain content type", async () => {
    const relationships = relationship("http://schemas.microsoft.com/office/2006/relationships/vbaProject", "media/image1.png", "");
    expect(await inspect(docxPackage({ relationships }))).toBe("macros");
  });

  it("reads content types written in UTF-16, with or without a byte order mark", async () => {
    const types = '<Override PartName="/word/x.bin" ContentType="application/vnd.ms-office.vbaProject"/>';
    const contentTypes = docxParts({ types })[0]!.data as string;
    const utf16 = contentTypes.replace('encoding="UTF-8"', 'encoding="UTF-16"');
    for (const data of [Buffer.from(`\uFEFF${utf16}`, "utf16le"), Buffer.from(utf16, "utf16le"), Buffer.from(`\uFEFF${utf16}`, "utf16le").swap16()]) {
      expect(await inspect(withPart("[Content_Types].xml", (part) => ({ ...part, data }), docxParts({ types })))).toBe("macros");
    }
  });

  it.each([
    ["a remote template whose address holds a '>'", relationship(ATTACHED_TEMPLATE, "https://attacker.example/t.dotm?a>b")],
    ["a remote template on a network share", relationship(ATTACHED_TEMPLATE, "\\\\attacker.example\\share\\t.dotm")],
    ["a remote template named by address without TargetMode", relationship(ATTACHED_TEMPLATE, "https://attacker.example/t.dotm", "")],
    ["a linked image", relationship("http://schemas.openxmlformats.org/officeDocument/2006/relationships/image", "https://attacker.example/pixel.png")],
    ["a template after a comment holding a quote", `<!-- it's here -->${relationship(ATTACHED_TEMPLATE, "https://attacker.example/t.dotm")}`],
  ])("refuses %s", async (_label, relationships) => {
    expect(await inspect(docxPackage({ relationships }))).toBe("external-content");
  });

  it("refuses a package whose XML it cannot follow rather than guess", async () => {
    const doctype = '<!DOCTYPE r [<!ENTITY t "External">]>';
    expect(await inspect(withPart("word/_rels/document.xml.rels", (part) => ({ ...part, data: (part.data as string).replace("<Relationships", `${doctype}<Relationships`) })))).toBe("malformed");
    expect(await inspect(docxPackage({ relationships: `<Relationship Id="rId9" Target="x' TargetMode="External"/>` }))).toBe("malformed");
    const latin1 = (part: ZipPart) => ({ ...part, data: (part.data as string).replace("UTF-8", "ISO-8859-1") });
    expect(await inspect(withPart("[Content_Types].xml", latin1))).toBe("malformed");
    const twice = docxParts();
    expect(await inspect(zipPackage([...twice, { ...twice[0]!, name: "[CONTENT_TYPES].XML", data: docxParts({ types: '<Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/>' })[0]!.data }]))).toBe("malformed");
  });

  it("refuses a part that inflates more than the ratio allows, under the total", async () => {
    const zeros = { name: "word/media/image1.bin", data: Buffer.alloc(20 * MB) };
    expect(await inspect(zipPackage([...docxParts(), zeros]))).toBe("unpacks-too-large");
    expect(await inspect(zipPackage([...docxParts(), zeros]), { ...LIMITS, inflateRatioMax: 2000 })).toBeNull();
  });

  it("refuses a total over the setting, and a part that inflates past the size it declares", async () => {
    const text = { name: "word/media/image1.bin", data: Buffer.alloc(3 * MB, "a") };
    expect(await inspect(zipPackage([...docxParts(), text]), { ...LIMITS, unpackedMaxBytes: 2 * MB, inflateRatioMax: 10_000 })).toBe("unpacks-too-large");
    expect(await inspect(zipPackage([...docxParts(), { ...text, data: Buffer.alloc(20 * MB), declaredSize: 1000 }]))).toBe("unpacks-too-large");
    expect(await inspect(zipPackage([...docxParts(), { ...text, declaredSize: 4 * MB }]), { ...LIMITS, inflateRatioMax: 10_000 })).toBe("malformed");
  });
});

describe("a Word 2007 document's text, as the reading view parses it", () => {
  const TEXT_LIMITS = { ...LIMITS, documentMaxBytes: 1 * MB };
  const text = (bytes: number) => largeDocumentXml(bytes);
  const packageRelationships = (target: string, type = OFFICE_DOCUMENT) =>
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${type}" Target="${target}"/></Relationships>`;
  const STRICT_OFFICE_DOCUMENT = "http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument";
  const FOOTNOTES = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes";

  it("accepts a main part within the limit, and pictures beside it that it does not count", async () => {
    const parts = withPart("word/document.xml", (part) => ({ ...part, data: text(0.9 * MB) }));
    expect(await inspect(parts, TEXT_LIMITS)).toBeNull();
    const withPicture = zipPackage([...docxParts(), { name: "word/media/image1.jpeg", data: randomBytes(3 * MB) }]);
    expect(await inspect(withPicture, TEXT_LIMITS)).toBeNull();
  });

  it("refuses a main part that unpacks past the limit", async () => {
    expect(await inspect(withPart("word/document.xml", (part) => ({ ...part, data: text(1.1 * MB) })), TEXT_LIMITS)).toBe("text-too-large");
  });

  it.each([
    ["under another name", "word/main.xml", OFFICE_DOCUMENT, "word/main.xml"],
    ["by an absolute target in another case", "/Word/Main.XML", OFFICE_DOCUMENT, "word/main.xml"],
    ["by a target that climbs", "word/../text/body.xml", OFFICE_DOCUMENT, "text/body.xml"],
    ["by the strict namespace's relationship", "text/body.xml", STRICT_OFFICE_DOCUMENT, "text/body.xml"],
  ])("finds the main part %s through the package's relationship, beside a small word/document.xml", async (_label, target, type, partName) => {
    const parts = docxParts().map((part) => (part.name === "_rels/.rels" ? { ...part, data: packageRelationships(target, type) } : part));
    expect(await inspect(zipPackage([...parts, { name: partName, data: text(1.1 * MB) }]), TEXT_LIMITS)).toBe("text-too-large");
  });

  it("counts the notes the main part relates to, under any name, with the styles under their usual one", async () => {
    const relationships = `<Relationship Id="rId9" Type="${FOOTNOTES}" Target="notes/all.xml"/>`;
    const notes = zipPackage([...docxParts({ relationships }), { name: "word/notes/all.xml", data: text(0.6 * MB) }]);
    expect(await inspect(notes, TEXT_LIMITS)).toBeNull();
    const both = withPart("word/document.xml", (part) => ({ ...part, data: text(0.5 * MB) }), [...docxParts({ relationships }), { name: "word/notes/all.xml", data: text(0.6 * MB) }]);
    expect(await inspect(both, TEXT_LIMITS)).toBe("text-too-large");
    const styles = withPart("word/document.xml", (part) => ({ ...part, data: text(0.5 * MB) }), [...docxParts(), { name: "word/styles.xml", data: text(0.6 * MB) }]);
    expect(await inspect(styles, TEXT_LIMITS)).toBe("text-too-large");
  });
});

describe("Word 97 documents", () => {
  const inspectBytes = (bytes: Buffer) => inspectDoc(saved(bytes, "doc"));

  it("accepts a document without macros, and the smallest one a reader reads", async () => {
    expect(await inspectDoc(fixture("book.doc"))).toBeNull();
    const crafted = saved(wordDocument().bytes, "doc");
    expect(await inspectDoc(crafted)).toBeNull();
    // The writer makes real documents: what passes here is what the reading view reads.
    expect((await new WordExtractor().extract(crafted)).getBody()).toBe("Mañana en París\n");
  });

  it("accepts a document whose FAT needs a DIFAT sector", async () => {
    expect(await inspectBytes(compoundFile(wordDocumentParts(), { fatSectors: 110 }).bytes)).toBeNull();
  });

  it("accepts a writer's unbalanced tree of children, up to the bound", async () => {
    expect(await inspectBytes(compoundFile(wordDocumentParts({ extra: [siblings(400)] }), { balanced: false }).bytes)).toBeNull();
  });

  it("accepts a version 4 compound file (4096-byte sectors), which word-extractor reads too", async () => {
    const path = saved(compoundFile(wordDocumentParts(), { version: 4 }).bytes, "doc");
    expect(await inspectDoc(path)).toBeNull();
    expect((await new WordExtractor().extract(path)).getBody()).toBe("Mañana en París\n");
  });

  it.each([
    ["a version 3 header on 4096-byte sectors", 26, 3],
    ["a version 4 header whose directory count is wrong", 40, 7],
  ])("refuses %s as damaged", async (_label, at, value) => {
    const bytes = Buffer.from(compoundFile(wordDocumentParts(), { version: 4 }).bytes);
    bytes.writeUInt16LE(value, at);
    expect(await inspectBytes(bytes)).toBe("damaged");
  });

  it.each(brokenWordDocuments())("refuses %s as damaged", async (_label, bytes) => {
    expect(await inspectBytes(bytes)).toBe("damaged");
  });

  it.each([
    ["a Macros storage", [MACROS]],
    ["a storage named in another case", [{ ...MACROS, name: "MACROS" }]],
    ["a _VBA_PROJECT_CUR storage deep in an embedded object", [{ name: "ObjectPool", children: [{ name: "_1234", children: [{ name: "_VBA_PROJECT_CUR", children: [] }] }] }]],
  ])("finds %s in the directory's tree", async (_label, extra) => {
    expect(await inspectBytes(compoundFile(wordDocumentParts({ extra })).bytes)).toBe("macros");
  });

  it("is not fooled by the name as text, nor by a stream of that name", async () => {
    expect(await inspectBytes(compoundFile(wordDocumentParts({ extra: [{ name: "Notes", data: Buffer.from("Macros\0_VBA_PROJECT_CUR", "utf16le") }] })).bytes)).toBeNull();
    expect(await inspectBytes(compoundFile(wordDocumentParts({ extra: [{ name: "Macros", data: Buffer.alloc(10) }] })).bytes)).toBeNull();
  });

  it("calls a sound compound file without a Word 97 document in it unreadable", async () => {
    expect(await inspectBytes(compoundFile([{ name: "Workbook", data: Buffer.alloc(5000) }]).bytes)).toBe("malformed");
    const word95 = wordDocument();
    word95.bytes.writeUInt16LE(0x0068, word95.sectorAt(word95.streams.get("WordDocument")!.sectors[0]!) + 2);
    expect(await inspectBytes(word95.bytes)).toBe("malformed");
  });
});
