import { inIdPages } from "../db/id-pages.ts";
import { rm, stat } from "node:fs/promises";
import type { BookLanguage } from "../../shared/books.ts";
import type { Db } from "../db/client.ts";
import type { FileStore } from "../storage/file-store.ts";
import { CagedJobError, type CageLimits, bundledChild, runCagedWhenIdle } from "../system/caged-job.ts";
import { logger } from "../system/logger.ts";
import type { RequestPressure } from "../system/request-pressure.ts";
import { BackgroundBookQueue, RESUME_WINDOW_MS } from "../system/background-book-queue.ts";
import { saveBookDocument } from "./book-documents-repository.ts";
import { derivedNamesOf } from "./book-files.ts";
import { storedCoverName } from "./cover-images.ts";
import { extensionOf } from "./file-types.ts";
import { partialMd5 } from "./partial-md5.ts";
import { authorDisplayName } from "./present-book.ts";
import { epubIdentifierOf } from "./word-epub.ts";
import type { WordEpubAnswer, WordEpubJob } from "./word-epub-process.ts";
import {
  type BookForEpub,
  findBookNeedingEpub,
  listEditionsLackingDocumentId,
  listBooksNeedingEpub,
  setEpubFailed,
  setEpubOfLiveBook,
} from "./word-epubs-repository.ts";

/**
 * Raised when the EPUB's making changes (the conversion it shares with the reading view, or word-epub.ts):
 * books an older converter could not make an EPUB of are tried again (docs/decisions/0096).
 */
export const WORD_EPUB_CONVERTER_VERSION = 1;

const WORD_EPUB_PROCESS = bundledChild("server/books/word-epub-process.ts", import.meta.url.endsWith(".ts"));

export interface WordEpubDeps {
  db: Db;
  store: FileStore;
  /** The cage's caps: the reading view's, as the conversion is the same (docs/decisions/0051). */
  limits: CageLimits;
}

export type EpubOutcome =
  | { kind: "made"; size: number; chapters: number; images: number; ms: number; cpuSeconds: number; maxRssBytes: number }
  | { kind: "failed"; reason: string }
  /** Made already of the book as it is, failed before, deleted, or not a Word book. */
  | { kind: "not-needed" };

/** The cover's stored file an EPUB carries, if the book has one that is still stored. */
async function coverFileOf(store: FileStore, coverUrl: string | null): Promise<string | null> {
  const name = storedCoverName(coverUrl);
  return name && (await store.has("covers", name)) ? name : null;
}

/**
 * Makes (or makes again) a Word book's EPUB if it needs one, in the cage once no reader waits for it,
 * stores it beside the book and sets its size and KOReader id. A conversion that fails is remembered in
 * the book's row; one stopped or past the clock's cap (a busy machine) is not, and is tried again.
 */
export async function makeWordEpub(deps: WordEpubDeps, bookId: number, signal?: AbortSignal): Promise<EpubOutcome> {
  const { db, store } = deps;
  const book = await findBookNeedingEpub(db, bookId, WORD_EPUB_CONVERTER_VERSION);
  if (!book) return { kind: "not-needed" };
  const outputPath = store.temp.newPath();
  const started = performance.now();
  try {
    const coverFile = await coverFileOf(store, book.coverImageUrl);
    let made;
    try {
      made = await store.withLocalFile("books", book.filePath, (path) =>
        coverFile
          ? store.withLocalFile("covers", coverFile, (coverPath) => convert(deps, book, path, coverPath, outputPath, signal))
          : convert(deps, book, path, null, outputPath, signal),
      );
    } catch (error) {
      if (!(error instanceof CagedJobError) || error.failure === "stopped" || error.failure === "timeout") throw error;
      await setEpubFailed(db, book.id, WORD_EPUB_CONVERTER_VERSION);
      logger.warn({ component: "word-epubs", bookId, failure: error.failure, reason: error.message }, "no EPUB can be made of this Word book");
      return { kind: "failed", reason: `${error.failure}: ${error.message}` };
    }
    const { size } = await stat(outputPath);
    const documentId = await partialMd5(outputPath);
    const name = derivedNamesOf(book.filePath).epub;
    await store.keepAs(outputPath, "views", name);
    const live = await db.transaction(async (tx) => {
      // What it was made of, not what the row says now: an edit meanwhile makes it needed again.
      if (!(await setEpubOfLiveBook(tx, book.id, book.filePath, size, { title: book.title, language: book.language, coverUrl: coverFile ? book.coverImageUrl : null }))) return false;
      await saveBookDocument(tx, book.id, "epub", book.edition, documentId);
      return true;
    });
    // A book deleted, or given a new edition, meanwhile keeps no EPUB of this file.
    if (!live) {
      await store.remove("views", name);
      return { kind: "not-needed" };
    }
    const outcome = { kind: "made" as const, size, ...made.answer, ms: Math.round(performance.now() - started), cpuSeconds: made.cpuSeconds, maxRssBytes: made.maxRssBytes };
    logger.info(
      { component: "word-epubs", bookId, size, chapters: outcome.chapters, images: outcome.images, ms: outcome.ms, cpuSeconds: Math.round(made.cpuSeconds * 10) / 10, maxRssMegabytes: Math.round(made.maxRssBytes / 2 ** 20) },
      "EPUB made",
    );
    return outcome;
  } finally {
    await rm(outputPath, { force: true });
  }
}

