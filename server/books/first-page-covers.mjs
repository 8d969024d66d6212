// A PDF's first page as its cover (docs/product.md#covers): drawn at each stored width, and first
// judged on its narrowest drawing, the one a book's card shows, where covers are seen most. A
// manuscript's first page of body text, black on white in small type, reads there as an almost white
// sheet: such a book gets Plume's typographic cover instead
// (docs/decisions/0108-text-first-pdf-covers.md). Plain JavaScript, for the cover-drawing process
// (cover-drawing-process.mjs), which is started by path with no loader.
import { createCanvas } from "@napi-rs/canvas";

/**
 * The page, drawn whole, never exceeds this area, whatever its declared size or shape: a page too
 * narrow or too short to fill a cover's box within it is drawn smaller, on white.
 */
const MAX_PAGE_PIXELS = 4_000_000;

/**
 * The page is looked at in square cells of this many pixels of its card-width drawing (200 px wide):
 * the detail a card shows at a glance. Body text, a few pixels tall at that width, averages out into
 * a light grey within a cell; a picture, a large title or a band of colour keeps its strength.
 */
export const GLANCE_CELL_PIXELS = 5;

/**
 * A cell is strong when one of its colour channels differs from the page's paper by at least this
 * much (of 255): the ink of a large letter, the tones of a picture, a band of colour.
 */
export const STRONG_CONTRAST = 96;

/**
 * The share of strong cells from which the first page works as a cover. Measured on card-width
 * drawings (docs/decisions/0108): pages of body text 0–0.3 %, a small logo above body text 0.8 %, a
 * two-line title page in 40-pt bold 1.4 % and in 56-pt 2.5 %, a picture over half a page 25 %.
 */
export const MIN_STRONG_SHARE = 0.01;

/**
 * A page whose median colour is this far from white (in its farthest channel, of 255) is no sheet of
 * paper but a picture or a coloured design, seen as such at a glance: it works as a cover whatever
 * stands out on it. A cream or grey sheet, or a scan's yellowed paper under its text, is nearer.
 */
export const COLOURED_GROUND = 128;

/**
 * Each cell's mean colour, as red, green and blue arrays.
 * @param {{ data: Uint8ClampedArray, width: number, height: number }} image RGBA pixels
 */
function cellColours({ data, width, height }) {
  const across = Math.floor(width / GLANCE_CELL_PIXELS);
  const down = Math.floor(height / GLANCE_CELL_PIXELS);
  const channels = [new Float64Array(across * down), new Float64Array(across * down), new Float64Array(across * down)];
  const pixelsPerCell = GLANCE_CELL_PIXELS * GLANCE_CELL_PIXELS;
  for (let y = 0; y < down * GLANCE_CELL_PIXELS; y += 1) {
    const row = Math.floor(y / GLANCE_CELL_PIXELS) * across;
    for (let x = 0; x < across * GLANCE_CELL_PIXELS; x += 1) {
      const cell = row + Math.floor(x / GLANCE_CELL_PIXELS);
      const at = (y * width + x) * 4;
      for (let channel = 0; channel < 3; channel += 1) channels[channel][cell] += data[at + channel];
    }
  }
  for (const values of channels) for (let cell = 0; cell < values.length; cell += 1) values[cell] /= pixelsPerCell;
  return channels;
}

/** @param {Float64Array} values */
const medianOf = (values) => Float64Array.from(values).sort()[Math.floor(values.length / 2)];

/**
 * How the first page, drawn at card width, reads at a glance: how far its paper (its median colour)
 * is from white, and the share of its cells (0–1) that stand out from that paper.
 * @param {{ data: Uint8ClampedArray, width: number, height: number }} image RGBA pixels of the card-width drawing
 * @returns {{ groundFromWhite: number, strongShare: number }}
 */
export function glanceOf(image) {
  const channels = cellColours(image);
  const cells = channels[0].length;
  if (cells === 0) return { groundFromWhite: 0, strongShare: 0 };
  const paper = channels.map(medianOf);
  let strong = 0;
  for (let cell = 0; cell < cells; cell += 1) {
    if (channels.some((values, channel) => Math.abs(values[cell] - paper[channel]) >= STRONG_CONTRAST)) strong += 1;
  }
  return { groundFromWhite: 255 - Math.min(...paper), strongShare: strong / cells };
}

/**
 * Whether the first page works as a cover on a card: a picture or a coloured design, or a sheet on
 * which enough stands out (a large title, an illustration); not a sheet of body text.
 * @param {{ groundFromWhite: number, strongShare: number }} glance
 */
export const worksAsCover = ({ groundFromWhite, strongShare }) => groundFromWhite >= COLOURED_GROUND || strongShare >= MIN_STRONG_SHARE;

/**
 * The page drawn to fill a `width` × `height` box, centred across and kept from its top down (where a
 * title page has its title).
 * @param {import("pdfjs-dist").PDFPageProxy} page
 * @param {number} width
 * @param {number} height
 */
export async function drawPage(page, width, height) {
  const natural = page.getViewport({ scale: 1 });
  let scale = Math.max(width / natural.width, height / natural.height);
  scale = Math.min(scale, Math.sqrt(MAX_PAGE_PIXELS / (natural.width * natural.height)));
  const viewport = page.getViewport({ scale, offsetX: (width - natural.width * scale) / 2, offsetY: 0 });
  const canvas = createCanvas(width, height);
  await page.render({ canvas, canvasContext: canvas.getContext("2d"), viewport, background: "#ffffff" }).promise;
  return canvas;
}

/**
 * The page as WebP at every width, each drawn from the page itself (sharper than scaling one image
 * down), if it works as a cover; null, with only its card width drawn, when it does not.
 * @param {import("pdfjs-dist").PDFPageProxy} page
 * @param {{ widths: readonly number[], heightRatio: number, webpQuality: number }} sizes
 * @returns {Promise<Array<{ width: number, webp: Buffer }> | null>}
 */
export async function firstPageCover(page, { widths, heightRatio, webpQuality }) {
  const heightOf = (/** @type {number} */ width) => Math.round(width * heightRatio);
  const [cardWidth, ...wider] = [...widths].sort((a, b) => a - b);
  const card = await drawPage(page, cardWidth, heightOf(cardWidth));
  if (!worksAsCover(glanceOf(card.getContext("2d").getImageData(0, 0, card.width, card.height)))) return null;
  const drawn = [{ width: cardWidth, webp: await card.encode("webp", webpQuality) }];
  for (const width of wider) drawn.push({ width, webp: await (await drawPage(page, width, heightOf(width))).encode("webp", webpQuality) });
  return drawn;
}
