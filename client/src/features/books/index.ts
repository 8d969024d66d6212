// The books feature's public file (docs/decisions/0057-client-feature-folders.md): a book's page, the
// author's page, upload and edit (screens loaded by App.tsx with import()), and the book cards,
// queries and storage figures other features show.
export { BookCover } from "./book-cover";
export { BookLanguageNote } from "./book-language-note";
export { BookGrid, BookGridSkeleton, BookShelf, FULL_CARD_COLUMNS } from "./book-grid";
export {
  authorStatsQueryKey,
  type BookFilters,
  useAuthorBooks,
  useAuthorProfile,
  useAuthorStats,
  useBook,
  useBookList,
  useCatalogPages,
  usePublicStats,
} from "./use-books";
export { StorageUsage } from "./storage-usage";
export { toMegabytes } from "./upload-kinds";
export { useDeleteBook } from "./use-book-mutations";
export { useStorageSize, useStorageUsage } from "./use-storage";
export { ShelfControl } from "./shelf-control";
export { MY_BOOKS_KEY, SHELF_MAP_KEY, continueReadingText, useContinueReading, useShelfMap, useShelfOf, useShelveBook, usePercentFormat } from "./use-shelves";
export { BookCard, BookCardSkeleton } from "./book-card";
