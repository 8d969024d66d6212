import type { CurrentUser } from "@shared/auth";
import type { BookCard } from "@shared/books";
import { vi } from "vitest";

/** The author of the books the tests' readers browse, download and rate. */
export const authorId = "0b6a3c1e-4f7d-4e8a-9c2b-7d1e5f3a9b22";

let nextId = 1;

/** A catalog card as the API answers it; each call gets a new id unless one is given. */
export function makeBook(overrides: Partial<BookCard> = {}): BookCard {
  const id = overrides.id ?? nextId++;
  return {
    id,
    title: `Book ${id}`,
    description: "A quiet story about a lighthouse keeper.",
    genre: "novela",
    language: "en",
    contentRating: "general",
    coverImageUrl: null,
    fileType: "pdf",
    fileSize: 120_000,
    formats: [{ format: "pdf", size: 120_000, mimeType: "application/pdf" }],
    pageCount: 24,
    downloadCount: 0,
    rating: 0,
    reviewCount: 0,
    createdAt: "2026-01-10T10:00:00.000Z",
    updatedAt: "2026-01-10T10:00:00.000Z",
    author: { id: authorId, firstName: "Rosalía", lastName: "de Castro", displayName: "Rosalía de Castro" },
    ...overrides,
  };
}

/** `count` books with consecutive ids from `firstId`. */
export const makeBooks = (count: number, firstId = 1) => Array.from({ length: count }, (_, index) => makeBook({ id: firstId + index }));

/** A book written by the given account. */
export const bookBy = (user: CurrentUser, overrides: Partial<BookCard> = {}) =>
  makeBook({ author: { id: user.id, firstName: user.firstName, lastName: user.lastName, displayName: user.displayName }, ...overrides });

/** jsdom has no object URLs: stands in for them and records the download links the app clicks. */
export function stubFileSaving() {
  const createObjectURL = vi.fn((_blob: Blob) => "blob:plume/1");
  const revokeObjectURL = vi.fn();
  vi.stubGlobal(
    "URL",
    class extends URL {
      static override createObjectURL = createObjectURL;
      static override revokeObjectURL = revokeObjectURL;
    },
  );
  const clickedLinks: HTMLAnchorElement[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    clickedLinks.push(this);
  });
  return { createObjectURL, revokeObjectURL, clickedLinks };
}
