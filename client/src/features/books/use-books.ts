import { type AuthorStats, type BookCard, type BookRating, CATALOG_PAGE_SIZE, type DownloadFormat, type PublicStats, type UserRating } from "@shared/books";
import { AUTHORS_API, BOOKS_API, type BookListFilters, type BookListPage, PUBLIC_STATS_API, bookListApi } from "@shared/first-screen-reads";
import type { SentToEReader } from "@shared/e-reader-mail";
import type { BookEditions } from "@shared/editions";
import type { AuthorProfile } from "@shared/page-meta";
import { type QueryClient, useMutation, useQueries, useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import i18n from "@/lib/i18n";
import { apiRequest } from "@/lib/api";
import { errorText } from "@/lib/error-text";
import { isUnauthorizedError } from "@/lib/login-redirect";
import { toast } from "@/lib/toast";

/*
 * Every query key starts with the path it reads, so a change can refresh a whole family by prefix:
 * ["/api/books"] covers every book list, ["/api/authors"] every author's books and stats.
 */
const BOOKS_KEY = BOOKS_API;
const AUTHORS_KEY = AUTHORS_API;
const PUBLIC_STATS_KEY = PUBLIC_STATS_API;
const RATING_KEY = "/rating";
const USER_RATING_KEY = "/api/reviews";

/** What narrows and orders a book list; absent fields are left to the server's defaults. */
export interface BookFilters extends BookListFilters {
  /**
   * The language titles are ordered in, with sort=title (docs/decisions/0046). The server reads it
   * from the request (the language cookie); it is named here so that it is part of the cached page's key.
   */
  titleLanguage?: string;
}

type BookListParams = BookListPage & Pick<BookFilters, "titleLanguage">;

async function getJson<T>(url: string): Promise<T> {
  const response = await apiRequest("GET", url);
  return (await response.json()) as T;
}

function bookListQuery(params: BookListParams) {
  return {
    queryKey: [BOOKS_KEY, params],
    queryFn: () => getJson<BookCard[]>(bookListApi(params)),
  };
}

/** The first `limit` books of the catalog in the given order, e.g. the most downloaded six. */
export function useBookList(filters: BookFilters, limit: number): UseQueryResult<BookCard[]> {
  return useQuery(bookListQuery({ ...filters, limit, offset: 0 }));
}

export interface CatalogPages {
  /** The books of every page loaded so far, in order, each once. */
  books: BookCard[];
  isLoadingFirstPage: boolean;
  isLoadingMore: boolean;
  /** The last page came back full, so there may be more. */
  hasMore: boolean;
  error: Error | null;
  retry: () => void;
}

function combineCatalogPages(results: UseQueryResult<BookCard[]>[]): CatalogPages {
  const books = new Map<number, BookCard>();
  // A page can shift while later ones load (a download reorders "most downloaded"): keep each book once.
  for (const result of results) for (const book of result.data ?? []) if (!books.has(book.id)) books.set(book.id, book);
  const lastPage = results.at(-1);
  const failed = results.find((result) => result.error);
  return {
    books: [...books.values()],
    isLoadingFirstPage: results[0]?.isPending ?? false,
    isLoadingMore: results.length > 1 && lastPage?.isPending === true,
    hasMore: lastPage?.data?.length === CATALOG_PAGE_SIZE,
    error: failed?.error ?? null,
    retry: () => void failed?.refetch(),
  };
}

/**
 * The first `pageCount` catalog pages of 20, shown one after the other, so "load more" appends
 * (docs/product.md#screens) and going back to one page restarts the list. Each page after the first asks
 * for the books after the last one of the page before (keyset paging: as quick on page 500 as on
 * page 2, docs/decisions/0015), so it is asked for once that page is in.
 */
export function useCatalogPages(filters: BookFilters, pageCount: number): CatalogPages {
  const queryClient = useQueryClient();
  const pages = [bookListQuery({ ...filters, limit: CATALOG_PAGE_SIZE, offset: 0 })];
  while (pages.length < pageCount) {
    const lastBook = queryClient.getQueryData<BookCard[]>(pages.at(-1)!.queryKey)?.at(-1);
    if (!lastBook) break;
    pages.push(bookListQuery({ ...filters, limit: CATALOG_PAGE_SIZE, after: lastBook.id }));
  }
  return useQueries({ queries: pages, combine: combineCatalogPages });
}

export function usePublicStats(): UseQueryResult<PublicStats> {
  return useQuery<PublicStats>({ queryKey: [PUBLIC_STATS_KEY] });
}

export const authorBooksQueryKey = (authorId: string) => [AUTHORS_KEY, authorId, "books"];

export function useAuthorBooks(authorId: string): UseQueryResult<BookCard[]> {
  return useQuery<BookCard[]>({ queryKey: authorBooksQueryKey(authorId) });
}

/** One book (GET /api/books/:id); not fetched while the id is unknown. A change to any book list refreshes it too. */
export function useBook(bookId: number | undefined): UseQueryResult<BookCard> {
  return useQuery<BookCard>({ queryKey: [BOOKS_KEY, bookId], enabled: bookId !== undefined });
}

/** An author's public profile (GET /api/authors/:id): display name, listed books, their downloads, member since. */
export function useAuthorProfile(authorId: string | undefined): UseQueryResult<AuthorProfile> {
  return useQuery<AuthorProfile>({ queryKey: [AUTHORS_KEY, authorId], enabled: authorId !== undefined });
}

export const authorStatsQueryKey = (authorId: string) => [AUTHORS_KEY, authorId, "stats"];

export function useAuthorStats(authorId: string): UseQueryResult<AuthorStats> {
  return useQuery<AuthorStats>({ queryKey: authorStatsQueryKey(authorId) });
}

/** Download counts show in book lists, author figures and the public totals. */
function refreshDownloadCounts(queryClient: QueryClient) {
  for (const key of [BOOKS_KEY, AUTHORS_KEY, PUBLIC_STATS_KEY]) void queryClient.invalidateQueries({ queryKey: [key] });
}

/**
 * A failed call: a missing session is already handled (login toast and redirect, see query-client),
 * anything else gets a destructive toast.
 */
function toastFailure(error: unknown, titleKey: string, fallbackKey: string) {
  if (isUnauthorizedError(error)) return;
  toast({ variant: "destructive", title: i18n.t(titleKey), description: errorText(error, fallbackKey) });
}

/** Downloads a book and saves it under the server's `{title}.{ext}` (docs/product.md#books). */
export function useDownloadBook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ book, format, edition }: { book: BookCard; format?: DownloadFormat; edition?: { number: number; format: string } }) => {
      // An older edition's own file (docs/product.md#editions), else a format of the current one.
      const query = edition ? `?edition=${edition.number}` : format ? `?format=${format}` : "";
      // The saving code is fetched with the first download, beside the file: no first visit needs it (docs/decisions/0072).
      const [response, { fileNameFromDisposition, saveBlob }] = await Promise.all([
        apiRequest("POST", `${BOOKS_KEY}/${book.id}/download${query}`),
        import("@/lib/download"),
      ]);
      const fileName = fileNameFromDisposition(response.headers.get("Content-Disposition")) ?? `${book.title}.${edition?.format ?? format ?? book.fileType}`;
      saveBlob(await response.blob(), fileName);
    },
    onSuccess: () => refreshDownloadCounts(queryClient),
    onError: (error) => toastFailure(error, "toasts.downloadError.title", "toasts.downloadError.description"),
  });
}

