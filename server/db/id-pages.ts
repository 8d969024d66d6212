/**
 * Every row `list` finds, read a page at a time in the order of their ids (keyset paging: each page
 * starts after the last id of the one before, so rows changed by the work on a page are never read
 * twice nor skipped). What the fill commands and the background queues walk the books with.
 */
export async function* inIdPages<Row extends { id: number }>(list: (page: { afterId: number; limit: number }) => Promise<Row[]>, limit: number): AsyncGenerator<Row[]> {
  for (let afterId = 0; ; ) {
    const rows = await list({ afterId, limit });
    if (rows.length > 0) yield rows;
    if (rows.length < limit) return;
    afterId = rows.at(-1)!.id;
  }
}
