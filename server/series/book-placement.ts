import type { BookFields } from "../../shared/book-schemas.ts";
import type { Queryable } from "../db/client.ts";
import type { Book } from "../db/schema.ts";
import { violatedUniqueConstraint } from "../db/errors.ts";
import { seriesNotFound, seriesVolumeTaken, validationFailed } from "../http/errors.ts";
import { updateBook } from "../books/books-repository.ts";
import { authorizeSeriesChange } from "./series-policy.ts";
import { lockSeries, volumeHolder } from "./series-repository.ts";
import { deleteBookTags, ensureTags, replaceBookTags } from "./tags-repository.ts";

/*
 * A book's series, volume and tags as its upload and edit set them (docs/product.md#series-and-tags),
 * in the books service's transaction: apart from the series service, which reads books through it.
 */

/**
 * The series, volume and tags a book form sets, inside the upload's or the edit's transaction: a
 * series of the author's own (404 unknown, 403 another's), a volume no other live book of it holds
 * (409), tags made where new. A field left out keeps what the book has (an edit from an older client).
 */
export async function placeBook(tx: Queryable, author: Pick<Express.User, "id">, book: Pick<Book, "id" | "seriesId" | "seriesVolume">, fields: BookFields): Promise<void> {
  const { seriesId, seriesVolume } = fields;
  if (seriesId !== undefined || seriesVolume !== undefined) {
    const chosen = seriesId === undefined ? book.seriesId : seriesId;
    const volume = seriesVolume === undefined ? (book.seriesVolume === null ? null : Number(book.seriesVolume)) : seriesVolume;
    if (chosen !== null && volume === null) throw validationFailed("A book in a series needs its volume number.", { seriesVolume: "validation.seriesVolumeRequired" });
    if (chosen === null && volume !== null && seriesVolume !== undefined) throw validationFailed("A volume number needs a series.", { seriesId: "validation.seriesRequired" });
    if (chosen !== null) {
      const row = await lockSeries(tx, chosen);
      if (!row) throw seriesNotFound();
      authorizeSeriesChange(author, row);
      if ((await volumeHolder(tx, chosen, volume!, book.id)) !== undefined) throw seriesVolumeTaken();
    }
    try {
      await updateBook(tx, book.id, { seriesId: chosen, seriesVolume: chosen === null ? null : volume!.toFixed(2) });
    } catch (error) {
      // The series' lock makes two placements of one series wait for each other; the unique index books_series_volume_key is the last word.
      if (violatedUniqueConstraint(error) === "books_series_volume_key") throw seriesVolumeTaken();
      throw error;
    }
  }
  if (fields.tags !== undefined) await replaceBookTags(tx, book.id, await ensureTags(tx, fields.tags));
}

/** A withdrawn book carries no tags and holds no volume: both are for listed books (docs/product.md#series-and-tags). */
export async function unplaceBook(tx: Queryable, bookId: number): Promise<void> {
  await deleteBookTags(tx, bookId);
}
