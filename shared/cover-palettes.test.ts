import { describe, expect, it } from "vitest";
import { DEFAULT_COVER_PALETTE, GENRE_COVER_PALETTES, coverPaletteOf } from "./cover-palettes.ts";
import { GENRE_KEYS } from "./genres.ts";

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
};

describe("cover palettes", () => {
  it("has a palette for every genre, and one for a book without a genre", () => {
    expect(Object.keys(GENRE_COVER_PALETTES).sort()).toEqual([...GENRE_KEYS].sort());
    expect(coverPaletteOf(null)).toBe(DEFAULT_COVER_PALETTE);
    expect(coverPaletteOf("misterio")).toBe(GENRE_COVER_PALETTES.misterio);
  });

  it("keeps the title at 7:1 or more against the background, and the accent at 3:1", () => {
    for (const palette of [...Object.values(GENRE_COVER_PALETTES), DEFAULT_COVER_PALETTE]) {
      expect(contrast(palette.ink, palette.background)).toBeGreaterThanOrEqual(7);
      expect(contrast(palette.accent, palette.background)).toBeGreaterThanOrEqual(3);
    }
  });

  it("gives each genre its own background", () => {
    const backgrounds = Object.values(GENRE_COVER_PALETTES).map((palette) => palette.background);
    expect(new Set(backgrounds).size).toBe(backgrounds.length);
  });
});
