import type { BookCard } from "@shared/books";
import { ada } from "@client-test/fixtures";

/** A book by Ada as the API answers it. */
export function adasBook(overrides: Partial<BookCard> = {}): BookCard {
  return {
    id: 7,
    title: "Notes on the Analytical Engine",
    description: "How a machine could weave algebraic patterns.",
    genre: "investigacionAcademica",
    language: "en",
    contentRating: "general",
    coverImageUrl: null,
    fileType: "pdf",
    fileSize: 38_243,
    formats: [{ format: "pdf", size: 38_243, mimeType: "application/pdf" }],
    pageCount: 1,
    downloadCount: 0,
    rating: 0,
    reviewCount: 0,
    createdAt: "2025-03-01T10:00:00.000Z",
    updatedAt: "2025-03-01T10:00:00.000Z",
    author: { id: ada.id, firstName: ada.firstName, lastName: ada.lastName, displayName: ada.displayName },
    ...overrides,
  };
}
