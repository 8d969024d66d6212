import type { BookRating } from "@shared/books";
import type { HelpfulState, PublicReview, ReplyInput, ReviewInput, ReviewPage, ReviewSort } from "@shared/reviews";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api";
import { reviewsKey } from "@/features/books/use-books";

/** A book's reviews, a page at a time, newest or most helpful first (docs/product.md#reviews). */
export function useReviews(bookId: number, sort: ReviewSort) {
  return useInfiniteQuery({
    queryKey: [...reviewsKey(bookId), sort],
    initialPageParam: 1,
    queryFn: async ({ pageParam }) => (await apiRequest("GET", `/api/books/${bookId}/reviews?sort=${sort}&page=${pageParam}`)).json() as Promise<ReviewPage>,
    getNextPageParam: (last: ReviewPage) => (last.hasMore ? last.page + 1 : undefined),
  });
}

/** Every change to a review reads the book's reviews and rating again. */
function useRefresh(bookId: number) {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: reviewsKey(bookId) });
    void queryClient.invalidateQueries({ queryKey: ["/rating", bookId] });
    void queryClient.invalidateQueries({ queryKey: ["/api/reviews"] });
  };
}

export function useWriteReview(bookId: number) {
  const refresh = useRefresh(bookId);
  return useMutation({
    mutationFn: async (review: ReviewInput) =>
      (await apiRequest("PUT", `/api/books/${bookId}/review`, review)).json() as Promise<{ review: PublicReview; bookRating: BookRating }>,
    onSuccess: refresh,
  });
}

export function useDeleteReview(bookId: number) {
  const refresh = useRefresh(bookId);
  return useMutation({ mutationFn: () => apiRequest("DELETE", `/api/books/${bookId}/review`), onSuccess: refresh });
}

export function useReply(bookId: number, reviewId: number) {
  const refresh = useRefresh(bookId);
  return useMutation({
    mutationFn: (reply: ReplyInput | null) =>
      reply === null ? apiRequest("DELETE", `/api/reviews/${reviewId}/reply`) : apiRequest("PUT", `/api/reviews/${reviewId}/reply`, reply),
    onSuccess: refresh,
  });
}

export function useHelpful(bookId: number, reviewId: number) {
  const refresh = useRefresh(bookId);
  return useMutation({
    mutationFn: async (helpful: boolean) => (await apiRequest(helpful ? "PUT" : "DELETE", `/api/reviews/${reviewId}/helpful`)).json() as Promise<HelpfulState>,
    onSuccess: refresh,
  });
}
