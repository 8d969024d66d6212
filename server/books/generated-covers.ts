import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { type Canvas, type SKRSContext2D, GlobalFonts, createCanvas } from "@napi-rs/canvas";
import { coverPaletteOf } from "../../shared/cover-palettes.ts";
import { COVER_HEIGHT_RATIO, WIDEST_COVER_WIDTH } from "../../shared/covers.ts";
import type { GenreKey } from "../../shared/genres.ts";
import type { CoverSizes, DrawnCoverWidth } from "./pdf-first-page.ts";

/**
 * The typographic cover Plume makes for a Word book (docs/product.md#covers): title and author in
 * Noto Serif on the genre's colour. The font's files come with the npm package and are registered
 * here by path, so the cover looks the same on a machine with no fonts installed at all
 * (docs/decisions/0031-covers-for-every-book.md).
 */

const FONT_FILES = join(dirname(createRequire(import.meta.url).resolve("@fontsource/noto-serif/package.json")), "files");
/** The scripts the bundled font covers; a character of another script is drawn as the font's empty box. */
const SUBSETS = ["latin", "latin-ext", "vietnamese", "greek", "greek-ext", "cyrillic", "cyrillic-ext"] as const;
const FACES = [
  { weight: 400, style: "normal" },
  { weight: 700, style: "normal" },
  { weight: 400, style: "italic" },
] as const;

const familyOf = (subset: string) => `Plume Cover Serif ${subset}`;
// One family per subset file, listed in turn: the canvas takes each character from the first that has it.
const FAMILIES = SUBSETS.map((subset) => `"${familyOf(subset)}"`).join(", ");

let registered = false;
function registerFonts(): void {
  if (registered) return;
  for (const subset of SUBSETS) {
    for (const { weight, style } of FACES) {
      const path = join(FONT_FILES, `noto-serif-${subset}-${weight}-${style}.woff2`);
      if (!GlobalFonts.registerFromPath(path, familyOf(subset))) throw new Error(`The cover font ${path} could not be registered`);
    }
  }
  registered = true;
}

const WIDTH = WIDEST_COVER_WIDTH;
const HEIGHT = Math.round(WIDEST_COVER_WIDTH * COVER_HEIGHT_RATIO);
const MARGIN = 56;
const TEXT_WIDTH = WIDTH - 2 * MARGIN;
const TITLE_TOP = 170;
const TITLE_BOTTOM = 690;
const TITLE_SIZES = [64, 56, 48, 42, 36, 32, 28] as const;
const AUTHOR_SIZE = 28;
const TITLE_MAX_LINES = 8;

const fontOf = (size: number, weight: 400 | 700, style: "normal" | "italic" = "normal") =>
  `${style === "italic" ? "italic " : ""}${weight} ${size}px ${FAMILIES}`;

/** Breaks a word too wide for a line into pieces that fit, by character (titles in scripts without spaces too). */
function splitLongWord(context: SKRSContext2D, word: string, width: number): string[] {
  const pieces: string[] = [];
  let piece = "";
  for (const character of Array.from(word)) {
    if (piece && context.measureText(piece + character).width > width) {
      pieces.push(piece);
      piece = character;
    } else {
      piece += character;
    }
  }
  return piece ? [...pieces, piece] : pieces;
}

/** Greedy line breaking at spaces, with the context's current font. */
export function wrapText(context: SKRSContext2D, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (context.measureText(candidate).width <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    const pieces = splitLongWord(context, word, width);
    line = pieces.pop() ?? "";
    lines.push(...pieces);
  }
  return line ? [...lines, line] : lines;
}

