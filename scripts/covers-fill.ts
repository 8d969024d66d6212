import { fillBooksLackingCover } from "../server/books/covers-service.ts";
import { runOverBooks } from "./run-command.ts";

/**
 * `npm run covers:fill`: gives every live book uploaded before covers were made its cover (a PDF's
 * first page, or its typographic cover when that page does not work as a cover; a Word book's
 * typographic cover) and a PDF its page count (docs/product.md#covers).
 * Run it again and it finds nothing left to do; a PDF that cannot be opened is named and keeps the
 * placeholder. On the embedded database the server must be stopped (it holds the data folder).
 */
runOverBooks("covers:fill", async ({ db, store }) => {
  const tally = await fillBooksLackingCover({ db, store }, (bookId, title, outcome) => {
    const what =
      outcome.kind === "gone"
        ? "deleted meanwhile"
        : outcome.kind === "unreadable"
          ? `not readable as a PDF (${outcome.reason}): keeps the placeholder`
          : [
              { "first-page": "cover from its first page", generated: "typographic cover", kept: "cover kept" }[outcome.cover],
              outcome.pageCount === null ? null : `${outcome.pageCount} ${outcome.pageCount === 1 ? "page" : "pages"}`,
            ]
              .filter(Boolean)
              .join(", ");
    console.log(`Book ${bookId} "${title}": ${what}`);
  });
  console.log(
    tally.seen === 0
      ? "Every book already has its cover and, for a PDF, its page count."
      : `${tally.seen} books looked at: ${tally.covers} covers made, ${tally.pageCounts} page counts read, ${tally.unreadable} PDFs not readable.`,
  );
  return tally.unreadable > 0 ? 2 : 0;
});
