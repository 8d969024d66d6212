import { randomUUID } from "node:crypto";
import type { Sharp, SharpOptions } from "sharp";
import { COVER_HEIGHT_RATIO, COVER_WIDTHS, WIDEST_COVER_WIDTH, coverVariantName, coverVariants } from "../../shared/covers.ts";
import type { FileStore } from "../storage/file-store.ts";
import { fileInvalidType } from "./upload-parser.ts";

// A 5 MB file can declare gigapixel dimensions (a decompression bomb): refuse it before decoding.
const MAX_INPUT_PIXELS = 40_000_000;
const COVERS_URL_PREFIX = "/covers/";

export const coverUrlOf = (name: string) => `${COVERS_URL_PREFIX}${name}`;

/** Every stored file of the cover a book points at (none for a book without a stored cover). */
export function storedNamesOf(coverUrl: string | null): string[] {
  if (!coverUrl?.startsWith(COVERS_URL_PREFIX)) return [];
  return coverVariants(coverUrl).map(({ url }) => url.slice(COVERS_URL_PREFIX.length));
}

/**
 * sharp, loaded with the first cover (its library weighs 25 MB resident, which a server that only
 * serves books never needs), without libvips's cache of recent images: each cover is encoded once, and
 * the cache kept up to 50 MB after it (docs/decisions/0045).
 */
async function imageOf(input: string | Buffer, options: SharpOptions): Promise<Sharp> {
  const { default: sharp } = await import("sharp");
  sharp.cache(false);
  return sharp(input, options);
}

interface EncodedCover {
  id: string;
  variants: Array<{ name: string; image: Buffer }>;
}

/** Every stored 2:3 WebP width of a source image, in memory (a cover's widths are tens of KB). */
async function encodeWidths(source: Sharp, position: "centre" | "top"): Promise<EncodedCover> {
  const id = randomUUID();
  const variants = await Promise.all(
    COVER_WIDTHS.map(async (width) => ({
      name: coverVariantName(id, width),
      image: await source
        .clone()
        .resize(width, Math.round(width * COVER_HEIGHT_RATIO), { fit: "cover", position })
        .webp({ quality: 80 })
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
 */
export async function storeCover(store: FileStore, uploadPath: string): Promise<string> {
  const source = (await imageOf(uploadPath, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })).rotate();
  let encoded: EncodedCover;
  try {
    encoded = await encodeWidths(source, "centre");
  } catch {
    throw fileInvalidType("coverImage");
  }
  return writeWidths(store, encoded);
}

/**
 * Stores an image Plume drew itself (a PDF's first page, a generated cover) as the same widths and
 * URLs as an uploaded cover. A page taller than 2:3 keeps its top, where a title page has its title.
 */
export async function storeDrawnCover(store: FileStore, png: Buffer): Promise<string> {
  return writeWidths(store, await encodeWidths(await imageOf(png, { limitInputPixels: MAX_INPUT_PIXELS }), "top"));
}

export async function removeCover(store: FileStore, coverUrl: string | null): Promise<void> {
  await Promise.all(storedNamesOf(coverUrl).map((name) => store.remove("covers", name)));
}
