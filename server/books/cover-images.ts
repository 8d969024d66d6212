import { randomUUID } from "node:crypto";
import sharp from "sharp";
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
 * Renders an uploaded cover as the stored 2:3 WebP widths, its orientation applied and its metadata
 * (camera, GPS) dropped, and returns the URL of the widest. The browser then gets a cover near the
 * size it shows. An image that does not decode is refused as an invalid image, with nothing stored.
 */
export async function storeCover(store: FileStore, uploadPath: string): Promise<string> {
  const source = sharp(uploadPath, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" }).rotate();
  const id = randomUUID();
  let variants: Array<{ name: string; image: Buffer }>;
  try {
    variants = await Promise.all(
      COVER_WIDTHS.map(async (width) => ({
        name: coverVariantName(id, width),
        image: await source
          .clone()
          .resize(width, Math.round(width * COVER_HEIGHT_RATIO), { fit: "cover" })
          .webp({ quality: 80 })
          .toBuffer(),
      })),
    );
  } catch {
    throw fileInvalidType("coverImage");
  }
  try {
    await Promise.all(variants.map(({ name, image }) => store.write("covers", name, image)));
  } catch (error) {
    await Promise.all(variants.map(({ name }) => store.remove("covers", name)));
    throw error;
  }
  return coverUrlOf(coverVariantName(id, WIDEST_COVER_WIDTH));
}

export async function removeCover(store: FileStore, coverUrl: string | null): Promise<void> {
  await Promise.all(storedNamesOf(coverUrl).map((name) => store.remove("covers", name)));
}
