import type { AccountModerationInput, BookModerationInput, ModerationDecision, ModerationLogPage, ReviewModerationInput } from "@shared/moderation";
import type { NoticeGroup, SettledNotice } from "@shared/notices";
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api";

export const NOTICE_QUEUE_KEY = "/api/admin/notices";
const DECISION_LOG_PATH = "/api/admin/moderation/decisions";

/** The open notices, grouped by book and by author, the minors category first (docs/product.md#moderation). */
export function useNoticeQueue(): UseQueryResult<NoticeGroup[]> {
  return useQuery<NoticeGroup[]>({ queryKey: [NOTICE_QUEUE_KEY] });
}

/** One page of the log of every decision, newest first. */
export function useDecisionLog(page: number): UseQueryResult<ModerationLogPage> {
  return useQuery<ModerationLogPage>({ queryKey: [`${DECISION_LOG_PATH}?page=${page}`] });
}

/** What the admin decides from the queue or the log: about a book, an account or a review, or to dismiss one notice. */
export type ModerationTarget =
  | { kind: "book"; bookId: number; action: BookModerationInput["action"] }
  | { kind: "account"; accountId: string; action: AccountModerationInput["action"] }
  | { kind: "review"; reviewId: number; action: ReviewModerationInput["action"] }
  | { kind: "notice"; noticeId: number };

export type ModerationRequest = { target: ModerationTarget; body: BookModerationInput | AccountModerationInput | ReviewModerationInput | { facts: string } };

function requestOf({ target, body }: ModerationRequest): [string, unknown] {
  switch (target.kind) {
    case "book":
      return [`/api/admin/books/${target.bookId}/moderation`, body];
    case "account":
      return [`/api/admin/users/${target.accountId}/moderation`, body];
    case "review":
      return [`/api/admin/reviews/${target.reviewId}/moderation`, body];
    case "notice":
      return [`/api/admin/notices/${target.noticeId}/dismiss`, body];
  }
}

/**
 * Sends a decision; once it is taken, the queue, the log and every list a book's state shows in
 * (the admin's users and diagnostics, the catalog) are read again.
 */
export function useModerationDecision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: ModerationRequest): Promise<ModerationDecision | SettledNotice> => {
      const [url, body] = requestOf(request);
      return (await apiRequest("POST", url, body)).json() as Promise<ModerationDecision | SettledNotice>;
    },
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
