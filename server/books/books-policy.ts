import type { Book } from "../db/schema.ts";
import { forbidden } from "../http/errors.ts";

/** Who is asking: the signed-in account (with its admin flag, server/accounts/passport.ts), or nobody. */
export type Viewer = Express.User | undefined;

/**
 * A published book is everyone's to see; an unpublished one only its author's and the admin's
 * (docs/decisions/0020). For anyone else it does not exist: the answer is the same 404 as for an
 * unknown id, so an id does not tell that a hidden book is behind it.
 */
export function canSeeBook(book: Pick<Book, "isPublished" | "authorId">, viewer: Viewer): boolean {
  return book.isPublished || (viewer !== undefined && (viewer.id === book.authorId || viewer.isAdmin));
}

/** A book is changed or withdrawn by its author alone; not even the admin edits someone's book (docs/product.md#books). */
export function authorizeBookChange(caller: Pick<Express.User, "id">, book: Pick<Book, "authorId">): void {
  if (book.authorId !== caller.id) throw forbidden("Only the author can change this book.");
}
