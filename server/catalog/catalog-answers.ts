import { DEFAULT_LANGUAGE } from "../../shared/languages.ts";
import type { BookCardRow } from "../books/books-repository.ts";
import type { Queryable } from "../db/client.ts";
import { AnswerCache } from "./answer-cache.ts";
import { type CatalogRequest, readCardRevision } from "./catalog-repository.ts";
import { readAfterAsked } from "./fresh-for.ts";
import { listCatalogPage } from "./search-rankings.ts";

/**
 * What a database handle keeps of the catalog's answers (docs/decisions/0077): 256 pages of 20
 * cards are about 4 MB of JSON; a counted download shows on a kept page within 5 s.
 */
export const CATALOG_ANSWER_LIMITS = { entries: 256, bytes: 4 * 1024 * 1024, ttlMs: 5_000 };

interface KeptAnswers {
  answers: AnswerCache<BookCardRow[]>;
  /** The card revision, read once for all the requests that arrived while the last read was in flight. */
  readRevision: () => Promise<number>;
}
const keptOf = new WeakMap<Queryable, KeptAnswers>();

/**
 * What makes two catalog requests the same answer: the query as validated (defaults filled in,
 * the search trimmed), the reader's language only where it orders the page (titles), and whether
 * explicit books are shown, which the caller decides (docs/decisions/0092).
 */
export function catalogAnswerKey(query: CatalogRequest): string {
  const { search, genre, language, tag, sort, after, offset, limit, showExplicit } = query;
  const titleOrder = sort === "title" ? (query.readerLanguage ?? DEFAULT_LANGUAGE) : null;
  return JSON.stringify([search ?? null, genre ?? null, language ?? null, tag ?? null, sort ?? null, titleOrder, after ?? null, offset, limit, showExplicit]);
}

/**
 * One page of the public catalog, the same for every caller who sees explicit books alike. A page asked for the first time is
 * its query alone, as if nothing were kept (docs/decisions/0081). From its second ask it is kept while
 * the card revision has not moved: a read of a one-row table that started after the request arrived,
 * instead of the page's query, so that a write committed before it by this process or any other is
 * in the answer. On the embedded database that read alone took 0.6 to 0.9 ms of its one connection:
 * requests arriving together share one. A kept page is shared: callers must not change it.
 */
export async function readCatalogPage(db: Queryable, query: CatalogRequest): Promise<readonly BookCardRow[]> {
  let kept = keptOf.get(db);
  if (!kept) {
    kept = {
      answers: new AnswerCache<BookCardRow[]>(CATALOG_ANSWER_LIMITS, (cards) => Buffer.byteLength(JSON.stringify(cards))),
      readRevision: readAfterAsked(() => readCardRevision(db)),
    };
    keptOf.set(db, kept);
  }
  return kept.answers.get(catalogAnswerKey(query), kept.readRevision, () => listCatalogPage(db, query));
}
