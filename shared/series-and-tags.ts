import { z } from "zod";
import type { BookAuthor, BookCard } from "./books.ts";
import { TEXT_INVALID, isMultiLineText, isSingleLineText } from "./typed-text.ts";

/**
 * Series and tags (docs/product.md#series-and-tags): an author's series with numbered volumes, and
 * up to ten tags per book, each kept once by its normalised form. Both sides use these rules: the
 * upload and edit forms, the series screens and the API.
 */

export {
  SERIES_DESCRIPTION_MAX,
  SERIES_PER_AUTHOR_MAX,
  SERIES_TITLE_MAX,
  SERIES_VOLUME_MAX,
  TAG_MAX,
  TAG_MIN,
  TAG_SEPARATOR,
  TAG_SUGGESTIONS,
  TAGS_PER_BOOK_MAX,
  formatVolume,
  seriesPath,
  tagCatalogPath,
  tagDisplayName,
  tagSlug,
} from "./series-basics.ts";
import { SERIES_DESCRIPTION_MAX, SERIES_TITLE_MAX, SERIES_VOLUME_MAX, TAG_MAX, TAG_MIN, TAG_SEPARATOR, TAGS_PER_BOOK_MAX, tagDisplayName, tagSlug } from "./series-basics.ts";

export interface TagInput {
  slug: string;
  name: string;
}

/**
 * The tags field of the book forms: tags separated by commas, each 2 to 40 characters once
 * normalised, at most ten once the repeated ones are merged. An empty field is no tags.
 */
export const tagListSchema = z
  .string({ error: "validation.tagsInvalid" })
  .max(2000, "validation.tagsMax")
  .transform((value, ctx): TagInput[] => {
    if (value.trim() === "") return [];
    const tags = new Map<string, TagInput>();
    for (const part of value.split(TAG_SEPARATOR)) {
      const name = tagDisplayName(part);
      if (!isSingleLineText(name)) {
        ctx.addIssue({ code: "custom", message: TEXT_INVALID });
        return z.NEVER;
      }
      const slug = tagSlug(name);
      if (name === "") {
        ctx.addIssue({ code: "custom", message: "validation.tagEmpty" });
        return z.NEVER;
      }
      if (slug.length < TAG_MIN) {
        ctx.addIssue({ code: "custom", message: "validation.tagTooShort" });
        return z.NEVER;
      }
      if (slug.length > TAG_MAX || name.length > TAG_MAX) {
        ctx.addIssue({ code: "custom", message: "validation.tagTooLong" });
        return z.NEVER;
      }
      if (!tags.has(slug)) tags.set(slug, { slug, name });
    }
    if (tags.size > TAGS_PER_BOOK_MAX) {
      ctx.addIssue({ code: "custom", message: "validation.tagsMax" });
      return z.NEVER;
    }
    return [...tags.values()];
  });

/** A volume as a form sends it ("2", "1.5"); empty: none. */
export const seriesVolumeSchema = z
  .string({ error: "validation.seriesVolumeInvalid" })
  .trim()
  .transform((value, ctx) => {
    if (value === "") return null;
    const volume = /^\d{1,4}(\.\d{1,2})?$/.test(value) ? Number(value) : Number.NaN;
    if (!(volume > 0 && volume <= SERIES_VOLUME_MAX)) {
      ctx.addIssue({ code: "custom", message: "validation.seriesVolumeInvalid" });
      return z.NEVER;
    }
    return volume;
  });

/** A series chosen in a book form by its id; empty: none. */
export const seriesChoiceSchema = z
  .string({ error: "validation.seriesInvalid" })
  .trim()
  .transform((value, ctx) => {
    if (value === "") return null;
    if (!/^\d{1,9}$/.test(value) || Number(value) < 1) {
      ctx.addIssue({ code: "custom", message: "validation.seriesInvalid" });
      return z.NEVER;
    }
    return Number(value);
  });

/** What an author writes of a series: its title and, optionally, a description. */
export const seriesFieldsSchema = z.object({
  title: z
    .string({ error: "validation.seriesTitleRequired" })
    .trim()
    .min(1, "validation.seriesTitleRequired")
    .max(SERIES_TITLE_MAX, "validation.seriesTitleMax")
    .refine(isSingleLineText, TEXT_INVALID),
  description: z
    .string({ error: "validation.seriesDescriptionMax" })
    .trim()
    .max(SERIES_DESCRIPTION_MAX, "validation.seriesDescriptionMax")
    .refine(isMultiLineText, TEXT_INVALID)
    .default(""),
});
export type SeriesFieldsInput = z.input<typeof seriesFieldsSchema>;
export type SeriesFields = z.output<typeof seriesFieldsSchema>;

export const seriesIdSchema = z.object({
  id: z
    .string()
    .regex(/^\d{1,9}$/, "validation.seriesInvalid")
    .transform(Number)
    .pipe(z.number().min(1, "validation.seriesInvalid")),
});

export const tagSlugParamsSchema = z.object({
  slug: z
    .string()
    .max(200, "validation.tagInvalid")
    .transform((value, ctx) => {
      const slug = tagSlug(value);
      if (slug.length < TAG_MIN || slug.length > TAG_MAX) {
        ctx.addIssue({ code: "custom", message: "validation.tagInvalid" });
        return z.NEVER;
      }
      return slug;
    }),
});

/** The catalog's and suggestions' tag: a slug as written in an address, normalised. */
export const tagFilterSchema = tagSlugParamsSchema.shape.slug;

export const tagSuggestQuerySchema = z.object({
  q: z.string().max(200, "validation.tagInvalid").default(""),
});

/** A tag as the API shows it, with the number of listed books that carry it where it is counted. */
export interface Tag {
  slug: string;
  name: string;
}

export interface TagSuggestion extends Tag {
  books: number;
}

/** A series as its author manages it. */
export interface SeriesSummary {
  id: number;
  title: string;
  description: string;
  /** Its books that are not deleted, listed or not (the author's own count). */
  bookCount: number;
  createdAt: string;
  updatedAt: string;
}

/** A volume as the series page and "next in the series" show it. */
export interface SeriesVolume {
  volume: number;
  book: BookCard;
}

/** A series' public page: its volumes listed for this reader, in order. */
export interface SeriesPage {
  id: number;
  title: string;
  description: string;
  author: BookAuthor;
  volumes: SeriesVolume[];
}

/** Where a book sits: its series and volume, the next listed volume, and its tags. */
export interface BookPlacement {
  series: { id: number; title: string; volume: number; volumes: number } | null;
  next: { volume: number; id: number; title: string } | null;
  tags: Tag[];
}

