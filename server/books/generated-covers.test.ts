import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { GENRE_COVER_PALETTES, coverPaletteOf } from "../../shared/cover-palettes.ts";
import { COVER_HEIGHT_RATIO, COVER_WIDTHS, coverVariants } from "../../shared/covers.ts";
import { DiskStore } from "../storage/disk-store.ts";
import { type GeneratedCoverText, storeGeneratedCover } from "./covers-service.ts";
import { drawGeneratedCover } from "./generated-covers.mjs";

const uploads = mkdtempSync(join(tmpdir(), "plume-covers-"));

/** The widest width, losslessly, for exact colours (drawn here, in the test's process, one at a time). */
const drawPng = ({ title, authorName, genre }: GeneratedCoverText) =>
  drawGeneratedCover({ title, authorName, palette: coverPaletteOf(genre), heightRatio: COVER_HEIGHT_RATIO }).encode("png");
afterAll(() => rmSync(uploads, { recursive: true, force: true }));

/** The title's box of a drawn cover, as raw pixels. */
const titleBox = async (png: Buffer) =>
  sharp(png).extract({ left: 56, top: 170, width: 488, height: 400 }).raw().toBuffer();

const differingPixels = (a: Buffer, b: Buffer) => {
  let differing = 0;
  for (let at = 0; at < a.length; at += 4) if (a[at] !== b[at] || a[at + 1] !== b[at + 1] || a[at + 2] !== b[at + 2]) differing += 1;
  return differing;
};

describe("the generated cover", () => {
  it("is a 600 × 900 image on the genre's colour", async () => {
    const png = await drawPng({ title: "Mañana en París", authorName: "Élodie Martín", genre: "novela" });
    const { width, height } = await sharp(png).metadata();
    expect([width, height]).toEqual([600, 900]);
    const [r, g, b] = await sharp(png).extract({ left: 300, top: 820, width: 1, height: 1 }).raw().toBuffer();
    expect(`#${[r, g, b].map((channel) => channel!.toString(16).padStart(2, "0")).join("")}`).toBe(GENRE_COVER_PALETTES.novela.background);
  });

  it("draws the title: its box differs from a cover whose title is one dash", async () => {
    const blank = await titleBox(await drawPng({ title: "—", authorName: null, genre: "novela" }));
    const titled = await titleBox(await drawPng({ title: "Mañana en París", authorName: null, genre: "novela" }));
    expect(differingPixels(blank, titled)).toBeGreaterThan(5_000);
  });

  it("draws Cyrillic, Greek and Vietnamese from the bundled font, not as the missing-glyph box", async () => {
    // A character the bundled font lacks is drawn as its empty box: a title of those is the baseline.
    const missing = await titleBox(await drawPng({ title: "東東東東", authorName: null, genre: null }));
    for (const title of ["Жизнь", "Ὀδύσσεια", "Tiếng Việt"]) {
      const drawn = await titleBox(await drawPng({ title, authorName: null, genre: null }));
      expect(differingPixels(missing, drawn), title).toBeGreaterThan(2_000);
    }
  });

  it("fits a long title by shrinking and wrapping it inside the frame", async () => {
    const title = "An extraordinarily long title that goes on about the gardens of the mornings in the old town by the river ".repeat(3);
    const png = await drawPng({ title, authorName: "Ana García", genre: "historia" });
    // Nothing of the title is drawn past the right margin (inside the frame, left of x = 552).
    const margin = await sharp(png).extract({ left: 552, top: 120, width: 20, height: 560 }).removeAlpha().raw().toBuffer();
    const background = Buffer.from([0x4a, 0x34, 0x14]);
    for (let at = 0; at < margin.length; at += 3) expect(margin.subarray(at, at + 3).equals(background)).toBe(true);
  });

  it("is stored as the same WebP widths as an uploaded cover", async () => {
    const store = new DiskStore(uploads);
    const url = await storeGeneratedCover(store, { title: "Le jardin", authorName: "Ana", genre: "ficcion" });
    expect(url).toMatch(/^\/covers\/[0-9a-f-]{36}-600\.webp$/);
    const variants = coverVariants(url);
    expect(variants.map((variant) => variant.width)).toEqual([...COVER_WIDTHS]);
    for (const { url: variantUrl, width } of variants) {
      const metadata = await sharp(store.pathOf("covers", variantUrl.slice("/covers/".length))).metadata();
      expect([metadata.format, metadata.width, metadata.height]).toEqual(["webp", width, width * 1.5]);
    }
  });
});
