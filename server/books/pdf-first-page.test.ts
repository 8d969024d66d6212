import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { coverPaletteOf } from "../../shared/cover-palettes.ts";
import { fixture, illustratedPdf } from "../../test/helpers/book-fixtures.ts";
import { STORED_COVER_SIZES } from "./cover-images.ts";
import { type PdfCoverWanted, type PdfFirstPage, PdfUnreadableError, readPdfFirstPage } from "./pdf-first-page.ts";

const folder = mkdtempSync(join(tmpdir(), "plume-pdf-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const writeFile = (name: string, bytes: Uint8Array) => {
  const path = join(folder, name);
  writeFileSync(path, bytes);
  return path;
};

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

const WANTED: PdfCoverWanted = {
  sizes: STORED_COVER_SIZES,
  typographic: { title: "Mañana en París", authorName: "Ana García", palette: coverPaletteOf("novela"), heightRatio: STORED_COVER_SIZES.heightRatio },
};
const widest = (cover: PdfFirstPage["cover"]) => cover!.widths.find(({ width }) => width === 600)!.webp;

/** Every stored width, a 2:3 WebP of its width. */
async function expectEveryWidth(cover: PdfFirstPage["cover"]) {
  expect(cover!.widths.map(({ width }) => width)).toEqual([200, 400, 600]);
  for (const { width, webp } of cover!.widths) expect(await sharp(webp).metadata()).toMatchObject({ format: "webp", width, height: width * 1.5 });
}

describe("readPdfFirstPage", () => {
  it("draws a first page that is a picture as the cover, at every stored width", async () => {
    const { pageCount, cover } = await readPdfFirstPage(writeFile("illustrated.pdf", await illustratedPdf()), WANTED);
    expect(pageCount).toBe(2);
    expect(cover!.source).toBe("first-page");
    await expectEveryWidth(cover);
    // The picture's dusk, not the genre's colour: its top is the fixture cover's deep violet.
    const [r, g, b] = await sharp(widest(cover)).extract({ left: 300, top: 10, width: 1, height: 1 }).raw().toBuffer();
    expect(b! - g!).toBeGreaterThan(30);
    expect(r! + g! + b!).toBeLessThan(400);
  });

  it("gives a PDF whose first page is body text (the fixture) the typographic cover, in the genre's colours", async () => {
    const { pageCount, cover } = await readPdfFirstPage(fixture("book.pdf"), WANTED);
    expect(pageCount).toBe(1);
    expect(cover!.source).toBe("generated");
    await expectEveryWidth(cover);
    // Below the author's name, inside the frame: the genre's background, within WebP's loss.
    const drawn = [...(await sharp(widest(cover)).extract({ left: 300, top: 860, width: 1, height: 1 }).removeAlpha().raw().toBuffer())];
    const background = coverPaletteOf("novela").background.match(/[0-9a-f]{2}/g)!.map((hex) => parseInt(hex, 16));
    drawn.forEach((channel, index) => expect(Math.abs(channel - background[index]!)).toBeLessThan(8));
  });

  it("counts the pages without drawing when no cover is wanted", async () => {
    const answer = await readPdfFirstPage(writeTextPdf("five.pdf", 5), null);
    expect(answer).toEqual({ pageCount: 5, cover: null });
  });

  it("draws a page too narrow to fill the box within the area cap, on white, at every width", async () => {
    const { cover } = await readPdfFirstPage(writeTextPdf("sliver.pdf", 1, "0 0 2 4000"), WANTED);
    await expectEveryWidth(cover);
  });

  it("answers a PdfUnreadableError for a file pdf.js cannot open", async () => {
    await expect(readPdfFirstPage(fixture("hostile/header-only.pdf"), WANTED)).rejects.toBeInstanceOf(PdfUnreadableError);
    await expect(readPdfFirstPage(fixture("book.docx"), null)).rejects.toBeInstanceOf(PdfUnreadableError);
  });

  it("kills the render past its time cap", async () => {
    const started = performance.now();
    const attempt = readPdfFirstPage(fixture("book.pdf"), WANTED, { timeoutMs: 50, heapMegabytes: 160 });
    await expect(attempt).rejects.toThrow(/no answer within 50 ms/);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("ends the render process when its heap cap is exhausted, instead of growing the server", async () => {
    await expect(readPdfFirstPage(fixture("book.pdf"), WANTED, { timeoutMs: 20_000, heapMegabytes: 2 })).rejects.toBeInstanceOf(
      PdfUnreadableError,
    );
  });
});
