import type { DownloadReport } from "@shared/download-report";
import { useQuery, type UseQueryResult } from "@tanstack/react-query";

/**
 * The author's downloads per book and month with why each did or did not count, over the API's default
 * 12 months. Under "/api/authors", so a change to the author's books refreshes it with the rest; a
 * module of its own so that only the dashboard loads it.
 */
export function useDownloadReport(authorId: string): UseQueryResult<DownloadReport> {
  return useQuery<DownloadReport>({ queryKey: ["/api/authors", authorId, "download-report"] });
}
