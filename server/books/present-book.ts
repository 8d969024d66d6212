import type { BookAuthor, BookCard, BookFileType, BookLanguage, DownloadFormat } from "../../shared/books.ts";
import type { GenreKey } from "../../shared/genres.ts";
import type { ModerationState } from "../../shared/moderation.ts";
import type { AuthorColumns, BookCardRow } from "./books-repository.ts";
import { formatsOf } from "./book-files.ts";
import { extensionOf } from "./file-types.ts";

/** Full name, else the e-mail's local part, else null (docs/product.md#accounts); the e-mail itself never leaves. */
export function authorDisplayName({ authorFirstName, authorLastName, authorEmail }: AuthorColumns): string | null {
  const fullName = [authorFirstName, authorLastName].map((part) => part?.trim()).filter(Boolean).join(" ");
  return fullName || authorEmail?.split("@")[0] || null;
}

export function presentAuthor(book: Pick<BookCardRow, "authorId"> & AuthorColumns): BookAuthor {
  return {
    id: book.authorId,
    firstName: book.authorFirstName,
    lastName: book.authorLastName,
    displayName: authorDisplayName(book),
  };
}

/** A book as a card; a row that carries its moderation state (the author's, the admin's) says when it is restricted. */
export function presentBook(book: BookCardRow & { moderationState?: ModerationState | null }): BookCard {
  return {
    id: book.id,
    title: book.title,
    description: book.description,
    genre: book.genre as GenreKey | null,
    language: book.language as BookLanguage,
    contentRating: book.contentRating,
    coverImageUrl: book.coverImageUrl,
    fileType: extensionOf(book.filePath) as BookFileType,
    fileSize: book.fileSize,
    formats: formatsOf(book).map(({ extension, size, mimeType }) => ({ format: extension as DownloadFormat, size, mimeType })),
    pageCount: book.pageCount,
    downloadCount: book.downloadCount,
    rating: Number(book.rating),
    reviewCount: book.reviewCount,
    createdAt: book.createdAt.toISOString(),
    updatedAt: book.updatedAt.toISOString(),
    author: presentAuthor(book),
    ...(book.moderationState ? { moderationState: book.moderationState } : {}),
  };
}
