/**
 * Covers are stored as 2:3 WebP images at these widths, named "{id}-{width}.webp"; a book's
 * coverImageUrl is the widest, and the others are found from it, for the browser to pick by size.
 */
export const WIDEST_COVER_WIDTH = 600;
export const COVER_WIDTHS = [200, 400, WIDEST_COVER_WIDTH] as const;
export const COVER_HEIGHT_RATIO = 1.5;

const WIDEST_SUFFIX = `-${WIDEST_COVER_WIDTH}.webp`;

export interface CoverVariant {
  url: string;
  width: number;
}

/** Every stored width of a cover, narrowest first; just the URL itself for a cover stored before variants existed. */
export function coverVariants(coverUrl: string): CoverVariant[] {
  if (!coverUrl.endsWith(WIDEST_SUFFIX)) return [{ url: coverUrl, width: WIDEST_COVER_WIDTH }];
  const stem = coverUrl.slice(0, -WIDEST_SUFFIX.length);
  return COVER_WIDTHS.map((width) => ({ url: `${stem}-${width}.webp`, width }));
}

/** The stored name of a cover at a width, from its id. */
export const coverVariantName = (id: string, width: number) => `${id}-${width}.webp`;
