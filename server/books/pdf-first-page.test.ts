import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { fixture } from "../../test/helpers/book-fixtures.ts";
import { PdfUnreadableError, readPdfFirstPage } from "./pdf-first-page.ts";

const folder = mkdtempSync(join(tmpdir(), "plume-pdf-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A PDF of `pages` pages, each with a line of text in a standard font (no font embedded). */
function writeTextPdf(name: string, pages: number): string {
  const objects = ["<< /Type /Catalog /Pages 2 0 R >>", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>"];
  const kids: number[] = [];
  for (let page = 1; page <= pages; page += 1) {
    const content = `BT /F1 48 Tf 72 700 Td (Chapter ${page}) Tj ET`;
    kids.push(objects.length + 1);
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${objects.length + 2} 0 R >>`);
    objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages} >>`;
  let body = "%PDF-1.4\n";
  const offsets = objects.map((object, index) => {
    const offset = body.length;
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("")}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  const path = join(folder, name);
  writeFileSync(path, body, "latin1");
  return path;
}

const BOX = { width: 600, height: 900 };

describe("readPdfFirstPage", () => {
  it("draws the fixture's first page large enough to cover the box, and not blank", async () => {
    const { pageCount, png } = await readPdfFirstPage(fixture("book.pdf"), { ...BOX, render: true });
    expect(pageCount).toBe(1);
    const image = sharp(png!);
    const { width, height } = await image.metadata();
    expect(width).toBeGreaterThanOrEqual(600);
    expect(height).toBeGreaterThanOrEqual(900);
    // A white page has no variance; the fixture's title and paragraphs give it some.
    const { channels } = await image.stats();
    expect(channels[0]!.stdev).toBeGreaterThan(10);
  });

  it("counts the pages without drawing when no cover is wanted", async () => {
    const answer = await readPdfFirstPage(writeTextPdf("five.pdf", 5), { ...BOX, render: false });
    expect(answer).toEqual({ pageCount: 5, png: null });
  });

  it("draws a standard font from pdf.js's own font data, with nothing installed", async () => {
    const { png } = await readPdfFirstPage(writeTextPdf("one.pdf", 1), { ...BOX, render: true });
    const { channels } = await sharp(png!).stats();
    expect(channels[0]!.min).toBeLessThan(64);
  });

  it("answers a PdfUnreadableError for a file pdf.js cannot open", async () => {
    await expect(readPdfFirstPage(fixture("hostile/header-only.pdf"), { ...BOX, render: true })).rejects.toBeInstanceOf(PdfUnreadableError);
    await expect(readPdfFirstPage(fixture("book.docx"), { ...BOX, render: false })).rejects.toBeInstanceOf(PdfUnreadableError);
  });

  it("kills the render past its time cap", async () => {
    const started = performance.now();
    const attempt = readPdfFirstPage(fixture("book.pdf"), { ...BOX, render: true }, { timeoutMs: 50, heapMegabytes: 160 });
    await expect(attempt).rejects.toThrow(/no answer within 50 ms/);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("ends the render process when its heap cap is exhausted, instead of growing the server", async () => {
    await expect(readPdfFirstPage(fixture("book.pdf"), { ...BOX, render: true }, { timeoutMs: 20_000, heapMegabytes: 2 })).rejects.toBeInstanceOf(
      PdfUnreadableError,
    );
  });
});
