export interface AnswerCacheLimits {
  /** How many answers are kept; the least recently asked go first. */
  entries: number;
  /** How many bytes of answers (as `sizeOf` counts them) are kept; an answer larger than this is not kept. */
  bytes: number;
  /** How long an answer is served at most, whatever its revision says. */
  ttlMs: number;
}

interface Entry<T> {
  value: Promise<T>;
  /** The revision read before the answer was made: the answer is at least that fresh. */
  revision: number;
  /** When the answer started being made (the time to live runs from there). */
  madeAt: number;
  /** 0 until the answer is made. */
  bytes: number;
}

/**
 * Answers kept per key while a revision the caller reads has not moved past the one they were made
 * at, for at most `ttlMs`, within a bound of entries and bytes (least recently asked out first).
 * Callers asking for a key while its answer is being made share that one making; a failed making is
 * not kept. The caller reads the revision before asking, so an answer is never kept under a revision
 * newer than the data it was made from (docs/decisions/0077).
 */
export class AnswerCache<T> {
  readonly #entries = new Map<string, Entry<T>>();
  #bytes = 0;
  readonly #limits: AnswerCacheLimits;
  readonly #sizeOf: (value: T) => number;
  readonly #now: () => number;

  constructor(limits: AnswerCacheLimits, sizeOf: (value: T) => number, now: () => number = () => performance.now()) {
    this.#limits = limits;
    this.#sizeOf = sizeOf;
    this.#now = now;
  }

  /** The answer for `key` at `revision` or later: kept, or made by `make` and kept. */
  get(key: string, revision: number, make: () => Promise<T>): Promise<T> {
    const kept = this.#entries.get(key);
    if (kept && kept.revision >= revision && this.#now() - kept.madeAt < this.#limits.ttlMs) {
      // Asked again: the most recently asked are the last to go.
      this.#entries.delete(key);
      this.#entries.set(key, kept);
      return kept.value;
    }
    if (kept) this.#remove(key, kept);
    const entry: Entry<T> = { value: make(), revision, madeAt: this.#now(), bytes: 0 };
    this.#entries.set(key, entry);
    entry.value.then(
      (value) => {
        if (this.#entries.get(key) !== entry) return;
        const bytes = this.#sizeOf(value);
        if (bytes > this.#limits.bytes) return this.#remove(key, entry);
        entry.bytes = bytes;
        this.#bytes += bytes;
        this.#trim();
      },
      () => {
        if (this.#entries.get(key) === entry) this.#remove(key, entry);
      },
    );
    this.#trim();
    return entry.value;
  }

  /** How many answers and bytes are kept (answers being made count as entries of 0 bytes). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }

  #remove(key: string, entry: Entry<T>) {
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  #trim() {
    for (const [key, entry] of this.#entries) {
      if (this.#entries.size <= this.#limits.entries && this.#bytes <= this.#limits.bytes) return;
      this.#remove(key, entry);
    }
  }
}
