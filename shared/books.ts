import { z } from "zod";
import { GENRE_KEYS, type GenreKey, toGenreKey } from "./genres.ts";

/** Book rules shared by the upload and edit forms and the API (spec §3, §5; DECISIONS §2). */

export const TITLE_MAX = 255;
export const DESCRIPTION_MAX = 5000;
export const BOOK_LANGUAGES = ["en", "es", "fr"] as const;
export type BookLanguage = (typeof BOOK_LANGUAGES)[number];

export const BOOK_FILE_MAX_BYTES = 50 * 1024 * 1024;
export const COVER_MAX_BYTES = 5 * 1024 * 1024;
export const BOOK_EXTENSIONS = ["pdf", "doc", "docx"] as const;
export const COVER_EXTENSIONS = ["jpg", "jpeg", "png", "webp"] as const;
export type BookFileType = (typeof BOOK_EXTENSIONS)[number];

export const CATALOG_PAGE_SIZE = 20;
export const CATALOG_MAX_LIMIT = 100;
export const CATALOG_SORTS = ["newest", "downloads", "rating", "title"] as const;
export type CatalogSort = (typeof CATALOG_SORTS)[number];
export const SEARCH_MAX = 200;

const genre = z
  .string({ error: "validation.genreRequired" })
  .trim()
  .min(1, "validation.genreRequired")
  .transform((value, ctx) => {
    const key = toGenreKey(value);
    if (!key) ctx.addIssue({ code: "custom", message: "validation.genreInvalid" });
    return key as GenreKey;
  });

/** Title, description, genre and language: what the upload and the edit forms send. */
export const bookFieldsSchema = z.object({
  title: z
    .string({ error: "validation.titleRequired" })
    .trim()
    .min(1, "validation.titleRequired")
    .max(TITLE_MAX, "validation.titleMax"),
  description: z
    .string({ error: "validation.descriptionRequired" })
    .trim()
    .min(1, "validation.descriptionRequired")
    .max(DESCRIPTION_MAX, "validation.descriptionMax"),
  genre,
  language: z.enum(BOOK_LANGUAGES, { error: "validation.languageInvalid" }).default("en"),
});
export type BookFieldsInput = z.input<typeof bookFieldsSchema>;
export type BookFields = z.output<typeof bookFieldsSchema>;

/** A whole number in a query string or path ("20", not "2e1", "20.5" or "-0"). */
const wholeNumber = (key: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, key)
    .transform(Number);

export const bookIdSchema = z.object({ id: wholeNumber("validation.bookIdInvalid").pipe(z.number().min(1, "validation.bookIdInvalid")) });

export const catalogQuerySchema = z.object({
  limit: wholeNumber("validation.limitInvalid")
    .pipe(z.number().min(1, "validation.limitInvalid").max(CATALOG_MAX_LIMIT, "validation.limitInvalid"))
    .default(CATALOG_PAGE_SIZE),
  offset: wholeNumber("validation.offsetInvalid").default(0),
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
  search: z
    .string()
    .max(SEARCH_MAX, "validation.searchMax")
    .transform((value) => value.trim() || undefined)
    .optional(),
  sort: z.enum(CATALOG_SORTS, { error: "validation.sortInvalid" }).optional(),
});
export type CatalogQuery = z.output<typeof catalogQuerySchema>;

export const rateSchema = z.object({
  bookId: z.number({ error: "validation.bookIdInvalid" }).int("validation.bookIdInvalid").min(1, "validation.bookIdInvalid").max(2_147_483_647, "validation.bookIdInvalid"),
  userId: z.string({ error: "validation.required" }).uuid("validation.userIdInvalid"),
  rating: z.number({ error: "validation.ratingInvalid" }).int("validation.ratingInvalid").min(1, "validation.ratingInvalid").max(5, "validation.ratingInvalid"),
});
export type RateInput = z.infer<typeof rateSchema>;

/** A book's author as public responses show it: never an e-mail (DECISIONS §2.11). */
export interface BookAuthor {
  id: string;
  firstName: string | null;
  lastName: string | null;
  /** Full name, else the e-mail's local part, else null (shown as the anonymous-author label). */
  displayName: string | null;
}

export interface BookCard {
  id: number;
  title: string;
  description: string | null;
  genre: GenreKey | null;
  language: BookLanguage;
  coverImageUrl: string | null;
  fileType: BookFileType;
  fileSize: number;
  downloadCount: number;
  rating: number;
  reviewCount: number;
  createdAt: string;
  updatedAt: string;
  author: BookAuthor;
}

export { GENRE_KEYS };

export const authorIdSchema = z.object({ id: z.uuid("validation.userIdInvalid") });

export const userRatingQuerySchema = z.object({
  bookId: wholeNumber("validation.bookIdInvalid").pipe(z.number().min(1, "validation.bookIdInvalid")),
  userId: z.uuid("validation.userIdInvalid"),
});

export const ratingParamsSchema = z.object({
  bookId: wholeNumber("validation.bookIdInvalid").pipe(z.number().min(1, "validation.bookIdInvalid")),
});

export interface MonthlyDownloads {
  /** "YYYY-MM", UTC. */
  month: string;
  downloads: number;
}

export interface AuthorStats {
  totalDownloads: number;
  /** The last 12 months, oldest first, months without downloads included as 0. */
  monthlyDownloads: MonthlyDownloads[];
}
