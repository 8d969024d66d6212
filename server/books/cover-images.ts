import { randomUUID } from "node:crypto";
import type { Sharp, SharpOptions } from "sharp";
import { COVER_HEIGHT_RATIO, COVER_WIDTHS, WIDEST_COVER_WIDTH, coverVariantName, coverVariants } from "../../shared/covers.ts";
import type { FileStore } from "../storage/file-store.ts";
import type { CoverSizes, DrawnCoverWidth } from "./pdf-first-page.ts";
import { fileInvalidType } from "./upload-parser.ts";

// A 5 MB file can declare gigapixel dimensions (a decompression bomb): refuse it before decoding.
const MAX_INPUT_PIXELS = 40_000_000;
const COVERS_URL_PREFIX = "/covers/";

export const coverUrlOf = (name: string) => `${COVERS_URL_PREFIX}${name}`;

/** Every stored width of a cover, and how it is encoded, whoever draws it. */
export const STORED_COVER_SIZES: CoverSizes = { widths: COVER_WIDTHS, heightRatio: COVER_HEIGHT_RATIO, webpQuality: 80 };

/** The stored file of the cover a book points at, its widest (the URL names it); null for none. */
export function storedCoverName(coverUrl: string | null): string | null {
  return coverUrl?.startsWith(COVERS_URL_PREFIX) ? coverUrl.slice(COVERS_URL_PREFIX.length) : null;
}

/** Every stored file of the cover a book points at (none for a book without a stored cover). */
export function storedNamesOf(coverUrl: string | null): string[] {
  if (!coverUrl?.startsWith(COVERS_URL_PREFIX)) return [];
  return coverVariants(coverUrl).map(({ url }) => url.slice(COVERS_URL_PREFIX.length));
}

/**
 * sharp, loaded with the first cover an author uploads (its library weighs 25 MB resident, which a
 * server whose covers Plume drew never needs), without libvips's cache of recent images: each cover is
 * encoded once, and the cache kept up to 50 MB after it (docs/decisions/0045).
 */
async function imageOf(input: string | Uint8Array, options: SharpOptions): Promise<Sharp> {
  const { default: sharp } = await import("sharp");
  sharp.cache(false);
  return sharp(input, options);
}

interface EncodedCover {
  id: string;
  variants: Array<{ name: string; image: Buffer }>;
}

/** Every stored 2:3 WebP width of a source image, in memory (a cover's widths are tens of KB). */
async function encodeWidths(source: Sharp): Promise<EncodedCover> {
  const id = randomUUID();
  const variants = await Promise.all(
    COVER_WIDTHS.map(async (width) => ({
      name: coverVariantName(id, width),
      image: await source
        .clone()
        .resize(width, Math.round(width * COVER_HEIGHT_RATIO), { fit: "cover" })
        .webp({ quality: STORED_COVER_SIZES.webpQuality })
        .toBuffer(),
    })),
  );
  return { id, variants };
}

/** Writes the widths and returns the URL of the widest; if one write fails, none stays. */
async function writeWidths(store: FileStore, { id, variants }: EncodedCover): Promise<string> {
  try {
    await Promise.all(variants.map(({ name, image }) => store.write("covers", name, image)));
  } catch (error) {
    await Promise.all(variants.map(({ name }) => store.remove("covers", name)));
    throw error;
  }
  return coverUrlOf(coverVariantName(id, WIDEST_COVER_WIDTH));
}

/**
 * Renders an uploaded cover as the stored 2:3 WebP widths, its orientation applied and its metadata
 * (camera, GPS) dropped, and returns the URL of the widest. The browser then gets a cover near the
 * size it shows. An image that does not decode is refused as an invalid image, with nothing stored.
 * The image is an uploaded file's path, or an EPUB's cover read from its package.
 */
export async function storeCover(store: FileStore, image: string | Uint8Array): Promise<string> {
  const source = (await imageOf(image, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })).rotate();
  let encoded: EncodedCover;
  try {
    encoded = await encodeWidths(source);
  } catch {
    throw fileInvalidType("coverImage");
  }
  return writeWidths(store, encoded);
}

/**
 * Stores a cover Plume drew and encoded itself at every width of STORED_COVER_SIZES (a PDF's first
 * page in its render process, a generated cover with the canvas), as the same URLs as an uploaded one.
 */
export async function storeDrawnCover(store: FileStore, covers: DrawnCoverWidth[]): Promise<string> {
  const id = randomUUID();
  const variants = COVER_WIDTHS.map((width) => {
    const drawn = covers.find((cover) => cover.width === width);
    if (!drawn) throw new Error(`The drawn cover lacks its ${width} px width`);
    return { name: coverVariantName(id, width), image: drawn.webp };
  });
  return writeWidths(store, { id, variants });
}

export async function removeCover(store: FileStore, coverUrl: string | null): Promise<void> {
  await Promise.all(storedNamesOf(coverUrl).map((name) => store.remove("covers", name)));
}
