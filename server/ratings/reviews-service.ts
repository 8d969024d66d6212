import type { BookRating } from "../../shared/books.ts";
import {
  type HelpfulState,
  type PublicReview,
  type ReviewListQuery,
  type ReviewPage,
  type ReviewViewer,
  REVIEWS_PAGE_SIZE,
  type RatingChange,
  type ReplyInput,
  type ReviewInput,
  reviewSchema,
  replySchema,
} from "../../shared/reviews.ts";
import type { Db, Queryable } from "../db/client.ts";
import { type Viewer, canSeeBook, unseenBookError } from "../books/books-policy.ts";
import { findVisibleBook } from "../books/books-service.ts";
import { lockLiveBook, refreshRating } from "../books/books-repository.ts";
import { hasDownloadedBefore } from "../downloads/downloads-repository.ts";
import { conflict, noReview, notRated, reviewNotFound } from "../http/errors.ts";
import { MODERATION_CONFLICT, type ReviewModerationInput, reviewDecisionAction } from "../../shared/moderation.ts";
import type { DecisionAbout } from "../moderation/moderation-service.ts";
import { insertDecision } from "../moderation/moderation-repository.ts";
import { type NoticeRow, closeOpenNotices } from "../moderation/notices-repository.ts";
import { type OutcomeMailing, mailNoticeOutcomes, noticeSubjects } from "../moderation/notices-service.ts";
import { authorizeRating } from "./ratings-policy.ts";
import { authorizeHelpfulVote, authorizeOwnRatingChange, authorizeReply, authorizeReview } from "./reviews-policy.ts";
import {
  type ListedReview,
  type LockedReview,
  type ReviewRow,
  addHelpfulVote,
  clearReviewText,
  countBookReviews,
  deleteReview,
  findListedReview,
  findOwnReview,
  insertRating,
  listBookReviews,
  lockReviewWithBook,
  removeHelpfulVote,
  updateReview,
} from "./reviews-repository.ts";

/** How a review names its writer: their full name, else their username (never their e-mail address). */
export const readerName = (row: { firstName: string | null; lastName: string | null; username: string }): string =>
  [row.firstName, row.lastName].map((part) => part?.trim()).filter(Boolean).join(" ") || row.username;

export function presentReview(row: ListedReview, viewerId: string | undefined): PublicReview {
  return {
    id: row.id,
    readerName: readerName(row),
    rating: row.rating,
    text: row.comment ?? "",
    createdAt: row.createdAt.toISOString(),
    editedAt: row.updatedAt?.toISOString() ?? null,
    reply: row.authorReply && row.authorRepliedAt ? { text: row.authorReply, at: row.authorRepliedAt.toISOString() } : null,
    helpfulCount: row.helpfulCount,
    votedHelpful: Boolean(row.votedHelpful),
    mine: row.userId === viewerId,
  };
}

const removedReview = () => conflict("review_removed", "This review was removed by moderation: it can no longer be changed.");

/** The book, locked, that the caller may see; 404 (or 410/451) otherwise. */
async function lockVisibleBook(tx: Queryable, bookId: number, caller: Express.User) {
  const book = await lockLiveBook(tx, bookId);
  if (!book || !canSeeBook(book, caller)) throw unseenBookError(book);
  return book;
}

async function ratingAfter(tx: Queryable, bookId: number): Promise<BookRating> {
  const updated = await refreshRating(tx, bookId);
  return { avgRating: Number(updated.rating), reviewCount: updated.reviewCount };
}

/** The reader changes their stars (docs/product.md#reviews); the average changes in the same transaction. */
export async function changeRating(db: Db, caller: Express.User, bookId: number, input: RatingChange, at: Date): Promise<BookRating> {
  return db.transaction(async (tx) => {
    const book = await lockVisibleBook(tx, bookId, caller);
    authorizeRating(caller, book);
    const own = await findOwnReview(tx, book.id, caller.id, { lock: true });
    if (!own) throw notRated();
    if (own.moderationDecisionId !== null) throw removedReview();
    if (own.rating !== input.rating) await updateReview(tx, own.id, { rating: input.rating, updatedAt: at });
    return ratingAfter(tx, book.id);
  });
}

/**
 * The open notices about reviews their writer is deleting, settled as such (docs/decisions/0111): nobody
 * decided, the review is simply gone. Answered with what each was about, read before the reviews go,
 * for their senders to be told.
 */
export async function settleNoticesAboutDeletedReviews(tx: Queryable, reviewIds: number[], at: Date): Promise<WriterDeletion> {
  const settled = await closeOpenNotices(tx, { reviewIds }, { status: "writer-deleted", facts: "The review was deleted by its writer.", decisionId: null, at });
  return { settled, subjects: await noticeSubjects(tx, settled) };
}

