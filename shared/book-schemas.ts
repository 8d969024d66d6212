import { z } from "zod";
import {
  BOOK_LANGUAGES,
  CATALOG_MAX_LIMIT,
  CATALOG_PAGE_SIZE,
  CATALOG_SORTS,
  CONTENT_RATINGS,
  DESCRIPTION_MAX,
  DOWNLOAD_FORMATS,
  SEARCH_MAX,
  TITLE_MAX,
} from "./books.ts";
import { type GenreKey, toGenreKey } from "./genres.ts";
import { TEXT_INVALID, isMultiLineText, isSingleLineText } from "./typed-text.ts";
import { seriesChoiceSchema, seriesVolumeSchema, tagFilterSchema, tagListSchema } from "./series-and-tags.ts";

/** The book rules of the upload and edit forms and the API requests (docs/product.md#books, #accounts). */

const genre = z
  .string({ error: "validation.genreRequired" })
  .trim()
  .min(1, "validation.genreRequired")
  .transform((value, ctx) => {
    const key = toGenreKey(value);
    if (!key) ctx.addIssue({ code: "custom", message: "validation.genreInvalid" });
    return key as GenreKey;
  });

/** One of the four content ratings (docs/product.md#content-ratings). */
export const contentRatingSchema = z.enum(CONTENT_RATINGS, { error: "validation.contentRatingInvalid" });

/**
 * Title, description, genre, language and content rating: what the upload and the edit forms send.
 * A rating left out is General at upload; an edit that leaves it out keeps the book's
 * (server/books/books-service.ts), so that an older client's edit never unrates an explicit book.
 */
export const bookFieldsSchema = z.object({
  title: z
    .string({ error: "validation.titleRequired" })
    .trim()
    .min(1, "validation.titleRequired")
    .max(TITLE_MAX, "validation.titleMax")
    .refine(isSingleLineText, TEXT_INVALID),
  description: z
    .string({ error: "validation.descriptionRequired" })
    .trim()
    .min(1, "validation.descriptionRequired")
    .max(DESCRIPTION_MAX, "validation.descriptionMax")
    .refine(isMultiLineText, TEXT_INVALID),
  genre,
  language: z.enum(BOOK_LANGUAGES, { error: "validation.languageInvalid" }).default("en"),
  contentRating: contentRatingSchema.optional(),
  /**
   * The author's series and the book's volume in it, and its tags (docs/product.md#series-and-tags).
   * Left out, an edit keeps them; sent empty, it takes the book out of its series, or its tags off.
   */
  seriesId: seriesChoiceSchema.optional(),
  seriesVolume: seriesVolumeSchema.optional(),
  tags: tagListSchema.optional(),
});
export type BookFieldsInput = z.input<typeof bookFieldsSchema>;
export type BookFields = z.output<typeof bookFieldsSchema>;

/** A whole number in a query string or path ("20", not "2e1", "20.5" or "-0"). */
export const wholeNumber = (key: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, key)
    .transform(Number);

/** Which of a book's files a download takes (docs/product.md#epub); none: the book's own. */
/** Which file of a book to take: a format of its current edition, or an older edition's own file (docs/product.md#editions). */
export const downloadQuerySchema = z.object({
  format: z.enum(DOWNLOAD_FORMATS, "validation.formatUnknown").optional(),
  edition: z
    .string()
    .regex(/^\d{1,9}$/, "validation.editionInvalid")
    .transform(Number)
    .pipe(z.number().min(1, "validation.editionInvalid"))
    .optional(),
});

export const bookIdSchema = z.object({ id: wholeNumber("validation.bookIdInvalid").pipe(z.number().min(1, "validation.bookIdInvalid")) });

export const catalogQuerySchema = z.object({
  limit: wholeNumber("validation.limitInvalid")
    .pipe(z.number().min(1, "validation.limitInvalid").max(CATALOG_MAX_LIMIT, "validation.limitInvalid"))
    .default(CATALOG_PAGE_SIZE),
  offset: wholeNumber("validation.offsetInvalid").default(0),
  /** Keyset paging: the page that follows this book in the same order ("load more" sends the last book shown). */
  after: bookIdSchema.shape.id.optional(),
  genre: z
    .string()
    .trim()
    .transform((value, ctx) => {
      if (value === "" || value.toLowerCase() === "all") return undefined;
      const key = toGenreKey(value);
      if (!key) ctx.addIssue({ code: "custom", message: "validation.genreInvalid" });
      return key;
    })
    .optional(),
  /** The books written in one language (OPDS's by-language feeds, docs/product.md#opds). */
  language: z.enum(BOOK_LANGUAGES, { error: "validation.languageInvalid" }).optional(),
  search: z
    .string()
    .max(SEARCH_MAX, "validation.searchMax")
    .refine(isSingleLineText, TEXT_INVALID)
    .transform((value) => value.trim() || undefined)
    .optional(),
  sort: z.enum(CATALOG_SORTS, { error: "validation.sortInvalid" }).optional(),
  /** The books carrying one tag, by its slug (docs/product.md#series-and-tags). */
  tag: tagFilterSchema.optional(),
});
export type CatalogQuery = z.output<typeof catalogQuerySchema>;

export const rateSchema = z.object({
  bookId: z.number({ error: "validation.bookIdInvalid" }).int("validation.bookIdInvalid").min(1, "validation.bookIdInvalid").max(2_147_483_647, "validation.bookIdInvalid"),
  userId: z.string({ error: "validation.required" }).uuid("validation.userIdInvalid"),
  rating: z.number({ error: "validation.ratingInvalid" }).int("validation.ratingInvalid").min(1, "validation.ratingInvalid").max(5, "validation.ratingInvalid"),
});
export type RateInput = z.infer<typeof rateSchema>;

export const authorIdSchema = z.object({ id: z.uuid("validation.userIdInvalid") });

export const userRatingQuerySchema = z.object({
  bookId: wholeNumber("validation.bookIdInvalid").pipe(z.number().min(1, "validation.bookIdInvalid")),
  userId: z.uuid("validation.userIdInvalid"),
});

export const ratingParamsSchema = z.object({
  bookId: wholeNumber("validation.bookIdInvalid").pipe(z.number().min(1, "validation.bookIdInvalid")),
});
