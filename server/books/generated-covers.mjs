// The typographic cover Plume makes for a Word book (docs/product.md#covers): title and author in
// Noto Serif on the genre's colour. The font's files come with the npm package and are registered
// here by path, so the cover looks the same on a machine with no fonts installed at all
// (docs/decisions/0031-covers-for-every-book.md). Plain JavaScript, drawn only in the cover-drawing
// process (cover-drawing-process.mjs), which is started by path with no loader: @napi-rs/canvas crashed
// the whole server when covers were encoded at once in its process
// (docs/decisions/0052-cover-drawing-apart-from-the-server.md). The server sends the palette and sizes.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { GlobalFonts, createCanvas } from "@napi-rs/canvas";

const FONT_FILES = join(dirname(createRequire(import.meta.url).resolve("@fontsource/noto-serif/package.json")), "files");
/** The scripts the bundled font covers; a character of another script is drawn as the font's empty box. */
const SUBSETS = ["latin", "latin-ext", "vietnamese", "greek", "greek-ext", "cyrillic", "cyrillic-ext"];
const FACES = [
  { weight: 400, style: "normal" },
  { weight: 700, style: "normal" },
  { weight: 400, style: "italic" },
];

/** @param {string} subset */
const familyOf = (subset) => `Plume Cover Serif ${subset}`;
// One family per subset file, listed in turn: the canvas takes each character from the first that has it.
const FAMILIES = SUBSETS.map((subset) => `"${familyOf(subset)}"`).join(", ");

let registered = false;
function registerFonts() {
  if (registered) return;
  for (const subset of SUBSETS) {
    for (const { weight, style } of FACES) {
      const path = join(FONT_FILES, `noto-serif-${subset}-${weight}-${style}.woff2`);
      if (!GlobalFonts.registerFromPath(path, familyOf(subset))) throw new Error(`The cover font ${path} could not be registered`);
    }
  }
  registered = true;
}

/** The cover is laid out on a 600-px-wide design, its height from the stored ratio, and scaled to each width. */
export const DESIGN_WIDTH = 600;
const MARGIN = 56;
const TEXT_WIDTH = DESIGN_WIDTH - 2 * MARGIN;
const TITLE_TOP = 170;
const TITLE_BOTTOM = 690;
const TITLE_SIZES = [64, 56, 48, 42, 36, 32, 28];
const AUTHOR_SIZE = 28;
const TITLE_MAX_LINES = 8;

/**
 * @param {number} size
 * @param {400 | 700} weight
 * @param {"normal" | "italic"} [style]
 */
const fontOf = (size, weight, style = "normal") => `${style === "italic" ? "italic " : ""}${weight} ${size}px ${FAMILIES}`;

/**
 * Breaks a word too wide for a line into pieces that fit, by character (titles in scripts without spaces too).
 * @param {import("@napi-rs/canvas").SKRSContext2D} context
 * @param {string} word
 * @param {number} width
 * @returns {string[]}
 */
function splitLongWord(context, word, width) {
  /** @type {string[]} */
  const pieces = [];
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

/**
 * Greedy line breaking at spaces, with the context's current font.
 * @param {import("@napi-rs/canvas").SKRSContext2D} context
 * @param {string} text
 * @param {number} width
 * @returns {string[]}
 */
export function wrapText(context, text, width) {
  /** @type {string[]} */
  const lines = [];
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

/**
 * The title's lines at the largest size that fits the title's box; the smallest size, cut with an ellipsis, otherwise.
 * @param {import("@napi-rs/canvas").SKRSContext2D} context
 * @param {string} title
 * @returns {{ size: number, lines: string[] }}
 */
function layoutTitle(context, title) {
  const words = title.split(/\s+/);
  for (const size of TITLE_SIZES) {
    context.font = fontOf(size, 700);
    // A smaller size before a word is broken in two; only the smallest breaks words.
    if (size !== TITLE_SIZES.at(-1) && words.some((word) => context.measureText(word).width > TEXT_WIDTH)) continue;
    const lines = wrapText(context, title, TEXT_WIDTH);
    if (lines.length <= TITLE_MAX_LINES && lines.length * size * 1.2 <= TITLE_BOTTOM - TITLE_TOP) return { size, lines };
  }
  const size = TITLE_SIZES[TITLE_SIZES.length - 1];
  context.font = fontOf(size, 700);
  const fitting = Math.min(TITLE_MAX_LINES, Math.floor((TITLE_BOTTOM - TITLE_TOP) / (size * 1.2)));
  const lines = wrapText(context, title, TEXT_WIDTH).slice(0, fitting);
  lines[fitting - 1] = withEllipsis(context, lines[fitting - 1] ?? "", TEXT_WIDTH);
  return { size, lines };
}

/**
 * The text shortened until it and an ellipsis fit the width.
 * @param {import("@napi-rs/canvas").SKRSContext2D} context
 * @param {string} text
 * @param {number} width
 */
function withEllipsis(context, text, width) {
  let kept = text;
  while (kept && context.measureText(`${kept}…`).width > width) kept = Array.from(kept).slice(0, -1).join("");
  return `${kept.trimEnd()}…`;
}

/**
 * @typedef {object} CoverDrawing
 * @property {string} title
 * @property {string | null} authorName The author's display name; null for an author without a name, whose cover shows none.
 * @property {{ background: string, ink: string, accent: string }} palette The genre's colours (shared/cover-palettes.ts).
 * @property {number} heightRatio Height ÷ width.
 */

/**
 * Draws the cover `width` px wide: laid out on the design's width and scaled as it is drawn, so every
 * width is drawn from the text itself and looks the same.
 * @param {CoverDrawing} drawing
 * @param {number} [width]
 * @returns {import("@napi-rs/canvas").Canvas}
 */
export function drawGeneratedCover({ title, authorName, palette, heightRatio }, width = DESIGN_WIDTH) {
  registerFonts();
  const height = Math.round(DESIGN_WIDTH * heightRatio);
  const canvas = createCanvas(width, Math.round(width * heightRatio));
  const context = canvas.getContext("2d");
  context.scale(width / DESIGN_WIDTH, width / DESIGN_WIDTH);
  context.fillStyle = palette.background;
  context.fillRect(0, 0, DESIGN_WIDTH, height);
  // A fine inner frame and a band at the foot: the look of Plume's generated covers.
  context.strokeStyle = palette.accent;
  context.lineWidth = 2;
  context.strokeRect(24, 24, DESIGN_WIDTH - 48, height - 48);
  context.fillStyle = palette.accent;
  context.fillRect(24, height - 140, DESIGN_WIDTH - 48, 2);

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
    context.fillText(rest.length ? withEllipsis(context, firstLine, TEXT_WIDTH) : firstLine, MARGIN, height - 80);
  }
  return canvas;
}

/**
 * The cover at every stored width, as WebP. One encode at a time: @napi-rs/canvas crashed the process
 * when covers with text were encoded at once on libuv's threads (docs/decisions/0052).
 * @param {CoverDrawing} drawing
 * @param {{ widths: readonly number[], webpQuality: number }} sizes
 * @returns {Promise<Array<{ width: number, webp: Buffer }>>}
 */
export async function encodeGeneratedCover(drawing, { widths, webpQuality }) {
  const drawn = [];
  for (const width of widths) drawn.push({ width, webp: await drawGeneratedCover(drawing, width).encode("webp", webpQuality) });
  return drawn;
}
