import type { CurrentUser } from "@shared/auth";
import { useEffect, useRef, useState } from "react";
import { useAuthorPayments } from "@/hooks/use-author-payments";
import { useAuthorBooks } from "@/hooks/use-books";

const askedKey = (userId: string) => `plume.authorParts.${userId}`;

function readAsked(userId: string): boolean {
  try {
    return localStorage.getItem(askedKey(userId)) === "shown";
  } catch {
    return false;
  }
}

export interface AuthorParts {
  /** Whether the screens show the author parts; undefined until the account's books and payments are known. */
  shown: boolean | undefined;
  /** The reader asked for them: kept in this browser, for this account. */
  show: () => void;
  /** For the element that holds the parts (with tabIndex -1): it takes the focus from the button that revealed it. */
  focusWhenRevealed: (element: HTMLElement | null) => void;
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
  const [asked, setAsked] = useState(() => readAsked(user.id));
  const justAsked = useRef(false);

  const failed = books.isError || payments.isError;
  const published = books.data && payments.data ? books.data.length > 0 || payments.data.length > 0 || user.totalDownloads > 0 : undefined;
  const keep = () => {
    setAsked(true);
    try {
      localStorage.setItem(askedKey(user.id), "shown");
    } catch {
      // Refused storage: the parts show until the screen is left.
    }
  };
  const show = () => {
    justAsked.current = true;
    keep();
  };
  useEffect(() => {
    if (published && !asked) keep();
  });
  const focusWhenRevealed = (element: HTMLElement | null) => {
    if (!element || !justAsked.current) return;
    justAsked.current = false;
    element.focus();
  };
  return { shown: asked || failed || published, show, focusWhenRevealed };
}
