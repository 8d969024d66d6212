import { z } from "zod";
import { rateSchema, wholeNumber } from "./book-schemas.ts";
import type { BookRating } from "./books.ts";

/**
 * Reviews (docs/product.md#reviews, docs/decisions/0103): a reader who took a book rates it and may
 * add words, one review per reader and book; its author may reply once; other readers find it helpful.
 */
export const REVIEW_TEXT_MIN = 20;
export const REVIEW_TEXT_MAX = 5_000;
export const REPLY_TEXT_MIN = 2;
export const REPLY_TEXT_MAX = 2_000;
export const REVIEWS_PAGE_SIZE = 10;
/** How far the list pages: a book with more reviews shows its first 500 pages of them, the most helpful or the newest. */
export const REVIEWS_MAX_PAGE = 500;
/** How many of the most helpful reviews the book page's JSON-LD names beside its aggregate rating. */
export const REVIEWS_IN_STRUCTURED_DATA = 3;

export const REVIEW_SORTS = ["newest", "helpful"] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];

/**
 * Plain text as the reader typed it, shown as text (never as HTML): line ends made "\n", control
 * characters but the line end and the tab dropped, trailing spaces of each line and more than one
 * blank line in a row removed, then trimmed.
 */
export function plainText(value: string): string {
  return (
    value
      .replace(/\r\n?/g, "\n")
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u2028\u2029]/g, "")
      .replace(/[ \t]+\n/g, "\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim()
  );
}

const plain = (min: number, max: number, tooShort: string, tooLong: string, required: string) =>
  z
    .string({ error: required })
    .transform(plainText)
    .pipe(z.string().min(min, tooShort).max(max, tooLong));

export const ratingValueSchema = rateSchema.shape.rating;

/** PUT /api/books/:id/rating: the reader's new stars. */
export const ratingChangeSchema = z.object({ rating: ratingValueSchema });
export type RatingChange = z.infer<typeof ratingChangeSchema>;

/** PUT /api/books/:id/review and the review form: the stars and the words. */
export const reviewSchema = z.object({
  rating: ratingValueSchema,
  text: plain(REVIEW_TEXT_MIN, REVIEW_TEXT_MAX, "validation.reviewTooShort", "validation.reviewTooLong", "validation.reviewRequired"),
});
export type ReviewInput = z.input<typeof reviewSchema>;

/** PUT /api/reviews/:id/reply and the author's reply form. */
export const replySchema = z.object({
  text: plain(REPLY_TEXT_MIN, REPLY_TEXT_MAX, "validation.replyTooShort", "validation.replyTooLong", "validation.replyRequired"),
});
export type ReplyInput = z.input<typeof replySchema>;

export const reviewIdSchema = z.object({ id: wholeNumber("validation.reviewIdInvalid").pipe(z.number().min(1, "validation.reviewIdInvalid")) });

/** GET /api/books/:id/reviews?sort=helpful&page=2. */
export const reviewListQuerySchema = z.object({
  sort: z.enum(REVIEW_SORTS, "validation.reviewSortInvalid").default("newest"),
  page: wholeNumber("validation.pageInvalid")
    .pipe(z.number().min(1, "validation.pageInvalid").max(REVIEWS_MAX_PAGE, "validation.pageInvalid"))
    .default(1),
});
export type ReviewListQuery = z.infer<typeof reviewListQuerySchema>;

/** A review as the book page shows it. */
export interface PublicReview {
  id: number;
  /** The writer's public name. */
  readerName: string;
  rating: number;
  text: string;
  createdAt: string;
  /** When the reader last changed the stars or the words; null while never changed. */
  editedAt: string | null;
  reply: { text: string; at: string } | null;
  helpfulCount: number;
  /** Whether the caller marked it helpful. */
  votedHelpful: boolean;
  /** Whether the caller wrote it. */
  mine: boolean;
}

/** What the caller may do on the book's reviews. */
export interface ReviewViewer {
  /** Signed in and not the book's author. */
  canRate: boolean;
  /** Took the book (downloaded, read, through OPDS or sent to an e-reader): may write a review. */
  tookBook: boolean;
  /** The book's author: may reply. */
  isAuthor: boolean;
  /** The caller's stars, 0 when none. */
  rating: number;
  /** The caller's own review, whatever the page shows. */
  review: PublicReview | null;
}

export interface ReviewPage {
  reviews: PublicReview[];
  /** Reviews with words, moderation's removals aside. */
  total: number;
  page: number;
  hasMore: boolean;
  viewer: ReviewViewer | null;
}

/** What changing the stars or the review answers: the book's rating after it. */
export type RatingAfter = BookRating;

export interface HelpfulState {
  helpfulCount: number;
  votedHelpful: boolean;
}

/** The codes of the refusals the review form tells the reader about in words of their own. */
export const REVIEW_ERROR_CODES = ["book_not_taken", "not_rated", "no_review", "review_not_found", "own_review", "already_replied"] as const;
