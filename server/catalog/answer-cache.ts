import { AskedBefore } from "./asked-before.ts";

export interface AnswerCacheLimits {
  /** How many answers are kept, the least recently asked going first; and how many keys asked once are remembered. */
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
 * Answers kept per key while a revision has not moved past the one they were made at, for at most
 * `ttlMs`, within a bound of entries and bytes (least recently asked out first). Only a key asked
 * a second time is kept: the first ask is made and answered as it is, with no revision read
 * (docs/decisions/0081). Callers asking for a key while its answer is being made share that one
 * making; a failed making is not kept. The revision is read before the answer is made, so an answer
 * is never kept under a revision newer than the data it was made from (docs/decisions/0077).
 */
export class AnswerCache<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #askedBefore: AskedBefore;
  #bytes = 0;
  readonly #limits: AnswerCacheLimits;
  readonly #sizeOf: (value: T) => number;
  readonly #now: () => number;

  constructor(limits: AnswerCacheLimits, sizeOf: (value: T) => number, now: () => number = () => performance.now()) {
    this.#limits = limits;
    this.#askedBefore = new AskedBefore(limits.entries);
    this.#sizeOf = sizeOf;
    this.#now = now;
  }

  /**
   * The answer for `key`, made after this call: kept at the revision `readRevision` reads or a later
   * one, or made by `make` (and kept if `key` was asked before).
   */
  async get(key: string, readRevision: () => Promise<number>, make: () => Promise<T>): Promise<T> {
    if (!this.#entries.has(key) && !this.#askedBefore.check(key)) return make();
    const revision = await readRevision();
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