function convert(deps: WordEpubDeps, book: BookForEpub, path: string, coverPath: string | null, outputPath: string, signal: AbortSignal | undefined) {
  const job: WordEpubJob = {
    path,
    kind: extensionOf(book.filePath) === "docx" ? "docx" : "doc",
    outputPath,
    coverPath,
    title: book.title,
    creator: authorDisplayName(book),
    language: book.language as BookLanguage,
    identifier: epubIdentifierOf(book.filePath),
    modified: new Date().toISOString(),
  };
  return runCagedWhenIdle<WordEpubJob, WordEpubAnswer>(WORD_EPUB_PROCESS, job, deps.limits, signal);
}

/** Books read at a time by `npm run epubs:fill`. */
const BATCH = 100;

/**
 * Word books get their EPUB here after their upload commits, and again when their title, language or
 * cover changes (docs/decisions/0096), each once the cage is free too, so that readers' reading views
 * go first. At start the queue takes up the recently changed Word books whose EPUB is missing or
 * carries an old title, language or cover; older ones are `npm run epubs:fill`'s.
 */
export class EpubQueue extends BackgroundBookQueue {
  constructor(
    private readonly deps: WordEpubDeps,
    pressure: RequestPressure,
  ) {
    super(pressure, { component: "word-epubs", failed: "an EPUB could not be made now; the next start tries again" });
  }

  /** Queues the recently changed books a previous process left without their EPUB (or with an old one). */
  resume(now = new Date()): Promise<void> {
    const changedSince = new Date(now.getTime() - RESUME_WINDOW_MS);
    return this.resumeFrom((page) => listBooksNeedingEpub(this.deps.db, { ...page, converterVersion: WORD_EPUB_CONVERTER_VERSION, changedSince }));
  }

  protected async work(bookId: number, signal: AbortSignal): Promise<void> {
    await makeWordEpub(this.deps, bookId, signal);
  }
}

export interface EpubFillTally {
  seen: number;
  made: number;
  failed: number;
  documentIds: number;
}

/**
 * `npm run epubs:fill`: makes every live Word book's missing EPUB (or the one that carries an old
 * title, language or cover), and records the KOReader id of every live book's edition's own file that has
 * none (books uploaded before ids were kept, editions replaced before every edition's were). One at a
 * time; `report` says what became of each.
 */
export async function fillWordEpubs(deps: WordEpubDeps, report: (line: string) => void): Promise<EpubFillTally> {
  const tally: EpubFillTally = { seen: 0, made: 0, failed: 0, documentIds: 0 };
  for await (const editions of inIdPages((page) => listEditionsLackingDocumentId(deps.db, page), BATCH)) {
    for (const edition of editions) {
      if (!(await deps.store.has("books", edition.filePath))) {
        report(`Book ${edition.bookId}, edition ${edition.number}: its file is missing, no document id`);
        continue;
      }
      const documentId = await deps.store.withLocalFile("books", edition.filePath, (path) => partialMd5(path));
      await saveBookDocument(deps.db, edition.bookId, "file", edition.number, documentId);
      tally.documentIds += 1;
    }
  }
  for await (const books of inIdPages((page) => listBooksNeedingEpub(deps.db, { ...page, converterVersion: WORD_EPUB_CONVERTER_VERSION }), BATCH)) {
    for (const book of books) {
      tally.seen += 1;
      const outcome = await makeWordEpub(deps, book.id).catch((error: unknown) => ({ kind: "failed" as const, reason: (error as Error).message }));
      if (outcome.kind === "made") tally.made += 1;
      if (outcome.kind === "failed") tally.failed += 1;
      report(
        `Book ${book.id} "${book.title}": ${
          outcome.kind === "made"
            ? `EPUB made, ${outcome.chapters} ${outcome.chapters === 1 ? "chapter" : "chapters"}, ${(outcome.size / 1024).toFixed(0)} KB`
            : outcome.kind === "failed"
              ? `no EPUB (${outcome.reason})`
              : "nothing to do"
        }`,
      );
    }
  }
  return tally;
}
