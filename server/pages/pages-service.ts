import { findPublicAccount } from "../accounts/accounts-service.ts";
import { findPublicBook, listPublicBooksOfAuthor } from "../books/books-service.ts";
import { presentAuthor, presentBook } from "../books/present-book.ts";
import type { Queryable } from "../db/client.ts";
import type { AuthorProfile } from "../../shared/page-meta.ts";
import type { BookPageBook, StructuredReview } from "./head-tags.ts";
import { REVIEWS_IN_STRUCTURED_DATA } from "../../shared/reviews.ts";
import { listTopReviews } from "../ratings/reviews-repository.ts";
import { readerName } from "../ratings/reviews-service.ts";
import type { PublicReader } from "../../shared/shelves.ts";
import { readerParamsSchema } from "../../shared/shelf-schemas.ts";
import { HttpError } from "../http/errors.ts";
import { readPublicReader } from "../shelves/shelves-service.ts";

/**
 * What the public pages of books and authors show (docs/product.md#book-pages): only what a visitor
 * may see, whoever asks. One query for a book, two for an author.
 */

/** A book's page, or the status of its absence: 404, or 410 and 451 for a book moderation removed (docs/product.md#moderation). */
export async function readBookPage(db: Queryable, id: number): Promise<{ book: BookPageBook; reviews: StructuredReview[] } | { status: number }> {
  const found = await findPublicBook(db, id);
  if ("unseen" in found) return { status: found.unseen.status };
  // The few most helpful reviews for the page's structured data (docs/product.md#reviews); none asked for an unrated book.
  const reviews = found.book.reviewCount > 0 ? await listTopReviews(db, found.book.id, REVIEWS_IN_STRUCTURED_DATA) : [];
  return {
    book: { ...presentBook(found.book), mimeType: found.book.mimeType },
    reviews: reviews.map((review) => ({ author: readerName(review), rating: review.rating, body: review.comment ?? "", createdAt: review.createdAt.toISOString() })),
  };
}

/**
 * An author's public profile, or undefined when the account has no book this reader can see: a reader who
 * never published keeps their name to themselves, and an unknown id tells nothing more. Explicit books
 * count only for a reader who chose to see them (docs/product.md#content-ratings).
 */
export async function readAuthorProfile(db: Queryable, authorId: string, showExplicit: boolean): Promise<AuthorProfile | undefined> {
  const [account, books] = await Promise.all([findPublicAccount(db, authorId), listPublicBooksOfAuthor(db, authorId, showExplicit)]);
  const first = books[0];
  if (!account || !first) return undefined;
  return {
    author: presentAuthor(first),
    memberSince: account.memberSince.toISOString(),
    totalDownloads: books.reduce((sum, book) => sum + book.downloadCount, 0),
    books: books.map(presentBook),
  };
}

/**
 * A reader's public shelves as a visitor sees them, for the page's head; undefined when the address is
 * malformed or the shelves are not shown (off, unknown, suspended, deleted: docs/product.md#shelves).
 */
export async function readPublicReaderPage(db: Queryable, segment: string): Promise<PublicReader | undefined> {
  let username: string;
  try {
    username = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  const parsed = readerParamsSchema.safeParse({ username });
  if (!parsed.success) return undefined;
  try {
    return await readPublicReader(db, parsed.data.username, undefined);
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return undefined;
    throw error;
  }
}
