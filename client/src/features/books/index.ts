// The books feature's public file (docs/decisions/0057-client-feature-folders.md): a book's page, the
// author's page, upload and edit (screens loaded by App.tsx with import()), and the book cards,
// queries and storage figures other features show.
export { BookCover } from "./book-cover";
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
