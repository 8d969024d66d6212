import type { Request } from "express";
import { isAdmin } from "../accounts/accounts-policy.ts";
import type { Queryable } from "../db/client.ts";
import type { Book, User } from "../db/schema.ts";
import { forbidden, notFound } from "../http/errors.ts";
import { type BookWithAuthor, findLiveBook } from "./books-repository.ts";

/** Who is asking: the signed-in account, if any, and the setting that makes an account the admin. */
export interface Viewer {
  user: User | undefined;
  adminEmail: string | undefined;
}

export const viewerOf = (req: Request, adminEmail: string | undefined): Viewer => ({ user: req.user, adminEmail });

/**
 * A published book is everyone's to see; an unpublished one only its author's and the admin's
 * (docs/decisions/0020). For anyone else it does not exist: the answer is the same 404 as for an
 * unknown id, so an id does not tell that a hidden book is behind it.
 */
export function canSeeBook(book: Pick<Book, "isPublished" | "authorId">, { user, adminEmail }: Viewer): boolean {
  return book.isPublished || (user !== undefined && (user.id === book.authorId || isAdmin(user, adminEmail)));
}

export async function findVisibleBook(db: Queryable, id: number, viewer: Viewer): Promise<BookWithAuthor> {
  const book = await findLiveBook(db, id);
  if (!book || !canSeeBook(book, viewer)) throw notFound("This book does not exist.");
  return book;
}

/** A book is changed or withdrawn by its author alone; not even the admin edits someone's book (docs/product.md#books). */
export function authorizeBookChange(caller: User, book: Pick<Book, "authorId">): void {
  if (book.authorId !== caller.id) throw forbidden("Only the author can change this book.");
}