/** The notices a writer's deletion settled, and the name of what each was about. */
export interface WriterDeletion {
  settled: NoticeRow[];
  subjects: Map<number, string>;
}

/** Once a writer's deletion has committed: the senders of the notices it settled are told, in their language, that the review is gone and why. */
export async function tellReportersOfDeletion(db: Queryable, mailing: OutcomeMailing, { settled, subjects }: WriterDeletion): Promise<void> {
  if (settled.length > 0) await mailNoticeOutcomes(db, mailing, settled, "writer-deleted", subjects);
}

/** The reader takes back their rating, and the review written with it; the average changes in the same transaction. */
export async function removeRating(db: Db, caller: Express.User, bookId: number, at: Date): Promise<{ bookRating: BookRating; deletion: WriterDeletion }> {
  return db.transaction(async (tx) => {
    const book = await lockVisibleBook(tx, bookId, caller);
    authorizeOwnRatingChange(caller, book);
    const own = await findOwnReview(tx, book.id, caller.id, { lock: true });
    if (!own) throw notRated();
    if (own.moderationDecisionId !== null) throw removedReview();
    const deletion = await settleNoticesAboutDeletedReviews(tx, [own.id], at);
    await deleteReview(tx, own.id);
    return { bookRating: await ratingAfter(tx, book.id), deletion };
  });
}

/**
 * Writes the reader's one review of a book, with its stars, or changes it (docs/product.md#reviews):
 * only a reader who took the book, never its author. Words added to a rating given earlier make a
 * new review, dated now; a change to a review marks it edited.
 */
export async function writeReview(db: Db, caller: Express.User, bookId: number, input: ReviewInput, at: Date): Promise<{ review: PublicReview; bookRating: BookRating }> {
  const { rating, text } = reviewSchema.parse(input);
  const id = await db.transaction(async (tx) => {
    const book = await lockVisibleBook(tx, bookId, caller);
    authorizeReview(caller, book, await hasDownloadedBefore(tx, book.id, caller.id));
    const own = await findOwnReview(tx, book.id, caller.id, { lock: true });
    let row: ReviewRow;
    if (!own) row = await insertRating(tx, { bookId: book.id, userId: caller.id, rating, comment: text, createdAt: at });
    else if (own.moderationDecisionId !== null) throw removedReview();
    else if (own.comment === null) row = await updateReview(tx, own.id, { rating, comment: text, createdAt: at, updatedAt: null });
    else if (own.comment === text && own.rating === rating) row = own;
    else row = await updateReview(tx, own.id, { rating, comment: text, updatedAt: at });
    return { reviewId: row.id, bookRating: await ratingAfter(tx, book.id) };
  });
  const review = await findListedReview(db, id.reviewId, caller.id);
  return { review: presentReview(review!, caller.id), bookRating: id.bookRating };
}

/** The reader deletes their review's words (and so its reply and helpful votes); the stars stay. */
export async function deleteOwnReview(db: Db, caller: Express.User, bookId: number, at: Date): Promise<WriterDeletion> {
  return db.transaction(async (tx) => {
    const book = await lockVisibleBook(tx, bookId, caller);
    authorizeOwnRatingChange(caller, book);
    const own = await findOwnReview(tx, book.id, caller.id, { lock: true });
    if (!own || own.comment === null) throw noReview();
    if (own.moderationDecisionId !== null) throw removedReview();
    const deletion = await settleNoticesAboutDeletedReviews(tx, [own.id], at);
    await clearReviewText(tx, own.id, at);
    return deletion;
  });
}

/** What the caller may do on the book's reviews, and their own. */
async function viewerOf(db: Queryable, book: { id: number; authorId: string; isPublished: boolean }, caller: Express.User): Promise<ReviewViewer> {
  const isAuthor = book.authorId === caller.id;
  const own = isAuthor ? undefined : await findOwnReview(db, book.id, caller.id);
  const listed = own && own.comment !== null && own.moderationDecisionId === null ? await findListedReview(db, own.id, caller.id) : undefined;
  return {
    canRate: !isAuthor && book.isPublished,
    tookBook: !isAuthor && (await hasDownloadedBefore(db, book.id, caller.id)),
    isAuthor,
    rating: own && own.moderationDecisionId === null ? own.rating : 0,
    review: listed ? presentReview(listed, caller.id) : null,
  };
}

