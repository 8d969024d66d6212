import type { FollowingItem } from "../../shared/follows.ts";
import { presentBook } from "../books/present-book.ts";
import type { FollowedBookRow, NewEditionRow } from "./follows-repository.ts";

/** One entry of what is new from followed authors: a book, or a new edition with its number. */
export function presentFollowingItem(row: FollowedBookRow | NewEditionRow): FollowingItem {
  const { at, ...book } = row;
  return {
    kind: "editionNumber" in row ? "edition" : "book",
    at: at.toISOString(),
    edition: "editionNumber" in row ? row.editionNumber : null,
    book: presentBook(book),
  };
}
