import type { CatalogQuery } from "../../shared/book-schemas.ts";
import type { Queryable } from "../db/client.ts";
import type { BookCardRow } from "../books/books-repository.ts";
import { type CatalogRequest, listCardsInOrder, listCatalog, rankCatalogSearch } from "./catalog-repository.ts";
import { AskedBefore } from "./asked-before.ts";
import { toPrefixTsQuery } from "./catalog-search.ts";

/** How many of a search's best matches a ranking keeps: the first ten pages of the catalog. */
export const RANKED_BOOKS = 200;
/** How many searches a database handle keeps rankings for, the least recently asked going first; and how many asked once it remembers. */
const KEPT_SEARCHES = 500;

interface Ranking {
  /** The best matches, best first: all of them when fewer than RANKED_BOOKS. */
  ids: number[];
  /** The catalog revision it was ranked at (server/db/schema.ts, catalogRevision). */
  revision: number;
}

interface KeptRankings {
  rankings: Map<string, Promise<Ranking>>;
  askedBefore: AskedBefore;
}
const keptOf = new WeakMap<Queryable, KeptRankings>();

/**
 * One page of the public catalog. A search in relevance order scores every match in PostgreSQL
 * (44 ms for "cafe", 6,610 matches among 100,000 books), whichever of its pages is asked for; so the
 * ranking of a search asked again is kept, and each page of it costs one read of 20 cards by id. The
 * read also returns the catalog revision, which moves in the same transaction as any change to what
 * searches match or how they rank, by this process or any other: a ranking older than the catalog is
 * never served. Cards (download counts, ratings) are read fresh every time. A search asked for the
 * first time runs its page's query alone, as the ranking would cost three queries where one does
 * (docs/decisions/0081); so do other pages, and pages past the ranking
 * (docs/decisions/0018-search-rankings.md).
 */
export async function listCatalogPage(db: Queryable, query: CatalogRequest): Promise<BookCardRow[]> {
  if (query.sort !== undefined || !query.search || toPrefixTsQuery(query.search) === undefined) return listCatalog(db, query);
  let kept = keptOf.get(db);
  if (!kept) {
    kept = { rankings: new Map(), askedBefore: new AskedBefore(KEPT_SEARCHES) };
    keptOf.set(db, kept);
  }
  const { rankings } = kept;
  // Explicit books are ranked only for readers who chose to see them: two rankings (docs/decisions/0092).
  const key = JSON.stringify([query.search, query.genre ?? null, query.language ?? null, query.tag ?? null, query.showExplicit]);

  const ranked = rankings.get(key);
  if (!ranked && !kept.askedBefore.check(key)) return listCatalog(db, query);
  if (ranked) {
    const ranking = await ranked;
    const ids = pageOf(ranking, query);
    if (!ids) return listCatalog(db, query);
    const page = await listCardsInOrder(db, ids);
    if (page.revision === ranking.revision) {
      // Asked again: the most recently asked searches are the last to go.
      rankings.delete(key);
      rankings.set(key, ranked);
      return page.cards;
    }
    if (rankings.get(key) === ranked) rankings.delete(key);
  }
  const ids = pageOf(await rankingFor(db, rankings, key, query), query);
  if (!ids) return listCatalog(db, query);
  // Just ranked: nothing to check the revision against, and an empty page has no cards to read.
  return ids.length === 0 ? [] : (await listCardsInOrder(db, ids)).cards;
}

/** The kept ranking of a search, or a new one that callers arriving meanwhile share. */
function rankingFor(db: Queryable, rankings: Map<string, Promise<Ranking>>, key: string, query: CatalogRequest): Promise<Ranking> {
  const kept = rankings.get(key);
  if (kept) return kept;
  const ranking = rankCatalogSearch(db, query, RANKED_BOOKS);
  rankings.set(key, ranking);
  ranking.catch(() => {
    if (rankings.get(key) === ranking) rankings.delete(key);
  });
  if (rankings.size > KEPT_SEARCHES) rankings.delete(rankings.keys().next().value!);
  return ranking;
}

/**
 * The ids of the asked page within a ranking, or undefined when the ranking cannot tell: a page past
 * the matches it holds, or after a book it does not hold (the query places that book by its keys).
 */
export function pageOf(ranking: Ranking, query: Pick<CatalogQuery, "offset" | "limit" | "after">): number[] | undefined {
  const holdsAll = ranking.ids.length < RANKED_BOOKS;
  let start = query.offset;
  if (query.after !== undefined) {
    const at = ranking.ids.indexOf(query.after);
    if (at < 0) return undefined;
    start += at + 1;
  }
  const end = start + query.limit;
  if (end > ranking.ids.length && !holdsAll) return undefined;
  return ranking.ids.slice(start, end);
}
