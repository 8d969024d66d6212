import { DEFAULT_LANGUAGE } from "../../shared/languages.ts";
import type { BookCardRow } from "../books/books-repository.ts";
import type { Queryable } from "../db/client.ts";
import { AnswerCache } from "./answer-cache.ts";
import { type CatalogRequest, readCardRevision } from "./catalog-repository.ts";
import { listCatalogPage } from "./search-rankings.ts";

/**
 * What a database handle keeps of the catalog's answers (docs/decisions/0077): 256 pages of 20
 * cards are about 4 MB of JSON; a counted download shows on a kept page within 5 s.
 */
export const CATALOG_ANSWER_LIMITS = { entries: 256, bytes: 4 * 1024 * 1024, ttlMs: 5_000 };

const answersOf = new WeakMap<Queryable, AnswerCache<BookCardRow[]>>();

/**
 * What makes two catalog requests the same answer: the query as validated (defaults filled in,
 * the search trimmed), and the reader's language only where it orders the page (titles).
 */
export function catalogAnswerKey(query: CatalogRequest): string {
  const { search, genre, language, sort, after, offset, limit } = query;
  const titleOrder = sort === "title" ? (query.readerLanguage ?? DEFAULT_LANGUAGE) : null;
  return JSON.stringify([search ?? null, genre ?? null, language ?? null, sort ?? null, titleOrder, after ?? null, offset, limit]);
}

/**
 * One page of the public catalog, the same for every caller, kept while the card revision has not
 * moved: one read of a one-row table per request, by this process or after a write by any other,
 * instead of the page's query. A kept page is shared: callers must not change it.
 */
export async function readCatalogPage(db: Queryable, query: CatalogRequest): Promise<readonly BookCardRow[]> {
  let answers = answersOf.get(db);
  if (!answers) {
    answers = new AnswerCache<BookCardRow[]>(CATALOG_ANSWER_LIMITS, (cards) => Buffer.byteLength(JSON.stringify(cards)));
    answersOf.set(db, answers);
  }
  const revision = await readCardRevision(db);
  return answers.get(catalogAnswerKey(query), revision, () => listCatalogPage(db, query));
}
