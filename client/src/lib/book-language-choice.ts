import type { BookLanguage } from "@shared/books";
import { isBookLanguage } from "@shared/catalog-address";
import { choiceCookie, cookieValue } from "@shared/cookies";
import { BOOK_LANGUAGE_COOKIE } from "@shared/first-screen-reads";
import { useSyncExternalStore } from "react";

/*
 * The book language a reader last chose in the catalog (docs/product.md#catalog-by-language): the
 * catalog opens in it and the home rows show it. It is kept in a cookie, not in local storage, so the
 * server preloads those lists in it too (server/http/first-screen-reads.ts).
 */

const listeners = new Set<() => void>();

function readChoice(): BookLanguage | undefined {
  const language = cookieValue(document.cookie, BOOK_LANGUAGE_COOKIE);
  return isBookLanguage(language) ? language : undefined;
}

/** Keeps `language` as the reader's choice, or forgets the choice (every language) with undefined. */
export function chooseBookLanguage(language: BookLanguage | undefined): void {
  if (language === readChoice()) return;
  document.cookie = choiceCookie(BOOK_LANGUAGE_COOKIE, language);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The reader's chosen book language, undefined for every language; a choice made on another screen shows at once. */
export function useBookLanguageChoice(): BookLanguage | undefined {
  return useSyncExternalStore(subscribe, readChoice);
}
