import type { AuthorStats } from "../../shared/books.ts";
import { findOpenAccount } from "../accounts/users-repository.ts";
import type { Queryable } from "../db/client.ts";
import { notFound } from "../http/errors.ts";
import { countAuthorDownloadsByMonth, sumAuthorDownloads } from "./downloads-repository.ts";

const MONTHS_SHOWN = 12;

/** The 12 "YYYY-MM" months ending with the month of `now` (UTC), oldest first. */
export function lastMonths(now: Date, count = MONTHS_SHOWN): string[] {
  return Array.from({ length: count }, (_, index) => {
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (count - 1 - index), 1));
    return month.toISOString().slice(0, 7);
  });
}

export async function readAuthorStats(db: Queryable, authorId: string, now: Date): Promise<AuthorStats> {
  if (!(await findOpenAccount(db, authorId))) throw notFound("This author does not exist.");
  const months = lastMonths(now);
  const since = new Date(`${months[0]}-01T00:00:00Z`);
  const [totalDownloads, counts] = await Promise.all([
    sumAuthorDownloads(db, authorId),
    countAuthorDownloadsByMonth(db, authorId, since),
  ]);
  const byMonth = new Map(counts.map((row) => [row.month, row.downloads]));
  return { totalDownloads, monthlyDownloads: months.map((month) => ({ month, downloads: byMonth.get(month) ?? 0 })) };
}
