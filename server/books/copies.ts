import { bookPath } from "../../shared/book-urls.ts";
import type { Queryable } from "../db/client.ts";
import type { Book, User } from "../db/schema.ts";
import { conflict } from "../http/errors.ts";
import { composeCopyFacts } from "../mail/mail-texts.ts";
import type { DecisionAbout } from "../moderation/moderation-service.ts";
import { insertDecision, setBookModeration } from "../moderation/moderation-repository.ts";
import { insertNotice } from "../moderation/notices-repository.ts";
import { type FingerprintCandidate, findBooksSharingBands, findLiveBookWithFile, insertFingerprint } from "./copies-repository.ts";
import { COPY_SIMILARITY_THRESHOLD, type TextFingerprint, bandHashes, estimatedSimilarity } from "./text-fingerprints.ts";

/**
 * Copies caught at upload (docs/product.md#moderation, docs/decisions/0091): the same bytes as another
 * account's live book are refused; the same text under another name is published hidden, with Plume's
 * own notice in the admin's queue and a statement of reasons to its author.
 */

export const DUPLICATE_FILE = "duplicate_file";
export const DUPLICATE_OWN_FILE = "duplicate_own_file";

/**
 * Refuses an upload whose bytes are those of a live book (published, unpublished, hidden or removed: a
 * removed book's file must not come back under another account). The author's own copy is refused
 * too, with its own code: a second listing of one file would only split its readers and count them twice.
 * Older editions' files count as the books' own (docs/product.md#editions); a new edition of a book may
 * bring back one of its own older files (`exceptBookId`).
 */
export async function refuseExactCopy(db: Queryable, author: User, sha256: string, exceptBookId?: number): Promise<void> {
  const book = await findLiveBookWithFile(db, sha256, author.id, exceptBookId);
  if (!book) return;
  if (book.authorId === author.id) {
    throw conflict(DUPLICATE_OWN_FILE, `You already published this file as "${book.title}" (book ${book.id}): edit that book instead.`, { file: "upload.fileDuplicateOwn" });
  }
  // The other book is not named: it may be unpublished, or removed.
  throw conflict(DUPLICATE_FILE, "This file is already on Plume, uploaded by another account: only its rights holder may publish it.", { file: "upload.fileDuplicate" });
}

export interface CopyFound {
  original: FingerprintCandidate;
  similarity: number;
}

/**
 * Keeps the new book's fingerprint and answers the other account's book its text is closest to, when
 * their estimated similarity reaches COPY_SIMILARITY_THRESHOLD. Candidates come from the LSH bands;
 * each is confirmed on its whole signature.
 */
export async function fingerprintAndCompare(tx: Queryable, book: Pick<Book, "id" | "authorId">, fingerprint: TextFingerprint | null): Promise<CopyFound | null> {
  const bands = fingerprint?.signature ? bandHashes(fingerprint.signature) : [];
  let found: CopyFound | null = null;
  // An original is older than its copy: a book fingerprinted late (`npm run fingerprints:fill`) is compared with those uploaded before it.
  const older = (await findBooksSharingBands(tx, bands, book.authorId)).filter((candidate) => candidate.bookId < book.id);
  for (const candidate of older) {
    const similarity = estimatedSimilarity(fingerprint!.signature!, candidate.signature);
    if (similarity >= COPY_SIMILARITY_THRESHOLD && (!found || similarity > found.similarity)) found = { original: candidate, similarity };
  }
  await insertFingerprint(tx, book.id, fingerprint, bands);
  return found;
}

/**
 * Hides a book found to be a near copy, on Plume's automated check: the decision (its facts in the
 * author's language), the book's state, and a notice from Plume itself in the admin's queue, which
 * names the original for the admin to compare. The caller mails the decision once committed.
 */
export async function hideAsCopy(tx: Queryable, { book, author, copy, origin, at }: { book: Book; author: User; copy: CopyFound; origin: string; at: Date }): Promise<DecisionAbout> {
  const { original, similarity } = copy;
  const originalPublic = original.isPublished && original.moderationState === null;
  const decision = await insertDecision(tx, {
    action: "hide",
    bookId: book.id,
    accountId: author.id,
    ground: "terms-not-own-work",
    basis: "automated",
    facts: composeCopyFacts(author.language, { similarity, originalTitle: originalPublic ? original.title : null }),
    decidedBy: null,
    createdAt: at,
  });
  await setBookModeration(tx, book.id, "hidden", decision.id);
  await fileCopyNotice(tx, { book, copy, origin, at, hidden: true });
  return { ...decision, bookTitle: book.title, settledNotices: [], cancelledAmount: "0.00" };
}

/**
 * Plume's own notice about a near copy, in the admin's queue (English, as the queue is read): the
 * original it matched, linked for the admin to compare, and whether the copy was published hidden (an
 * upload) or left listed (an older book `npm run fingerprints:fill` found, which the admin decides about).
 */
export async function fileCopyNotice(
  tx: Queryable,
  { book, copy, origin, at, hidden }: { book: Pick<Book, "id" | "title" | "authorId">; copy: CopyFound; origin: string; at: Date; hidden: boolean },
): Promise<void> {
  const { original, similarity } = copy;
  const outcome = hidden ? "The upload was published hidden." : "The book was uploaded before copies were checked and stays listed until you decide.";
  await insertNotice(tx, {
    category: "copyright",
    source: "automated",
    bookId: book.id,
    accountId: book.authorId,
    url: `${origin}${bookPath(book)}`,
    explanation: `Plume's automated check found that about ${Math.round(similarity * 100)}% of this book's text is the same as the text of book ${original.bookId} ("${original.title}") of another account. ${outcome}`,
    language: "en",
    originalWork: `${origin}${bookPath({ id: original.bookId, title: original.title })}`,
    rightsHolder: `the account ${original.authorId}`,
    sworn: false,
    createdAt: at,
  });
}
