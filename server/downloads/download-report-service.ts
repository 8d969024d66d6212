import { type DownloadReport, type DownloadReportBook, type DownloadTally, type NotCountedReasonShown, emptyTally } from "../../shared/download-report.ts";
import { authorizeAccountRead } from "../accounts/accounts-policy.ts";
import { findOpenAccount } from "../accounts/users-repository.ts";
import type { Queryable } from "../db/client.ts";
import { notFound } from "../http/errors.ts";
import { lastMonths } from "./author-stats-service.ts";
import { type BookMonthTally, tallyAuthorDownloadsByBookMonth } from "./downloads-repository.ts";

function add(tally: DownloadTally, row: BookMonthTally): void {
  tally.logged += row.downloads;
  if (row.counted) tally.counted += row.downloads;
  else tally.notCounted[(row.reason ?? "unrecorded") satisfies NotCountedReasonShown] += row.downloads;
}

/**
 * An author's logged downloads per book and month, each counted or not counted with its reason, so the
 * figures add up (docs/product.md#what-authors-see): the author's own, and the admin's.
 */
export async function readDownloadReport(
  db: Queryable,
  caller: Express.User,
  authorId: string,
  months: number,
  now: Date,
): Promise<DownloadReport> {
  authorizeAccountRead(caller, authorId, "Only the author and the admin can see this report.");
  if (!(await findOpenAccount(db, authorId))) throw notFound("This author does not exist.");
  const covered = lastMonths(now, months);
  const rows = await tallyAuthorDownloadsByBookMonth(db, authorId, new Date(`${covered[0]}-01T00:00:00Z`));

  const books = new Map<number, DownloadReportBook & { byMonth: Map<string, DownloadTally & { month: string }> }>();
  for (const row of rows) {
    let book = books.get(row.bookId);
    if (!book) {
      book = { bookId: row.bookId, title: row.title, deleted: row.deleted, months: [], total: emptyTally(), byMonth: new Map() };
      books.set(row.bookId, book);
    }
    let month = book.byMonth.get(row.month);
    if (!month) {
      month = { month: row.month, ...emptyTally() };
      book.byMonth.set(row.month, month);
    }
    add(month, row);
    add(book.total, row);
  }
  return {
    months: covered,
    books: [...books.values()]
      .map(({ byMonth, ...book }) => ({ ...book, months: [...byMonth.values()].sort((a, b) => a.month.localeCompare(b.month)) }))
      .sort((a, b) => a.title.localeCompare(b.title) || a.bookId - b.bookId),
  };
}
