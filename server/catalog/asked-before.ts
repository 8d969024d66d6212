/**
 * The keys asked for the first time lately, for a cache that keeps only what is asked a second time
 * (docs/decisions/0081): most searches are typed once, and keeping each of them cost more than
 * answering it (its revision read, its whole ranking, its size counted), and pushed out of the cache
 * the pages that are asked again. Remembers the last `limit` keys asked for the first time.
 */
export class AskedBefore {
  readonly #asked = new Set<string>();

  constructor(private readonly limit: number) {}

  /** Whether `key` is among the last keys asked for the first time; when it is not, it is from now on. */
  check(key: string): boolean {
    if (this.#asked.has(key)) return true;
    this.#asked.add(key);
    if (this.#asked.size > this.limit) this.#asked.delete(this.#asked.values().next().value!);
    return false;
  }
}
