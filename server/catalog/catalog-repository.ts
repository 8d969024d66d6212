import { type SQL, and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { CatalogQuery } from "../../shared/book-schemas.ts";
import type { CatalogSort, PublicStats } from "../../shared/books.ts";
import { DEFAULT_LANGUAGE, type InterfaceLanguage } from "../../shared/languages.ts";
import type { Queryable } from "../db/client.ts";
import { bookTags, books, catalogRevision, tags, users } from "../db/schema.ts";
import { type BookCardRow, cardColumns, isListed, listedFor } from "../books/books-repository.ts";
import { toPrefixTsQuery } from "./catalog-search.ts";

/*
 * The catalog's queries: they only read (books with their authors, the catalog revisions); every
 * write to books is in server/books/books-repository.ts.
 */

/** The cursor's own row, when a page is asked for "after" a book. */
const cursorBook = alias(books, "cursor_book");
type BooksTable = typeof books | typeof cursorBook;

type CatalogOrder = Exclude<CatalogSort, "title"> | "relevance" | `title:${TitleOrder}`;

/**
 * Titles as a reader of each interface language orders them (docs/decisions/0046, the collation and
 * the function come from migrations/0017): English and French share ICU's root order; in Spanish ñ
 * is a letter after n.
 */
type TitleOrder = "root" | "spanish";
const TITLE_ORDER_OF: Record<InterfaceLanguage, TitleOrder> = { en: "root", fr: "root", es: "spanish" };

/**
 * What each order sorts by, most significant first, all in one direction and ending with the id,
 * so that every book has a place of its own: a book is then a position in the order (a cursor).
 * The sort indexes of server/db/schema.ts follow these keys and directions exactly.
 */
const SORT_KEYS: Record<Exclude<CatalogOrder, "relevance">, (table: BooksTable) => SQL[]> = {
  newest: (table) => [sql`${table.createdAt}`, sql`${table.id}`],
  downloads: (table) => [sql`${table.downloadCount}`, sql`${table.id}`],
  rating: (table) => [sql`${table.rating}`, sql`${table.reviewCount}`, sql`${table.id}`],
  "title:root": (table) => [sql`(${table.title} collate plume_title)`, sql`${table.id}`],
  "title:spanish": (table) => [sql`(plume_spanish_title(${table.title}) collate plume_title)`, sql`${table.id}`],
};

const tsQuery = sql`to_tsquery('simple', plume_unaccent(${sql.placeholder("tsQuery")}))`;
const searchText = sql.placeholder("searchText");

/** Ranked full text first; then the fuzzy title matches (typos), most similar first; then newest. */
function orderKeys(table: BooksTable, order: CatalogOrder): SQL[] {
  if (order !== "relevance") return SORT_KEYS[order](table);
  const matchesText = sql`${table}.search_vector @@ ${tsQuery}`;
  const titleSimilarity = sql`word_similarity(plume_unaccent(lower(${searchText})), plume_unaccent(lower(${table.title})))`;
  return [
    sql`ts_rank_cd(${table}.search_vector, ${tsQuery})`,
    // Only fuzzy matches need the similarity: computing it for thousands of text matches cost more than ranking them.
    sql`case when ${matchesText} then 0 else ${titleSimilarity} end`,
    ...SORT_KEYS.newest(table),
  ];
}

/** Which filters and order a catalog request uses: one query per shape, run with each request's values. */
interface CatalogShape {
  order: CatalogOrder;
  /** Explicit books too: the reader chose to see them (docs/product.md#content-ratings). */
  explicit: boolean;
  genre: boolean;
  language: boolean;
  /** The books carrying one tag (docs/product.md#series-and-tags). */
  tag: boolean;
  search: boolean;
  after: boolean;
  /** A page past the first, by offset. */
  skips: boolean;
}

/** The listed books a shape selects, with its order: shared by a page and by the ids of a page. */
function catalogSelection(db: Queryable, shape: CatalogShape) {
  const keys = orderKeys(books, shape.order);
  const ascending = shape.order.startsWith("title:");
  const conditions: SQL[] = [listedFor(shape.explicit)];
  if (shape.genre) conditions.push(eq(books.genre, sql.placeholder("genre")));
  if (shape.language) conditions.push(eq(books.language, sql.placeholder("language")));
  // The tag's books by book_tags_tag_idx (tag, book): the planner walks them, or the order's index
  // with this as a filter, whichever reads less. The tag's id is a value of its own (looked up first),
  // so that the plan is made knowing how common the tag is: on 20,000 books a rare tag's page took 45 ms, now 8 (docs/decisions/0104).
  if (shape.tag) conditions.push(sql`${books.id} in (select ${bookTags.bookId} from ${bookTags} where ${bookTags.tagId} = ${sql.placeholder("tagId")})`);
  if (shape.search) {
    // Fuzzy fallback on titles for typos ("mañnaa"): trigram word similarity, index-backed.
    const resemblesTitle = sql`plume_unaccent(lower(${books.title})) %> plume_unaccent(lower(${searchText}))`;
    conditions.push(sql`(${books}.search_vector @@ ${tsQuery} or ${resemblesTitle})`);
  }
  if (shape.after) {
    // Keyset paging: the books whose keys come after the cursor book's, one index range whatever the depth.
    const cursorKeys = orderKeys(cursorBook, shape.order);
    const cursor = db
      .select(Object.fromEntries(cursorKeys.map((key, index) => [`key${index}`, key])))
      .from(cursorBook)
      .where(eq(cursorBook.id, sql.placeholder("after")));
    conditions.push(sql`(${sql.join(keys, sql`, `)}) ${ascending ? sql`>` : sql`<`} (${cursor})`);
  }
  return { where: and(...conditions), order: keys.map((key) => (ascending ? asc(key) : desc(key))) };
}

function buildCatalogPageIds(db: Queryable, shape: CatalogShape) {
  const { where, order } = catalogSelection(db, shape);
  return db.select({ id: books.id }).from(books).where(where).orderBy(...order).limit(sql.placeholder("limit")).offset(sql.placeholder("offset"));
}

function buildCatalogPage(db: Queryable, shape: CatalogShape) {
  const { where, order } = catalogSelection(db, shape);
  const limit = sql.placeholder("limit");
  // An index reads a first page in order: its 20 rows are all that is read. Past the first page,
  // or when every match must be ranked, the page's ids come first (an index-only scan passes over
  // skipped books without reading them; the ranking sorts ids and keys, not whole books), and
  // only the page's rows are read and joined to their authors.
  const selectCards = () => db.select(cardColumns).from(books).innerJoin(users, eq(users.id, books.authorId));
  if (!shape.skips && shape.order !== "relevance") return selectCards().where(where).orderBy(...order).limit(limit);
  return selectCards().where(inArray(books.id, buildCatalogPageIds(db, shape))).orderBy(...order).limit(limit);
}

/**
 * A catalog page as a reader asks for it: titles sort in the order of their language (English's when
 * not said); explicit books are in it only when the reader chose to see them (server/books/books-policy.ts#showsExplicit).
 */
export interface CatalogRequest extends CatalogQuery {
  readerLanguage?: InterfaceLanguage;
  showExplicit: boolean;
}

function orderOf(query: CatalogRequest, searching: boolean): CatalogOrder {
  if (query.sort === "title") return `title:${TITLE_ORDER_OF[query.readerLanguage ?? DEFAULT_LANGUAGE]}`;
  return query.sort ?? (searching ? "relevance" : "newest");
}

/**
 * One catalog page: listed books, filtered, searched (ranked) and sorted, from `offset` or after
 * the book `after`, as the query of its shape (with placeholders) and the values to run it with.
 * Undefined when the search holds nothing searchable. The benchmark's bare baseline runs its SQL.
 */
export function catalogPage(query: CatalogRequest & { tagId?: number }) {
  const prefixQuery = query.search ? toPrefixTsQuery(query.search) : undefined;
  if (query.search && !prefixQuery) return undefined;
  const shape: CatalogShape = {
    order: orderOf(query, prefixQuery !== undefined),
    explicit: query.showExplicit,
    genre: query.genre !== undefined,
    language: query.language !== undefined,
    tag: query.tag !== undefined,
    search: prefixQuery !== undefined,
    after: query.after !== undefined,
    skips: query.offset > 0,
  };
  return {
    shape: JSON.stringify(shape),
    values: { limit: query.limit, offset: query.offset, genre: query.genre, language: query.language, tagId: query.tagId, tsQuery: prefixQuery, searchText: query.search, after: query.after },
    build: (db: Queryable) => buildCatalogPage(db, shape),
    buildIds: (db: Queryable) => buildCatalogPageIds(db, shape),
  };
}

interface PreparedQuery<Row> {
  execute(values: Record<string, unknown>): Promise<Row[]>;
}
const preparedQueries = new WeakMap<Queryable, Map<string, PreparedQuery<unknown>>>();

/**
 * Runs the query named `name`, built once per database: building the catalog's SQL took more of the
 * server's time than PostgreSQL took to run it (docs/performance.md). The statements stay unnamed,
 * so PostgreSQL plans every run with its values.
 */
function runPrepared<Row>(db: Queryable, name: string, build: () => { prepare(name: string): PreparedQuery<Row> }, values: Record<string, unknown>): Promise<Row[]> {
  const prepared = preparedQueries.get(db) ?? new Map<string, PreparedQuery<unknown>>();
  preparedQueries.set(db, prepared);
  let statement = prepared.get(name) as PreparedQuery<Row> | undefined;
  if (!statement) {
    statement = build().prepare("");
    prepared.set(name, statement);
  }
  return statement.execute(values);
}

/** The public catalog: one page of listed books, its SQL built once per shape. */
/** A tag's id by its normalised form, undefined for a tag nobody has used. */
async function tagIdOf(db: Queryable, slug: string): Promise<number | undefined> {
  const [row] = await runPrepared(db, "tag id", () => db.select({ id: tags.id }).from(tags).where(eq(tags.slug, sql.placeholder("slug"))), { slug });
  return row?.id;
}

/** The request with its tag's id; null when it names a tag nobody has used: no book has it. */
async function withTagId(db: Queryable, query: CatalogRequest): Promise<(CatalogRequest & { tagId?: number }) | null> {
  if (query.tag === undefined) return query;
  const tagId = await tagIdOf(db, query.tag);
  return tagId === undefined ? null : { ...query, tagId };
}

export async function listCatalog(db: Queryable, request: CatalogRequest): Promise<BookCardRow[]> {
  const query = await withTagId(db, request);
  if (!query) return [];
  const page = catalogPage(query);
  if (!page) return [];
  return runPrepared(db, `page:${page.shape}`, () => page.build(db), page.values);
}

/**
 * The ids of the first `count` books a search without a chosen order finds, best match first, and
 * the catalog revision they were ranked at: read first, so a change committed while ranking makes
 * the ranking look older than it is, never newer.
 */
export async function rankCatalogSearch(db: Queryable, request: CatalogRequest, count: number): Promise<{ ids: number[]; revision: number }> {
  const revision = await readCatalogRevision(db);
  const query = await withTagId(db, request);
  const page = query && catalogPage({ ...query, sort: undefined, after: undefined, offset: 0, limit: count });
  if (!page) return { ids: [], revision };
  const rows = await runPrepared(db, `ids:${page.shape}`, () => page.buildIds(db), page.values);
  return { ids: rows.map((row) => row.id), revision };
}

export async function readCatalogRevision(db: Queryable): Promise<number> {
  const [row] = await runPrepared(db, "revision", () => db.select({ revision: catalogRevision.revision }).from(catalogRevision), {});
  return row!.revision;
}

/** The number that moves with every change to what a catalog card or page shows but download counts (docs/decisions/0077). */
export async function readCardRevision(db: Queryable): Promise<number> {
  const [row] = await runPrepared(db, "card revision", () => db.select({ cardRevision: catalogRevision.cardRevision }).from(catalogRevision), {});
  return row!.cardRevision;
}

/**
 * The cards of these books, in this order, and the catalog revision, read together: the cards
 * are as fresh as any page, and the revision says whether the order they were picked in still holds.
 */
export async function listCardsInOrder(db: Queryable, ids: number[]): Promise<{ cards: BookCardRow[]; revision: number }> {
  if (ids.length === 0) return { cards: [], revision: await readCatalogRevision(db) };
  const rows = await runPrepared(
    db,
    "cards",
    () =>
      db
        .select({ ...cardColumns, revision: sql<number>`(select ${catalogRevision.revision} from ${catalogRevision})`.mapWith(Number) })
        .from(books)
        .innerJoin(users, eq(users.id, books.authorId))
        .where(sql`${books.id} = any(${sql.placeholder("ids")})`),
    { ids },
  );
  const byId = new Map(rows.map(({ revision: _revision, ...card }) => [card.id, card]));
  return { cards: ids.flatMap((id) => byId.get(id) ?? []), revision: rows[0]?.revision ?? (await readCatalogRevision(db)) };
}

/** The landing page's totals over listed books (the benchmark's bare baseline runs its very SQL). */
export function publicStatsQuery(db: Queryable) {
  return db
    .select({
      totalBooks: sql<number>`count(*)::int`,
      totalAuthors: sql<number>`count(distinct ${books.authorId})::int`,
      totalDownloads: sql<number>`coalesce(sum(${books.downloadCount}), 0)::int`,
    })
    .from(books)
    .where(isListed);
}

export async function readPublicStats(db: Queryable): Promise<PublicStats> {
  const [row] = await publicStatsQuery(db);
  return row!;
}

/**
 * The newest listed books, of one author or of everyone: the Atom feeds' entries
 * (docs/product.md#feeds-and-crawling). The catalog's "newest" index reads them in order. A feed is
 * read by anyone, signed in or not: no explicit book (docs/product.md#content-ratings).
 */
export async function listNewestListed(db: Queryable, limit: number, authorId?: string): Promise<BookCardRow[]> {
  const listed = listedFor(false);
  return db
    .select(cardColumns)
    .from(books)
    .innerJoin(users, eq(users.id, books.authorId))
    .where(authorId === undefined ? listed : and(listed, eq(books.authorId, authorId)))
    .orderBy(...SORT_KEYS.newest(books).map((key) => desc(key)))
    .limit(limit);
}

/** A listed book as a sitemap names it: its address comes from the id and title. */
export interface BookLinkRow {
  id: number;
  title: string;
  updatedAt: Date;
}

/**
 * The ranges of `size` book ids (range r holds ids r·size+1 to (r+1)·size) that hold a listed book,
 * each with its last change: the sitemap's book pages. A range never holds more than `size` books.
 */
export async function listListedIdRanges(db: Queryable, size: number): Promise<Array<{ range: number; lastModified: Date }>> {
  if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`A range size must be a positive integer, not ${size}.`);
  // Written into the SQL, not a parameter: the grouping and the selection must be the same expression.
  const range = sql<number>`((${books.id} - 1) / ${sql.raw(String(size))})`.mapWith(Number);
  return db
    .select({ range, lastModified: sql<Date>`max(${books.updatedAt})`.mapWith(books.updatedAt) })
    .from(books)
    .where(listedFor(false))
    .groupBy(range)
    .orderBy(range);
}

