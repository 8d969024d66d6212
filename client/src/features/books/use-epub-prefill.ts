import { BOOK_LANGUAGES, DESCRIPTION_MAX, TITLE_MAX } from "@shared/books";
import { useEffect, useState } from "react";
import type { UseFormReturn } from "react-hook-form";
import type { UploadFormData, UploadFormInput } from "@/features/books/book-form-schemas";
import type { EpubMetadata } from "@/features/books/epub-metadata";

interface EpubPrefill {
  /** Whether something was filled in from the book. */
  detailsFilled: boolean;
  /** The cover the package names, for the preview when the author gives none. */
  packageCover: File | null;
}

/**
 * Fills the upload form's title, language and description from the chosen EPUB's package
 * (docs/product.md#epub), never over what the author already typed or chose, and finds its cover for
 * the preview. The reader of the package is its own chunk, loaded only when an EPUB is chosen.
 */
export function useEpubPrefill(form: UseFormReturn<UploadFormInput, unknown, UploadFormData>, file: File | null | undefined): EpubPrefill {
  // What was read of which file: another file chosen since says nothing about it.
  const [read, setRead] = useState<{ file: File; detailsFilled: boolean; packageCover: File | null } | null>(null);
  useEffect(() => {
    if (!file || !/\.epub$/i.test(file.name)) return;
    let current = true;
    void import("@/features/books/epub-metadata")
      .then(({ readEpubMetadata }) => readEpubMetadata(file))
      .then((metadata) => {
        if (current && metadata) setRead({ file, detailsFilled: prefill(form, metadata), packageCover: metadata.cover });
      });
    return () => {
      current = false;
    };
  }, [file, form]);
  return read && read.file === file ? read : { detailsFilled: false, packageCover: null };
}

function prefill(form: UseFormReturn<UploadFormInput, unknown, UploadFormData>, { title, language, description }: EpubMetadata): boolean {
  const set = (name: "title" | "description" | "language", value: string) => {
    form.setValue(name, value, { shouldDirty: true });
    return true;
  };
  let filled = false;
  if (title && !form.getValues("title").trim()) filled = set("title", title.slice(0, TITLE_MAX));
  if (description && !form.getValues("description").trim()) filled = set("description", description.slice(0, DESCRIPTION_MAX)) || filled;
  // "es-MX" is Spanish; a language Plume does not list leaves the choice as it is.
  const bookLanguage = BOOK_LANGUAGES.find((candidate) => candidate === language?.toLowerCase().split(/[-_]/)[0]);
  if (bookLanguage && !form.getFieldState("language").isDirty && form.getValues("language") !== bookLanguage) filled = set("language", bookLanguage) || filled;
  return filled;
}
