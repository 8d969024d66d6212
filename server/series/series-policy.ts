import type { User } from "../db/schema.ts";
import { seriesNotYours } from "../http/errors.ts";

/** A series is changed, deleted and filled only by its author (docs/product.md#series-and-tags); the admin neither. */
export function authorizeSeriesChange(caller: Pick<User, "id">, series: { authorId: string }): void {
  if (series.authorId !== caller.id) throw seriesNotYours();
}

/** A series' page is public once one of its books is listed; before that, only its author sees it. */
export function canSeeSeries(series: { authorId: string }, listedVolumes: number, viewer: Pick<User, "id"> | undefined): boolean {
  return listedVolumes > 0 || viewer?.id === series.authorId;
}
