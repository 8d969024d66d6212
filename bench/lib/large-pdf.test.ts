import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SNIFF_BYTES, isBookOfType } from "../../server/books/file-types.ts";
import { writeLargePdf } from "./large-pdf.ts";

const folder = mkdtempSync(join(tmpdir(), "plume-large-pdf-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("writeLargePdf", () => {
  it.each([2_000, 99_999, 3 * 1024 * 1024 + 7])("writes exactly %i bytes the upload sniffer takes for a PDF", async (size) => {
    const path = join(folder, `${size}.pdf`);
    writeLargePdf(path, size);
    const bytes = readFileSync(path);
    expect(bytes.length).toBe(size);
    expect(await isBookOfType(path, size, bytes.subarray(0, SNIFF_BYTES), "pdf")).toBe(true);
  });

  it("points its cross-reference table and startxref at the objects' real offsets", () => {
    const path = join(folder, "xref.pdf");
    writeLargePdf(path, 50_000);
    const text = readFileSync(path).toString("latin1");
    const xrefOffset = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)![1]);
    expect(text.startsWith("xref\n", xrefOffset)).toBe(true);
    const offsets = [...text.slice(xrefOffset).matchAll(/^(\d{10}) 00000 n $/gm)].map((match) => Number(match[1]));
    expect(offsets).toHaveLength(4);
    offsets.forEach((offset, index) => expect(text.startsWith(`${index + 1} 0 obj\n`, offset)).toBe(true));
    const length = Number(/\/Length (\d+)/.exec(text)![1]);
    const streamStart = text.indexOf("stream\n") + "stream\n".length;
    expect(text.startsWith("\nendstream\n", streamStart + length)).toBe(true);
  });

  it("refuses a size too small for a PDF's frame", () => {
    expect(() => writeLargePdf(join(folder, "tiny.pdf"), 100)).toThrow();
  });
});
