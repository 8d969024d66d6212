/**
 * What brings a reader back (docs/product.md#returning-readers): follows and their mail, shelves,
 * reviews, series and tags, editions. Shapes both sides share; the zod schemas build on these.
 */

/** How often a reader hears of new books and editions by mail: never, as they come, or once a week. */
export const DIGEST_FREQUENCIES = ["off", "instant", "weekly"] as const;
export type DigestFrequency = (typeof DIGEST_FREQUENCIES)[number];

/** A reader's shelves: one shelf per book at most. */
export const SHELVES = ["want", "reading", "read"] as const;
export type Shelf = (typeof SHELVES)[number];
