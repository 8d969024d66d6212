import { BOOK_EXTENSIONS } from "../../shared/books.ts";

/**
 * A title's own ending in a book file's extension ("Notes.docx", "Notes.PDF"): authors often type the
 * file's name as the title, and the name gets the real file's extension anyway.
 */
const TYPED_EXTENSIONS = new RegExp(`(?:\\.(?:${BOOK_EXTENSIONS.join("|")})\\s*)+$`, "i");

/**
 * `{title}.{ext}` as a safe file name: no path separators, control or reserved characters, and one
 * extension, the stored file's real one (docs/product.md#books).
 */
export function downloadFileName(title: string, extension: string): string {
  const safeTitle = title
    .normalize("NFC")
    .replace(/[\p{Cc}/\\:*?"<>|]+|\.{2,}/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(TYPED_EXTENSIONS, "")
    .trim()
    .replace(/^\.+/, "")
    .slice(0, 200)
    .trim();
  return `${safeTitle || "book"}.${extension}`;
}
