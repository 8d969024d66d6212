import { bookFieldsSchema } from "@shared/book-schemas";
import { editionFieldsSchema } from "@shared/editions";
import { z } from "zod";

/** What a dropzone holds: a chosen file or nothing yet. */
const chosenFile = z.instanceof(File).nullable();

/** The shared book rules of the API plus the files; messages are translation keys. */
export const uploadFormSchema = bookFieldsSchema.extend({
  file: chosenFile.pipe(z.instanceof(File, { error: "upload.fileRequired" })),
  coverImage: chosenFile,
});
export type UploadFormInput = z.input<typeof uploadFormSchema>;
export type UploadFormData = z.output<typeof uploadFormSchema>;

/** An edit never replaces the book file, only its details and, optionally, its cover. */
export const editFormSchema = bookFieldsSchema.extend({ coverImage: chosenFile });
export type EditFormInput = z.input<typeof editFormSchema>;
export type EditFormData = z.output<typeof editFormSchema>;

/** A new edition (docs/product.md#editions): the book's new file and what changed, by the API's own rules. */
export const editionFormSchema = editionFieldsSchema.extend({
  file: chosenFile.pipe(z.instanceof(File, { error: "upload.fileRequired" })),
});
export type EditionFormInput = z.input<typeof editionFormSchema>;
export type EditionFormData = z.output<typeof editionFormSchema>;
