/**
 * A book's text fingerprint (docs/product.md#moderation, docs/decisions/0091): its extracted text
 * normalised (case, accents, punctuation, whitespace), cut into overlapping word shingles, and a
 * MinHash signature of those shingles. Two signatures estimate how much two books' shingles overlap
 * (their Jaccard similarity) by the share of positions where they agree; LSH bands of the signature,
 * kept in the database, find the books worth comparing with one indexed query.
 *
 * Pure functions: the text is extracted in a cage (text-fingerprint-process.ts), these run there too.
 */

/** Words per shingle: long enough that common phrases do not make two books alike, short enough that an edited sentence leaves most of its neighbours. */
export const SHINGLE_WORDS = 5;
/** Hashes in a signature: the estimate's standard error is at most 1/(2·√128) ≈ 4.4 points. */
export const SIGNATURE_HASHES = 128;
/** LSH bands × rows = SIGNATURE_HASHES: two books share a band with probability 1 − (1 − J⁴)³² (≈ 87 % at J = 0.5, ≈ 99.98 % at J = 0.7). */
export const BAND_COUNT = 32;
export const BAND_ROWS = SIGNATURE_HASHES / BAND_COUNT;
/** A book with fewer words is not fingerprinted: too little text to tell a copy from a coincidence (a scanned PDF has none). */
export const FINGERPRINT_MIN_WORDS = 50;
/**
 * The estimated similarity from which an upload is taken for a copy of another account's book
 * (chosen from bench/fingerprints.ts: every altered copy of its corpus scores far above it, every
 * distinct book, a quoted passage included, far below; docs/performance.md#copies-caught-at-upload).
 */
export const COPY_SIMILARITY_THRESHOLD = 0.5;

export interface TextFingerprint {
  /** The normalised text's words, counted before shingling. */
  wordCount: number;
  /** SIGNATURE_HASHES signed 32-bit minima; null when the book has fewer than FINGERPRINT_MIN_WORDS words. */
  signature: number[] | null;
}

/**
 * The words of a text as the fingerprint compares them: letters unaccented and lower case (NFKD, marks
 * dropped), every run of anything but letters and digits a separator, and tokens without a letter
 * dropped (page numbers, which a PDF has and its DOCX has not). A word a PDF hyphenated at a line's end
 * is joined again, as its DOCX has it whole.
 */
export function normalisedWords(text: string): string[] {
  return text
    .replace(/(\p{L})[-\u00ad\u2010]\s*\n\s*(?=\p{L})/gu, "$1")
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => /\p{L}/u.test(word));
}

/** MurmurHash3's finaliser: every input bit moves every output bit (a 32-bit mix, signed). */
function mix32(value: number): number {
  let h = value | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/** FNV-1a of a word's UTF-16 code units, mixed. */
function hashWord(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i += 1) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return mix32(h);
}

/** The distinct hashes of the text's SHINGLE_WORDS-word shingles, order kept within each (a text shorter than one shingle has one of its words). */
export function shingleHashes(words: readonly string[]): Set<number> {
  const wordHashes = words.map(hashWord);
  const shingles = new Set<number>();
  const last = Math.max(0, wordHashes.length - SHINGLE_WORDS);
  for (let start = 0; start <= last && start < wordHashes.length; start += 1) {
    let h = 0;
    for (let i = start; i < Math.min(start + SHINGLE_WORDS, wordHashes.length); i += 1) h = mix32(Math.imul(h, 31) + wordHashes[i]!);
    shingles.add(h);
  }
  return shingles;
}

/** The seeds of the hash functions, fixed for good: a changed seed makes every stored signature worthless. */
const SEEDS: readonly number[] = Array.from({ length: SIGNATURE_HASHES }, (_, i) => mix32(Math.imul(i + 1, 0x9e3779b9)));

/** The MinHash signature of a set of shingle hashes: for each seeded hash function, its least value over the set. */
export function minHashSignature(shingles: Iterable<number>): number[] {
  const minima = new Array<number>(SIGNATURE_HASHES).fill(2 ** 31 - 1);
  for (const shingle of shingles) {
    for (let i = 0; i < SIGNATURE_HASHES; i += 1) {
      const value = mix32(shingle ^ SEEDS[i]!);
      if (value < minima[i]!) minima[i] = value;
    }
  }
  return minima;
}

/** The fingerprint of an extracted text; no signature below FINGERPRINT_MIN_WORDS words. */
export function fingerprintText(text: string): TextFingerprint {
  const words = normalisedWords(text);
  if (words.length < FINGERPRINT_MIN_WORDS) return { wordCount: words.length, signature: null };
  return { wordCount: words.length, signature: minHashSignature(shingleHashes(words)) };
}

/** The estimated Jaccard similarity of two books' shingles: the share of the signatures' positions that agree. */
export function estimatedSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== SIGNATURE_HASHES || b.length !== SIGNATURE_HASHES) throw new Error("Signatures of different lengths cannot be compared");
  let agree = 0;
  for (let i = 0; i < SIGNATURE_HASHES; i += 1) if (a[i] === b[i]) agree += 1;
  return agree / SIGNATURE_HASHES;
}

/** The signature's LSH bands, one signed 32-bit hash per band of BAND_ROWS values (the band's index mixed in, so equal rows in different bands differ). */
export function bandHashes(signature: readonly number[]): number[] {
  return Array.from({ length: BAND_COUNT }, (_, band) => {
    let h = mix32(band + 1);
    for (let row = 0; row < BAND_ROWS; row += 1) h = mix32(Math.imul(h, 31) + signature[band * BAND_ROWS + row]!);
    return h;
  });
}
