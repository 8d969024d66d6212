import { FOLLOWING_API, type FollowState, type FollowingItem, followApi } from "@shared/follows";
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import i18n from "@/lib/i18n";
import { apiRequest } from "@/lib/api";
import { errorText } from "@/lib/error-text";
import { isUnauthorizedError } from "@/lib/login-redirect";
import { toast } from "@/lib/toast";

/*
 * A reader's follows (docs/product.md#follows). The follow state is asked for by the signed-in reader
 * alone (GET /api/authors/:id/follow), never part of the author page's public answer, so a cached or
 * server-rendered page holds nothing of who is looking at it.
 */
const followStateKey = (authorId: string) => ["/api/authors", authorId, "follow"] as const;
const FOLLOWING_KEY = [FOLLOWING_API] as const;

/** Whether the reader follows the author; for the author themself, how many readers follow them. Not asked while `enabled` is false. */
export function useFollowState(authorId: string, enabled: boolean): UseQueryResult<FollowState> {
  return useQuery<FollowState>({ queryKey: followStateKey(authorId), enabled });
}

/** Follows or unfollows; the home's row of new books is read again. */
export function useFollowAuthor(authorId: string, authorName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (follow: boolean) => (await (await apiRequest(follow ? "PUT" : "DELETE", followApi(authorId))).json()) as FollowState,
    onSuccess: (state) => {
      queryClient.setQueryData(followStateKey(authorId), state);
      void queryClient.invalidateQueries({ queryKey: FOLLOWING_KEY });
      toast({ title: i18n.t(state.following ? "follow.followed" : "follow.unfollowed", { author: authorName }) });
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return;
      toast({ variant: "destructive", title: errorText(error, "errors.generic") });
    },
  });
}

/** What is new from the authors the reader follows (GET /api/following), newest first. */
export function useFollowingItems(enabled = true): UseQueryResult<FollowingItem[]> {
  return useQuery<FollowingItem[]>({ queryKey: FOLLOWING_KEY, enabled });
}
