import {
  type BookPlacement,
  type SeriesFields,
  type SeriesPage,
  type SeriesSummary,
  SERIES_PER_AUTHOR_MAX,
  TAG_MAX,
  TAG_MIN,
  TAG_SUGGESTIONS,
  type Tag,
  type TagSuggestion,
  tagSlug,
} from "../../shared/series-and-tags.ts";
import type { Db, Queryable } from "../db/client.ts";
import { HttpError, conflict, notFound, unauthorized } from "../http/errors.ts";
import { lockOpenAccount } from "../accounts/users-repository.ts";
import { type Viewer, showsExplicit } from "../books/books-policy.ts";
import { findVisibleBook } from "../books/books-service.ts";
import { presentAuthor, presentBook } from "../books/present-book.ts";
import { authorizeSeriesChange, canSeeSeries } from "./series-policy.ts";
import {
  type SeriesRow,
  deleteSeries,
  findNextVolume,
  findSeries,
  insertSeries,
  listListedVolumes,
  listSeriesOf,
  lockSeries,
  updateSeries,
} from "./series-repository.ts";
import { findTag, listBookTags, suggestTags } from "./tags-repository.ts";

/** Series and tags (docs/product.md#series-and-tags, docs/decisions/0104). */

function presentSeries(row: SeriesRow, bookCount: number): SeriesSummary {
  return {
    id: row.id,
    title: row.title,
    description: row.description ?? "",
    bookCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listOwnSeries(db: Queryable, caller: Express.User): Promise<SeriesSummary[]> {
  return (await listSeriesOf(db, caller.id)).map((row) => presentSeries(row, row.bookCount));
}

export async function createSeries(db: Db, caller: Express.User, fields: SeriesFields): Promise<SeriesSummary> {
  return db.transaction(async (tx) => {
    // One author's creations go one at a time, so the cap holds; a deleted account makes none.
    if (!(await lockOpenAccount(tx, caller.id))) throw unauthorized("This account has been deleted.");
    if ((await listSeriesOf(tx, caller.id)).length >= SERIES_PER_AUTHOR_MAX) {
      throw conflict("series_limit", `An author keeps at most ${SERIES_PER_AUTHOR_MAX} series.`);
    }
    return presentSeries(await insertSeries(tx, { authorId: caller.id, ...fields }), 0);
  });
}

async function lockOwnSeries(tx: Queryable, caller: Express.User, id: number): Promise<SeriesRow> {
  const row = await lockSeries(tx, id);
  if (!row) throw notFound("This series does not exist.");
  authorizeSeriesChange(caller, row);
  return row;
}

export async function editSeries(db: Db, caller: Express.User, id: number, fields: SeriesFields): Promise<SeriesSummary> {
  return db.transaction(async (tx) => {
    await lockOwnSeries(tx, caller, id);
    await updateSeries(tx, id, fields);
    const [row] = (await listSeriesOf(tx, caller.id)).filter((each) => each.id === id);
    return presentSeries(row!, row!.bookCount);
  });
}

/** The series goes; its books stay, in no series. */
export async function removeSeries(db: Db, caller: Express.User, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    await lockOwnSeries(tx, caller, id);
    await deleteSeries(tx, id);
  });
}

/** A series' page: 404 until one of its books is listed (but to its author); its volumes as this reader may see them. */
export async function readSeriesPage(db: Queryable, id: number, viewer: Viewer): Promise<SeriesPage> {
  const row = await findSeries(db, id);
  if (!row) throw notFound("This series does not exist.");
  const listed = await listListedVolumes(db, id, true);
  if (!canSeeSeries(row, listed.length, viewer)) throw notFound("This series does not exist.");
  const explicit = showsExplicit(viewer) || viewer?.id === row.authorId || viewer?.isAdmin === true;
  return {
    id: row.id,
    title: row.title,
    description: row.description ?? "",
    author: presentAuthor(row),
    volumes: listed.filter((book) => explicit || book.contentRating !== "explicit").map((book) => ({ volume: Number(book.seriesVolume), book: presentBook(book) })),
  };
}

/** A series' page as a visitor sees it, for its server-sent head; undefined when a visitor would get a 404. */
export async function readPublicSeriesPage(db: Queryable, id: number): Promise<SeriesPage | undefined> {
  try {
    return await readSeriesPage(db, id, undefined);
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return undefined;
    throw error;
  }
}

/** Where a visible book sits: its series and volume, the next volume this reader may see, its tags. */
export async function readBookPlacement(db: Queryable, bookId: number, viewer: Viewer): Promise<BookPlacement> {
  const book = await findVisibleBook(db, bookId, viewer);
  const tags = await listBookTags(db, book.id);
  if (book.seriesId === null || book.seriesVolume === null) return { series: null, next: null, tags };
  const row = await findSeries(db, book.seriesId);
  if (!row) return { series: null, next: null, tags };
  const { next, volumes } = await findNextVolume(db, row.id, book.seriesVolume, showsExplicit(viewer));
  return {
    series: { id: row.id, title: row.title, volume: Number(book.seriesVolume), volumes },
    next: next ? { id: next.id, title: next.title, volume: Number(next.volume) } : null,
    tags,
  };
}

export async function suggestTagsFor(db: Queryable, query: string): Promise<TagSuggestion[]> {
  const prefix = tagSlug(query).slice(0, TAG_MAX);
  if (prefix.length === 0) return [];
  return suggestTags(db, prefix, TAG_SUGGESTIONS);
}

export async function readTag(db: Queryable, slug: string): Promise<Tag & { books: number }> {
  if (slug.length < TAG_MIN) throw notFound("There is no such tag.");
  const tag = await findTag(db, slug);
  if (!tag) throw notFound("There is no such tag.");
  return tag;
}
