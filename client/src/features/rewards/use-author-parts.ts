import type { CurrentUser } from "@shared/auth";
import { useEffect, useState } from "react";
import { useAuthorPayments } from "@/features/rewards/use-author-payments";
import { useAuthorBooks } from "@/features/books";

const keptKey = (userId: string) => `plume.authorParts.${userId}`;

function readKept(userId: string): boolean {
  try {
    return localStorage.getItem(keptKey(userId)) === "shown";
  } catch {
    return false;
  }
}

export interface AuthorParts {
  /** Whether the screens show the author parts; undefined until the account's books and payments are known. */
  shown: boolean | undefined;
  /** The reader asks for them. */
  show: () => void;
  /** They appeared because the reader asked, just now: they take the focus from the button that is gone. */
  revealedByReader: boolean;
  /** Called once they took it, so that showing them again later (another tab and back) does not. */
  focusTaken: () => void;
}

/**
 * Readers first (docs/product.md#screens): the home and the dashboard show an account its author parts
 * (figures, payments, rewards and the wallet) once it has published, that is once it has a book, a
 * payment or downloads of a book since deleted, or once it asks to; from then on, in this browser, for
 * good (deleting one's only book does not take the dashboard away under one's feet). If either list
 * fails to load, the parts show, as they did for everyone before.
 */
export function useAuthorParts(user: CurrentUser): AuthorParts {
  const books = useAuthorBooks(user.id);
  const payments = useAuthorPayments(user.id);
  const [kept, setKept] = useState(() => readKept(user.id));
  const [revealedByReader, setRevealedByReader] = useState(false);
  // A failure is latched for the screen's life: the parts it shows read the same lists, and a new
  // reader of a failed query asks again (pending, no longer failed), which would hide them and so on.
  const [failed, setFailed] = useState(false);
  if ((books.isError || payments.isError) && !failed) setFailed(true);

  const published = books.data && payments.data ? books.data.length > 0 || payments.data.length > 0 || user.totalDownloads > 0 : undefined;
  // Kept from the first render that knows the account published (React's "adjusting state on a change").
  if (published && !kept) setKept(true);
  useEffect(() => {
    if (!kept) return;
    try {
      localStorage.setItem(keptKey(user.id), "shown");
    } catch {
      // Refused storage: the parts show until the screen is left.
    }
  }, [kept, user.id]);

  const show = () => {
    setKept(true);
    setRevealedByReader(true);
  };
  return { shown: kept || failed || published, show, revealedByReader, focusTaken: () => setRevealedByReader(false) };
}
