import type { ModerationState } from "../../shared/moderation.ts";
import type { Book } from "../db/schema.ts";
import { type HttpError, forbidden, gone, notFound, unavailableForLegalReasons } from "../http/errors.ts";

/** Who is asking: the signed-in account (with its admin flag, server/accounts/passport.ts), or nobody. */
export type Viewer = Express.User | undefined;

/**
 * A published book that moderation does not restrict is everyone's to see; any other only its
 * author's and the admin's (docs/decisions/0020, docs/product.md#moderation).
 */
export function canSeeBook(book: Pick<Book, "isPublished" | "moderationState" | "authorId">, viewer: Viewer): boolean {
  return (book.isPublished && book.moderationState === null) || (viewer !== undefined && (viewer.id === book.authorId || viewer.isAdmin));
}

/**
 * What anyone else is told of a book they may not see: a removed book says it is gone, and why in
 * the status (410 for a breach of the terms, 451 on a legal ground, RFC 7725); an unpublished or
 * hidden one is the same 404 as an unknown id, so an id does not tell that a book is behind it.
 */
export function unseenBookError(book: Pick<Book, "moderationState"> | undefined): HttpError {
  if (book?.moderationState === "removed-terms") return gone("This book was removed for a breach of Plume's terms.");
  if (book?.moderationState === "removed-legal") return unavailableForLegalReasons("This book was removed on a legal ground.");
  return notFound("This book does not exist.");
}

const RESTRICTED_FILE: Record<ModerationState, string> = {
  hidden: "This book is hidden while it is under review: it cannot be downloaded or read.",
  "removed-terms": "This book was removed for a breach of Plume's terms: it cannot be downloaded or read.",
  "removed-legal": "This book was removed on a legal ground: it cannot be downloaded or read.",
};

/**
 * A book moderation restricts is taken (downloaded, read, sent to an e-reader) by the admin alone,
 * who reviews it; its author sees its page and its statement of reasons, not its file.
 */
export function authorizeTaking(book: Pick<Book, "moderationState">, viewer: Viewer): void {
  if (book.moderationState !== null && !viewer?.isAdmin) throw forbidden(RESTRICTED_FILE[book.moderationState], "book_restricted");
}

/**
 * Whether explicit books are shown to this viewer: a signed-in reader who chose to see them in their
 * settings (or an e-reader key of theirs); never a visitor (docs/product.md#content-ratings).
 */
export function showsExplicit(viewer: Viewer): boolean {
  return viewer?.showExplicit === true;
}

/** A book this viewer is shown in lists and may take: not explicit, or they chose to see explicit books, or it is theirs, or they are the admin. */
export function isRatingShownTo(book: Pick<Book, "contentRating" | "authorId">, viewer: Viewer): boolean {
  return book.contentRating !== "explicit" || showsExplicit(viewer) || viewer?.isAdmin === true || viewer?.id === book.authorId;
}

/**
 * An explicit book's file is taken only by a reader who chose to see explicit books, its author and
 * the admin; its page still answers, and the app shows its notice first (docs/decisions/0092).
 */
export function authorizeExplicitTaking(book: Pick<Book, "contentRating" | "authorId">, viewer: Viewer): void {
  if (isRatingShownTo(book, viewer)) return;
  throw forbidden("This book is rated explicit: sign in and choose to see explicit books in your settings to download or read it.", "explicit_not_chosen");
}

/** A book is changed or withdrawn by its author alone; not even the admin edits someone's book (docs/product.md#books). */
export function authorizeBookChange(caller: Pick<Express.User, "id">, book: Pick<Book, "authorId">): void {
  if (book.authorId !== caller.id) throw forbidden("Only the author can change this book.");
}
