import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { fixture } from "../../test/helpers/book-fixtures.ts";
import { STORED_COVER_SIZES } from "./cover-images.ts";
import { PdfUnreadableError, readPdfFirstPage } from "./pdf-first-page.ts";

const folder = mkdtempSync(join(tmpdir(), "plume-pdf-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A PDF of `pages` pages, each with a line of text in a standard font (no font embedded). */
function writeTextPdf(name: string, pages: number, mediaBox = "0 0 612 792"): string {
  const objects = ["<< /Type /Catalog /Pages 2 0 R >>", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>"];
  const kids: number[] = [];
  for (let page = 1; page <= pages; page += 1) {
    const content = `BT /F1 48 Tf 72 700 Td (Chapter ${page}) Tj ET`;
    kids.push(objects.length + 1);
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [${mediaBox}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${objects.length + 2} 0 R >>`);
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

const SIZES = STORED_COVER_SIZES;
const widest = (covers: Array<{ width: number; webp: Buffer }> | null) => covers!.find(({ width }) => width === 600)!.webp;

describe("readPdfFirstPage", () => {
  it("draws the fixture's first page as every stored width, 2:3 WebP, not blank", async () => {
    const { pageCount, covers } = await readPdfFirstPage(fixture("book.pdf"), SIZES);
    expect(pageCount).toBe(1);
    expect(covers!.map(({ width }) => width)).toEqual([200, 400, 600]);
    for (const { width, webp } of covers!) {
      const image = sharp(webp);
      expect(await image.metadata()).toMatchObject({ format: "webp", width, height: width * 1.5 });
      // A white page has no variance; the fixture's title and paragraphs give it some.
      const { channels } = await image.stats();
      expect(channels[0]!.stdev).toBeGreaterThan(10);
    }
  });

  it("keeps the page's top, where a title page has its title", async () => {
    const { covers } = await readPdfFirstPage(writeTextPdf("one-line.pdf", 1), SIZES);
    // Letter is wider than 2:3: the page fills the box's height, its sides cut, and its line (72 pt
    // under the top) stays in the upper sixth.
    const band = async (top: number) =>
      (await sharp(widest(covers)).extract({ left: 0, top, width: 600, height: 150 }).raw().toBuffer()).reduce((min, value) => Math.min(min, value), 255);
    expect(await band(0)).toBeLessThan(64);
    expect(await band(750)).toBeGreaterThan(250);
  });

  it("counts the pages without drawing when no cover is wanted", async () => {
    const answer = await readPdfFirstPage(writeTextPdf("five.pdf", 5), null);
    expect(answer).toEqual({ pageCount: 5, covers: null });
  });

  it("draws a standard font from pdf.js's own font data, with nothing installed", async () => {
    const { covers } = await readPdfFirstPage(writeTextPdf("one.pdf", 1), SIZES);
    const { channels } = await sharp(widest(covers)).stats();
    expect(channels[0]!.min).toBeLessThan(64);
  });

  it("draws a page too narrow to fill the box within the area cap, on white, at every width", async () => {
    const { covers } = await readPdfFirstPage(writeTextPdf("sliver.pdf", 1, "0 0 2 4000"), SIZES);
    for (const { width, webp } of covers!) expect(await sharp(webp).metadata()).toMatchObject({ width, height: width * 1.5 });
  });

  it("answers a PdfUnreadableError for a file pdf.js cannot open", async () => {
    await expect(readPdfFirstPage(fixture("hostile/header-only.pdf"), SIZES)).rejects.toBeInstanceOf(PdfUnreadableError);
    await expect(readPdfFirstPage(fixture("book.docx"), null)).rejects.toBeInstanceOf(PdfUnreadableError);
  });

  it("kills the render past its time cap", async () => {
    const started = performance.now();
    const attempt = readPdfFirstPage(fixture("book.pdf"), SIZES, { timeoutMs: 50, heapMegabytes: 160 });
    await expect(attempt).rejects.toThrow(/no answer within 50 ms/);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("ends the render process when its heap cap is exhausted, instead of growing the server", async () => {
    await expect(readPdfFirstPage(fixture("book.pdf"), SIZES, { timeoutMs: 20_000, heapMegabytes: 2 })).rejects.toBeInstanceOf(
      PdfUnreadableError,
    );
  });
});