/** A page of a book's reviews (docs/product.md#reviews): newest or most helpful first; and what the caller may do. */
export async function readReviews(db: Queryable, bookId: number, query: ReviewListQuery, viewer: Viewer): Promise<ReviewPage> {
  const book = await findVisibleBook(db, bookId, viewer);
  const offset = (query.page - 1) * REVIEWS_PAGE_SIZE;
  const [rows, total, viewerState] = await Promise.all([
    listBookReviews(db, book.id, { sort: query.sort, offset, limit: REVIEWS_PAGE_SIZE + 1, viewerId: viewer?.id }),
    countBookReviews(db, book.id),
    viewer ? viewerOf(db, book, viewer) : Promise.resolve(null),
  ]);
  return {
    reviews: rows.slice(0, REVIEWS_PAGE_SIZE).map((row) => presentReview(row, viewer?.id)),
    total,
    page: query.page,
    hasMore: rows.length > REVIEWS_PAGE_SIZE,
    viewer: viewerState,
  };
}

/** A shown review, locked, of a book the caller may see; 404 otherwise. */
async function lockShownReview(tx: Queryable, reviewId: number, caller: Express.User) {
  const found = await lockReviewWithBook(tx, reviewId);
  if (!found || found.review.comment === null || found.review.moderationDecisionId !== null || !canSeeBook(found.book, caller)) throw reviewNotFound();
  return found;
}

/** The book's author replies to a review, once; writing again changes the reply (docs/product.md#reviews). */
export async function replyToReview(db: Db, caller: Express.User, reviewId: number, input: ReplyInput, at: Date): Promise<PublicReview> {
  const { text } = replySchema.parse(input);
  await db.transaction(async (tx) => {
    const { review, book } = await lockShownReview(tx, reviewId, caller);
    authorizeReply(caller, book);
    if (review.authorReply !== text) await updateReview(tx, review.id, { authorReply: text, authorRepliedAt: at });
  });
  return presentReview((await findListedReview(db, reviewId, caller.id))!, caller.id);
}

export async function deleteReply(db: Db, caller: Express.User, reviewId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const { review, book } = await lockShownReview(tx, reviewId, caller);
    authorizeReply(caller, book);
    if (review.authorReply === null) throw conflict("no_reply", "This review has no reply to delete.");
    await updateReview(tx, review.id, { authorReply: null, authorRepliedAt: null });
  });
}

/** "Helpful", once per reader and review, never on one's own; given or taken back. */
export async function voteHelpful(db: Db, caller: Express.User, reviewId: number, helpful: boolean): Promise<HelpfulState> {
  return db.transaction(async (tx) => {
    const { review } = await lockShownReview(tx, reviewId, caller);
    authorizeHelpfulVote(caller, review);
    const changed = helpful ? await addHelpfulVote(tx, review.id, caller.id) : await removeHelpfulVote(tx, review.id, caller.id);
    const delta = changed ? (helpful ? 1 : -1) : 0;
    return { helpfulCount: review.helpfulCount + delta, votedHelpful: helpful };
  });
}

/**
 * The admin removes or restores a review (docs/product.md#reviews, docs/decisions/0111), with a
 * statement of reasons kept as a moderation decision about its writer.
 */
export async function decideAboutReview(db: Db, admin: Express.User, reviewId: number, input: ReviewModerationInput, at: Date): Promise<DecisionAbout> {
  return db.transaction(async (tx) => {
    const found = await lockReviewWithBook(tx, reviewId);
    if (!found || found.review.comment === null) throw reviewNotFound();
    return applyReviewDecision(tx, found, input, admin.id, at);
  });
}

/**
 * Writes a decision about a locked review: the statement of reasons, the review's state (removed:
 * hidden everywhere and out of the book's average; restored: back in both), and for a removal the
 * notices it upholds. A removed review cannot be reported, so a restore finds none open to settle.
 */
export async function applyReviewDecision(tx: Queryable, { review, book }: LockedReview, input: ReviewModerationInput, decidedBy: string | null, at: Date): Promise<DecisionAbout> {
  const removed = review.moderationDecisionId !== null;
  if (input.action === "remove" && removed) throw conflict(MODERATION_CONFLICT, "This review is already removed.");
  if (input.action === "restore" && !removed) throw conflict(MODERATION_CONFLICT, "This review is not removed.");
  const decision = await insertDecision(tx, {
    action: reviewDecisionAction[input.action],
    bookId: book.id,
    reviewId: review.id,
    accountId: review.userId,
    ground: input.action === "remove" ? input.ground : null,
    basis: input.basis,
    facts: input.facts,
    decidedBy,
    createdAt: at,
  });
  await updateReview(tx, review.id, { moderationDecisionId: input.action === "remove" ? decision.id : null });
  await refreshRating(tx, book.id);
  const settledNotices =
    input.action === "remove" ? await closeOpenNotices(tx, { reviewIds: [review.id] }, { status: "actioned", facts: input.facts, decisionId: decision.id, at }) : [];
  return { ...decision, bookTitle: book.title, settledNotices, cancelledAmount: "0.00" };
}