/**
 * Mails a book to the reader's e-reader (docs/product.md#send-to-e-reader): a send counts as a
 * download, so the counts are read again, and the reader is told where it went.
 */
export function useSendToEReader() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (book: BookCard) => (await (await apiRequest("POST", `${BOOKS_KEY}/${book.id}/send-to-e-reader`)).json()) as SentToEReader,
    onSuccess: (sent) => {
      refreshDownloadCounts(queryClient);
      toast({ title: i18n.t("toasts.sentToEReader.title"), description: i18n.t("toasts.sentToEReader.description", { fileName: sent.fileName, email: sent.sentTo }) });
    },
    onError: (error) => toastFailure(error, "toasts.sendError.title", "toasts.sendError.description"),
  });
}

const ratingKey = (bookId: number) => [RATING_KEY, bookId];
const userRatingKey = (bookId: number, userId: string) => [USER_RATING_KEY, { bookId, userId }];

/**
 * A book's average and number of ratings. The book card already carries them, so nothing is
 * fetched until a rating changes them (GET /rating/:bookId).
 */
export function useBookRating(book: BookCard): BookRating {
  const { data } = useQuery<BookRating>({
    queryKey: ratingKey(book.id),
    initialData: { avgRating: book.rating, reviewCount: book.reviewCount },
  });
  return data;
}

/** The signed-in reader's own rating of a book, 0 when none; not fetched while `userId` is null. */
export function useUserRating(bookId: number, userId: string | null): UseQueryResult<number> {
  return useQuery({
    queryKey: userRatingKey(bookId, userId ?? ""),
    queryFn: async () => {
      const query = new URLSearchParams({ bookId: String(bookId), userId: userId ?? "" });
      return (await getJson<UserRating>(`${USER_RATING_KEY}?${query}`)).userRating;
    },
    enabled: userId !== null,
  });
}

/** The book's reviews' queries (client/src/features/books/book-reviews.tsx): read again when the reader's rating changes. */
export const reviewsKey = (bookId: number) => ["/api/books", bookId, "reviews"] as const;

/**
 * Rates a book (1 to 5): the first rating through POST /rate, a change through PUT, 0 takes it back
 * with its review (docs/product.md#reviews); then the average and the reviews are fetched again.
 */
export function useRateBook(bookId: number, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rating, current }: { rating: number; current: number }) =>
      rating === 0
        ? apiRequest("DELETE", `/api/books/${bookId}/rating`)
        : current > 0
          ? apiRequest("PUT", `/api/books/${bookId}/rating`, { rating })
          : apiRequest("POST", "/rate", { bookId, userId, rating }),
    onSuccess: (_response, { rating }) => {
      queryClient.setQueryData(userRatingKey(bookId, userId), rating);
      void queryClient.invalidateQueries({ queryKey: ratingKey(bookId) });
      void queryClient.invalidateQueries({ queryKey: reviewsKey(bookId) });
    },
    onError: (error) => {
      // An "already rated" or "not rated" answer means the rating changed elsewhere (another tab): show it.
      void queryClient.invalidateQueries({ queryKey: userRatingKey(bookId, userId) });
      toastFailure(error, "toasts.rateError.title", "toasts.rateError.description");
    },
  });
}

/** A book's editions and the one this reader last took (GET /api/books/:id/editions, docs/product.md#editions). */
export function useBookEditions(bookId: number | undefined): UseQueryResult<BookEditions> {
  return useQuery<BookEditions>({ queryKey: [BOOKS_KEY, bookId, "editions"], enabled: bookId !== undefined });
}