/** Listed books with ids from `afterId` (excluded) to `lastId`, by id: one batch of a sitemap page. */
export async function listListedBookLinks(db: Queryable, afterId: number, lastId: number, limit: number): Promise<BookLinkRow[]> {
  return db
    .select({ id: books.id, title: books.title, updatedAt: books.updatedAt })
    .from(books)
    .where(and(listedFor(false), sql`${books.id} > ${afterId}`, sql`${books.id} <= ${lastId}`))
    .orderBy(asc(books.id))
    .limit(limit);
}

/** How many authors have a listed book. */
export async function countListedAuthors(db: Queryable): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(distinct ${books.authorId})::int` }).from(books).where(listedFor(false));
  return row!.count;
}

/**
 * Authors with a listed book, by id, from the `offset`th: each with the last change of their page
 * (their account or one of their listed books).
 */
export async function listListedAuthorLinks(db: Queryable, offset: number, limit: number): Promise<Array<{ authorId: string; lastModified: Date }>> {
  return db
    .select({
      authorId: books.authorId,
      lastModified: sql<Date>`greatest(max(${books.updatedAt}), max(${users.updatedAt}))`.mapWith(books.updatedAt),
    })
    .from(books)
    .innerJoin(users, eq(users.id, books.authorId))
    .where(listedFor(false))
    .groupBy(books.authorId)
    .orderBy(asc(books.authorId))
    .offset(offset)
    .limit(limit);
}
