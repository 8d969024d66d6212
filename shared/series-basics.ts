/**
 * Series and tags' limits, a tag's normal form, a volume's short form and their addresses
 * (docs/product.md#series-and-tags): the zod-free part of shared/series-and-tags.ts, so the catalog's
 * address and a book's page use them without loading zod (docs/decisions/0016).
 */

export const SERIES_TITLE_MAX = 255;
export const SERIES_DESCRIPTION_MAX = 2000;
/** A volume is a positive number with at most two decimals (1, 1.5, 12.25), below 10 000 (the column holds 6 digits). */
export const SERIES_VOLUME_MAX = 9999.99;
/** How many series an author keeps at most. */
export const SERIES_PER_AUTHOR_MAX = 100;
export const TAGS_PER_BOOK_MAX = 10;
/** A tag's normalised form is 2 to 40 letters, digits and single hyphens. */
export const TAG_MIN = 2;
export const TAG_MAX = 40;
/** How many tags a suggestion lists. */
export const TAG_SUGGESTIONS = 8;
/** What separates tags in a form's field: a tag never holds a comma (as on AO3). */
export const TAG_SEPARATOR = ",";

/**
 * A tag's normalised form, its slug: case folded, accents removed, every run of spaces and
 * punctuation one hyphen, none at either end. "Science Fiction", "science-fiction" and
 * "Sciénce  fiction" are one tag: "science-fiction".
 */
export function tagSlug(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
}

/** How a tag is shown, as its author wrote it: trimmed, its spaces single. */
export function tagDisplayName(name: string): string {
  return name.trim().replace(/\s+/g, " ");
}

/** A volume written the short way: 2, 1.5. */
export function formatVolume(volume: number): string {
  return String(Number(volume.toFixed(2)));
}

/** A series' page. */
export const seriesPath = (id: number) => `/series/${id}`;
/** The catalog's page of a tag's books. */
export const tagCatalogPath = (slug: string) => `/catalog?tag=${encodeURIComponent(slug)}`;