/** The title's lines at the largest size that fits the title's box; the smallest size, cut with an ellipsis, otherwise. */
function layoutTitle(context: SKRSContext2D, title: string): { size: number; lines: string[] } {
  const words = title.split(/\s+/);
  for (const size of TITLE_SIZES) {
    context.font = fontOf(size, 700);
    // A smaller size before a word is broken in two; only the smallest breaks words.
    if (size !== TITLE_SIZES.at(-1) && words.some((word) => context.measureText(word).width > TEXT_WIDTH)) continue;
    const lines = wrapText(context, title, TEXT_WIDTH);
    if (lines.length <= TITLE_MAX_LINES && lines.length * size * 1.2 <= TITLE_BOTTOM - TITLE_TOP) return { size, lines };
  }
  const size = TITLE_SIZES[TITLE_SIZES.length - 1]!;
  context.font = fontOf(size, 700);
  const fitting = Math.min(TITLE_MAX_LINES, Math.floor((TITLE_BOTTOM - TITLE_TOP) / (size * 1.2)));
  const lines = wrapText(context, title, TEXT_WIDTH).slice(0, fitting);
  lines[fitting - 1] = withEllipsis(context, lines[fitting - 1] ?? "", TEXT_WIDTH);
  return { size, lines };
}

/** The text shortened until it and an ellipsis fit the width. */
function withEllipsis(context: SKRSContext2D, text: string, width: number): string {
  let kept = text;
  while (kept && context.measureText(`${kept}…`).width > width) kept = Array.from(kept).slice(0, -1).join("");
  return `${kept.trimEnd()}…`;
}

export interface GeneratedCoverText {
  title: string;
  /** The author's display name; null for an author without a name, whose cover shows none. */
  authorName: string | null;
  genre: GenreKey | null;
}

/**
 * Draws the cover `width` px wide: laid out at the widest stored size and scaled as it is drawn, so
 * every width is drawn from the text itself and looks the same.
 */
export function drawGeneratedCover({ title, authorName, genre }: GeneratedCoverText, width: number = WIDTH): Canvas {
  registerFonts();
  const palette = coverPaletteOf(genre);
  const canvas = createCanvas(width, Math.round(width * COVER_HEIGHT_RATIO));
  const context = canvas.getContext("2d");
  context.scale(width / WIDTH, width / WIDTH);
  context.fillStyle = palette.background;
  context.fillRect(0, 0, WIDTH, HEIGHT);
  // A fine inner frame and a band at the foot: the look of Plume's generated covers.
  context.strokeStyle = palette.accent;
  context.lineWidth = 2;
  context.strokeRect(24, 24, WIDTH - 48, HEIGHT - 48);
  context.fillStyle = palette.accent;
  context.fillRect(24, HEIGHT - 140, WIDTH - 48, 2);

  context.textBaseline = "alphabetic";
  context.textAlign = "left";
  context.font = fontOf(18, 700);
  context.fillStyle = palette.accent;
  context.letterSpacing = "6px";
  context.fillText("PLUME", MARGIN, 96);
  context.letterSpacing = "0px";

  const { size, lines } = layoutTitle(context, title.trim() || "—");
  context.font = fontOf(size, 700);
  context.fillStyle = palette.ink;
  const lineHeight = size * 1.2;
  lines.forEach((line, index) => context.fillText(line, MARGIN, TITLE_TOP + size + index * lineHeight));
  context.fillStyle = palette.accent;
  context.fillRect(MARGIN, TITLE_TOP + size + (lines.length - 1) * lineHeight + 36, 64, 4);

  if (authorName) {
    context.font = fontOf(AUTHOR_SIZE, 400, "italic");
    context.fillStyle = palette.ink;
    const [firstLine = "", ...rest] = wrapText(context, authorName, TEXT_WIDTH);
    context.fillText(rest.length ? withEllipsis(context, firstLine, TEXT_WIDTH) : firstLine, MARGIN, HEIGHT - 80);
  }
  return canvas;
}

/** The cover at every stored width, encoded as stored: sharp is not loaded for it (docs/decisions/0045). */
export function encodeGeneratedCover(text: GeneratedCoverText, { widths, webpQuality }: CoverSizes): Promise<DrawnCoverWidth[]> {
  return Promise.all(widths.map(async (width) => ({ width, webp: await drawGeneratedCover(text, width).encode("webp", webpQuality) })));
}
