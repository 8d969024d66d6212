import { z } from "zod";
import { BOOK_LANGUAGES, CATALOG_MAX_LIMIT, CATALOG_PAGE_SIZE, SEARCH_MAX } from "./books.ts";
import { GENRE_KEYS } from "./genres.ts";
import { TEXT_INVALID, isSingleLineText } from "./typed-text.ts";

/** The OPDS catalog's addresses and paging (docs/product.md#opds). */

export const OPDS_PATH = "/opds";
/** How deep a feed pages: past this, an e-reader app should search instead. */
export const OPDS_MAX_PAGE = 500;

/** A whole number in a query string ("3", not "3.0", "-1" or "1e9"), within its bounds. */
const boundedWhole = (key: string, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, key)
    .transform(Number)
    .pipe(z.number().min(1, key).max(max, key));

const paging = {
  page: boundedWhole("eReaders.feed.pageInvalid", OPDS_MAX_PAGE).default(1),
  size: boundedWhole("eReaders.feed.sizeInvalid", CATALOG_MAX_LIMIT).default(CATALOG_PAGE_SIZE),
};

/**
 * A parameter no feed knows is refused with its own name, rather than ignored: an app paging with
 * `start` or `offset` would otherwise get the first page again and again.
 */
const unknownParameter = z.undefined({ error: "eReaders.feed.unknownParameter" });

export const opdsPageQuerySchema = z.object(paging).catchall(unknownParameter);
export type OpdsPageQuery = z.output<typeof opdsPageQuerySchema>;

export const opdsSearchQuerySchema = z
  .object({
    ...paging,
    q: z
      .string({ error: "eReaders.feed.queryRequired" })
      .trim()
      .min(1, "eReaders.feed.queryRequired")
      .max(SEARCH_MAX, "validation.searchMax")
      .refine(isSingleLineText, TEXT_INVALID),
  })
  .catchall(unknownParameter);
export type OpdsSearchQuery = z.output<typeof opdsSearchQuerySchema>;

export const opdsGenreParamsSchema = z.object({ genre: z.enum(GENRE_KEYS, { error: "validation.genreInvalid" }) });
export const opdsLanguageParamsSchema = z.object({ language: z.enum(BOOK_LANGUAGES, { error: "validation.languageInvalid" }) });
