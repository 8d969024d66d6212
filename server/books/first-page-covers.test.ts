import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, describe, expect, it } from "vitest";
import { COVER_HEIGHT_RATIO, COVER_WIDTHS } from "../../shared/covers.ts";
import { fixture, illustratedPdf } from "../../test/helpers/book-fixtures.ts";
import { proseBook, textPdf } from "../../test/helpers/text-books.ts";
import { COLOURED_GROUND, MIN_STRONG_SHARE, drawPage, glanceOf, worksAsCover } from "./first-page-covers.mjs";
import { withPdfDocument } from "./pdf-documents.mjs";

const folder = mkdtempSync(join(tmpdir(), "plume-first-pages-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const CARD_WIDTH = COVER_WIDTHS[0];
const CARD_HEIGHT = CARD_WIDTH * COVER_HEIGHT_RATIO;

const written = (name: string, bytes: Uint8Array) => {
  const path = join(folder, name);
  writeFileSync(path, bytes);
  return path;
};

/** The first page's pixels as the cover-drawing process draws it for a card, here in the test's process. */
const cardDrawingOf = (path: string) =>
  withPdfDocument(path, async (document) =>
    (await drawPage(await document.getPage(1), CARD_WIDTH, CARD_HEIGHT)).getContext("2d").getImageData(0, 0, CARD_WIDTH, CARD_HEIGHT),
  );

const glanceAtFirstPage = async (path: string) => glanceOf(await cardDrawingOf(path));

/** A Letter title page: two lines of title in Times bold at `size` points, centred in the upper half. */
async function titlePagePdf(size: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const bold = await pdf.embedFont(StandardFonts.TimesRomanBold);
  const page = pdf.addPage([612, 792]);
  ["The Gardens", "of the Morning"].forEach((line, index) =>
    page.drawText(line, { x: (612 - bold.widthOfTextAtSize(line, size)) / 2, y: 560 - index * size * 1.2, size, font: bold }),
  );
  return pdf.save();
}

/** RGBA pixels of a card-width page filled with `background`, with `paint` drawing on top. */
function cardPixels(background: [number, number, number], paint: (set: (x: number, y: number, rgb: [number, number, number]) => void) => void) {
  const data = new Uint8ClampedArray(CARD_WIDTH * CARD_HEIGHT * 4);
  const set = (x: number, y: number, [r, g, b]: [number, number, number]) => data.set([r, g, b, 255], (y * CARD_WIDTH + x) * 4);
  for (let y = 0; y < CARD_HEIGHT; y += 1) for (let x = 0; x < CARD_WIDTH; x += 1) set(x, y, background);
  paint(set);
  return { data, width: CARD_WIDTH, height: CARD_HEIGHT };
}

describe("whether a PDF's first page works as its cover on a card", () => {
  it("does not for a manuscript's page of body text: the real fixture and a word processor's export", async () => {
    for (const path of [fixture("book.pdf"), written("manuscript.pdf", textPdf(proseBook(7).flat()))]) {
      const glance = await glanceAtFirstPage(path);
      expect(glance.strongShare, path).toBeLessThan(MIN_STRONG_SHARE / 3);
      expect(worksAsCover(glance), path).toBe(false);
    }
  });

  it("does for a page that is a picture, whatever little stands out on it", async () => {
    const glance = await glanceAtFirstPage(written("illustrated.pdf", await illustratedPdf()));
    expect(glance.groundFromWhite).toBeGreaterThanOrEqual(COLOURED_GROUND);
    expect(worksAsCover(glance)).toBe(true);
  });

  it("does for a title page in large type, not for one in the size of a chapter heading", async () => {
    expect(worksAsCover(await glanceAtFirstPage(written("title-56.pdf", await titlePagePdf(56))))).toBe(true);
    expect(worksAsCover(await glanceAtFirstPage(written("title-24.pdf", await titlePagePdf(24))))).toBe(false);
  });

  it("does for a picture over part of a white page", () => {
    const picture = cardPixels([255, 255, 255], (set) => {
      for (let y = 20; y < 150; y += 1) for (let x = 40; x < 160; x += 1) set(x, y, [40 + (x % 50), 80, 120 + (y % 60)]);
    });
    expect(glanceOf(picture).strongShare).toBeGreaterThan(0.2);
    expect(worksAsCover(glanceOf(picture))).toBe(true);
  });

  it("does for a coloured design: a dark ground with a small white title", () => {
    const design = cardPixels([26, 51, 89], (set) => {
      for (let y = 120; y < 124; y += 1) for (let x = 30; x < 110; x += 2) set(x, y, [255, 255, 255]);
    });
    expect(worksAsCover(glanceOf(design))).toBe(true);
  });

  it("measures text against its own paper: a scan's yellowed page of text does not, nor a blank page", () => {
    // Lines of small dark text every seven pixels down a scan's yellowed paper, itself farther from
    // white than STRONG_CONTRAST: measured against white, every cell would stand out.
    const scan = cardPixels([212, 194, 156], (set) => {
      for (let y = 10; y < CARD_HEIGHT - 10; y += 7) for (let x = 15; x < CARD_WIDTH - 15; x += 1) if ((x * 7 + y) % 3 === 0) set(x, y, [42, 34, 24]);
    });
    expect(glanceOf(scan).groundFromWhite).toBeLessThan(COLOURED_GROUND);
    expect(worksAsCover(glanceOf(scan))).toBe(false);
    expect(glanceOf(cardPixels([255, 255, 255], () => {}))).toEqual({ groundFromWhite: 0, strongShare: 0 });
  });
});

describe("the first page drawn for a cover", () => {
  /** A Letter page with one line of Times at its top, in a standard font (no font embedded). */
  async function oneLinePdf(mediaBox: [number, number] = [612, 792]): Promise<Uint8Array> {
    const pdf = await PDFDocument.create();
    const page = pdf.addPage(mediaBox);
    page.drawText("Chapter 1", { x: 72, y: mediaBox[1] - 92, size: 48, font: await pdf.embedFont(StandardFonts.TimesRoman) });
    return pdf.save();
  }

  it("keeps the page's top, where a title page has its title, in a standard font from pdf.js's own data", async () => {
    const { data } = await cardDrawingOf(written("one-line.pdf", await oneLinePdf()));
    // Letter is wider than 2:3: the page fills the box's height, its sides cut, and its line (72 pt
    // under the top) stays in the upper sixth.
    const darkestIn = (top: number, bottom: number) => {
      let darkest = 255;
      for (let at = top * CARD_WIDTH * 4; at < bottom * CARD_WIDTH * 4; at += 4) darkest = Math.min(darkest, data[at]!);
      return darkest;
    };
    expect(darkestIn(0, 50)).toBeLessThan(64);
    expect(darkestIn(250, CARD_HEIGHT)).toBeGreaterThan(250);
  });
});
