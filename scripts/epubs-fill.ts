import { fillWordEpubs } from "../server/books/word-epubs.ts";
import { runOverBooks } from "./run-command.ts";

/**
 * `npm run epubs:fill`: makes the EPUB of every live Word book uploaded before Plume made them (or whose
 * EPUB carries an old cover), and records the KOReader id of every live book's editions' own files that lack one
 * (docs/decisions/0096, docs/product.md#epub). Run it again and it finds nothing left to do; a file that
 * cannot be converted is named, remembered and not tried again. On the embedded database the server
 * must be stopped (it holds the data folder).
 */
runOverBooks("epubs:fill", async ({ config, db, store }) => {
  const tally = await fillWordEpubs({ db, store, limits: config.wordViews.limits }, (line) => console.log(line));
  console.log(
    tally.seen === 0 && tally.documentIds === 0
      ? "Every Word book already has its EPUB, and every book its KOReader id."
      : `${tally.seen} Word books looked at: ${tally.made} EPUBs made, ${tally.failed} not convertible; ${tally.documentIds} KOReader ids recorded.`,
  );
  return tally.failed > 0 ? 2 : 0;
});
