import { fillFingerprints } from "../server/books/fingerprints-fill.ts";
import { siteOriginOf } from "../server/http/site-origin.ts";
import { runOverBooks } from "./run-command.ts";

/**
 * `npm run fingerprints:fill`: hashes and fingerprints every live book uploaded before copies were
 * checked (docs/decisions/0091), so that new uploads are compared with them too; a book whose text
 * matches an older book of another account gets Plume's own notice in the admin's queue. Run it again
 * and it finds nothing left to do. The server does not wait for it; on the embedded database the
 * server must be stopped while it runs (it holds the data folder).
 */
runOverBooks("fingerprints:fill", async ({ config, db, store }) => {
  const origin = siteOriginOf(config, config.port);
  const tally = await fillFingerprints({ db, store, origin }, (bookId, title, outcome) => {
    const what =
      outcome.kind === "missing"
        ? "its file is missing: skipped"
        : [
            outcome.wordCount === null ? "text not readable: not fingerprinted" : outcome.fingerprinted ? `fingerprinted (${outcome.wordCount} words)` : `too little text (${outcome.wordCount} words): not fingerprinted`,
            outcome.copyOf ? `about ${Math.round(outcome.copyOf.similarity * 100)}% the same text as book ${outcome.copyOf.bookId}: notice filed` : null,
          ]
            .filter(Boolean)
            .join(", ");
    console.log(`Book ${bookId} "${title}": ${what}`);
  });
  console.log(
    tally.seen === 0
      ? "Every book already has its hash and fingerprint."
      : `${tally.seen} books looked at: ${tally.fingerprinted} fingerprinted, ${tally.copies} near copies of older books sent to the admin's queue, ${tally.missing} files missing.`,
  );
  return 0;
});
