import { z } from "zod";
import { usernameRule } from "./auth.ts";
import { wholeNumber } from "./book-schemas.ts";
import { SHELF_MAX_PAGE } from "./shelves.ts";
import { SHELVES } from "./returning-readers.ts";

/** The shelves' calls check their input with these (docs/product.md#shelves); messages are translation keys. */

const bookIdRule = wholeNumber("validation.bookIdInvalid").pipe(z.number().min(1, "validation.bookIdInvalid"));

export const shelfBookParamsSchema = z.object({ bookId: bookIdRule });

export const shelfChoiceSchema = z.object({ shelf: z.enum(SHELVES, { error: "validation.shelfUnknown" }) });
export type ShelfChoice = z.infer<typeof shelfChoiceSchema>;

export const shelfParamsSchema = z.object({ shelf: z.enum(SHELVES, { error: "validation.shelfUnknown" }) });

const pageRule = wholeNumber("validation.pageInvalid").pipe(z.number().min(1, "validation.pageInvalid").max(SHELF_MAX_PAGE, "validation.pageInvalid"));

export const shelfPageQuerySchema = z.object({ page: pageRule.default(1) });
export type ShelfPageQuery = z.output<typeof shelfPageQuerySchema>;

/** "Continue reading" of one book (the book page) or of the newest few (the home). */
export const continueReadingQuerySchema = z.object({ bookId: bookIdRule.optional() });

export const readerParamsSchema = z.object({ username: usernameRule });

/** Whether the reader's shelves are shown to anyone at /readers/{username}: off until they choose it. */
export const publicShelvesSchema = z.object({ shelvesPublic: z.boolean({ error: "validation.invalid" }) });
export type PublicShelvesInput = z.infer<typeof publicShelvesSchema>;
