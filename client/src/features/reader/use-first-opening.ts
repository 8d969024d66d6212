import { useEffect, useState } from "react";
import { readPreference, writePreference } from "@/features/reader/reader-preferences";

/** The books whose counting notice this browser has shown in full; the oldest are forgotten past this many. */
const NOTICES_KEY = "plume.reader.noticesShown";
const NOTICES_KEPT = 200;
function noticesShown(): number[] {
  const parse = (stored: string) => {
    const ids: unknown = JSON.parse(stored);
    return Array.isArray(ids) ? ids.filter((id): id is number => typeof id === "number") : undefined;
  };
  return readPreference(NOTICES_KEY, parse) ?? [];
}

/**
 * Whether the counting notice opens by itself: at the first opening of a book in this browser, the
 * one that counts (docs/product.md#reading). Later it is one tap away, behind the information button.
 */
export function useFirstOpening(bookId: number): boolean {
  const [first] = useState(() => !noticesShown().includes(bookId));
  useEffect(() => {
    const shown = noticesShown();
    if (first && !shown.includes(bookId)) writePreference(NOTICES_KEY, JSON.stringify([...shown, bookId].slice(-NOTICES_KEPT)));
  }, [bookId, first]);
  return first;
}
