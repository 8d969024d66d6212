import { findPublicAccount } from "../accounts/accounts-service.ts";
import { findPublicBook, listPublicBooksOfAuthor } from "../books/books-service.ts";
import { presentAuthor, presentBook } from "../books/present-book.ts";
import type { Queryable } from "../db/client.ts";
import type { AuthorProfile } from "../../shared/page-meta.ts";
import type { BookPageBook } from "./head-tags.ts";

/**
 * What the public pages of books and authors show (docs/product.md#book-pages): only what a visitor
 * may see, whoever asks. One query for a book, two for an author.
 */

/** A book's page, or the status of its absence: 404, or 410 and 451 for a book moderation removed (docs/product.md#moderation). */
export async function readBookPage(db: Queryable, id: number): Promise<{ book: BookPageBook } | { status: number }> {
  const found = await findPublicBook(db, id);
  if ("unseen" in found) return { status: found.unseen.status };
  return { book: { ...presentBook(found.book), mimeType: found.book.mimeType } };
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
