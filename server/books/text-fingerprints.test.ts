import { describe, expect, it } from "vitest";
import { proseBook } from "../../test/helpers/text-books.ts";
import {
  BAND_COUNT,
  FINGERPRINT_MIN_WORDS,
  SHINGLE_WORDS,
  SIGNATURE_HASHES,
  bandHashes,
  estimatedSimilarity,
  fingerprintText,
  minHashSignature,
  normalisedWords,
  shingleHashes,
} from "./text-fingerprints.ts";

const bookText = (seed: number) => proseBook(seed).flat().join("\n\n");

/** The exact Jaccard similarity of two texts' shingle sets, to judge the estimate by. */
function exactJaccard(a: string, b: string): number {
  const [x, y] = [shingleHashes(normalisedWords(a)), shingleHashes(normalisedWords(b))];
  const shared = [...x].filter((hash) => y.has(hash)).length;
  return shared / (x.size + y.size - shared);
}

describe("normalisedWords", () => {
  it("drops case, accents, punctuation and whitespace", () => {
    expect(normalisedWords("  L'Été à PARÍS —\n«¡Mañana!»,\tcœur  ")).toEqual(["l", "ete", "a", "paris", "manana", "cœur"]);
  });

  it("drops tokens without a letter (page numbers) and joins a word hyphenated at a line's end", () => {
    expect(normalisedWords("the long win-\nter of 1857\n\n12\nended")).toEqual(["the", "long", "winter", "of", "ended"]);
  });

  it("keeps a hyphen inside a line as a separator, as a DOCX has it", () => {
    expect(normalisedWords("well-known")).toEqual(["well", "known"]);
  });
});

describe("shingleHashes", () => {
  it("makes one shingle per run of SHINGLE_WORDS words, repeats counted once", () => {
    const words = "a b c d e f g".split(" ");
    expect(shingleHashes(words).size).toBe(words.length - SHINGLE_WORDS + 1);
    // "a b c d e a b c d e": six runs, the first and the last the same.
    const twice = [...words.slice(0, SHINGLE_WORDS), ...words.slice(0, SHINGLE_WORDS)];
    expect(shingleHashes(twice).size).toBe(SHINGLE_WORDS);
  });

  it("depends on the words' order within a shingle", () => {
    const [forwards] = shingleHashes(["one", "two", "three", "four", "five"]);
    const [backwards] = shingleHashes(["five", "four", "three", "two", "one"]);
    expect(forwards).not.toBe(backwards);
  });

  it("gives a text shorter than a shingle one shingle of its words", () => {
    expect(shingleHashes(["only", "two"]).size).toBe(1);
    expect(shingleHashes([]).size).toBe(0);
  });
});

describe("MinHash", () => {
  it("gives SIGNATURE_HASHES signed 32-bit values, the same for the same set whatever its order", () => {
    const shingles = [...shingleHashes(normalisedWords(bookText(1)))];
    const signature = minHashSignature(shingles);
    expect(signature).toHaveLength(SIGNATURE_HASHES);
    expect(signature.every((value) => Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31)).toBe(true);
    expect(minHashSignature([...shingles].reverse())).toEqual(signature);
  });

  it("estimates the Jaccard similarity within a few points", () => {
    const original = bookText(2);
    const paragraphs = original.split("\n\n");
    // A fifth of the paragraphs replaced by others.
    const edited = paragraphs.map((paragraph, index) => (index % 5 === 0 ? proseBook(900 + index, { chapters: 1, paragraphsPerChapter: 1 })[0]![1]! : paragraph)).join("\n\n");
    const estimate = estimatedSimilarity(fingerprintText(original).signature!, fingerprintText(edited).signature!);
    // The estimate's standard error is at most 1/(2·√128) ≈ 0.044: three of them.
    expect(Math.abs(estimate - exactJaccard(original, edited))).toBeLessThan(0.14);
  });

  it("rates the same text 1, however it is cased, spaced and punctuated, and distinct books far below the threshold", () => {
    const text = bookText(3);
    const restyled = text.toUpperCase().replace(/\. /g, " ... ").replace(/\n\n/g, "\n\n\n   ");
    expect(estimatedSimilarity(fingerprintText(text).signature!, fingerprintText(restyled).signature!)).toBe(1);
    expect(estimatedSimilarity(fingerprintText(text).signature!, fingerprintText(bookText(4)).signature!)).toBeLessThan(0.3);
  });

  it("refuses to compare signatures of different lengths", () => {
    expect(() => estimatedSimilarity([1, 2], [1, 2])).toThrow();
  });
});

describe("fingerprintText", () => {
  it("keeps no signature below FINGERPRINT_MIN_WORDS words, but counts them", () => {
    const words = Array.from({ length: FINGERPRINT_MIN_WORDS - 1 }, (_, index) => `word${index}a`).join(" ");
    expect(fingerprintText(words)).toEqual({ wordCount: FINGERPRINT_MIN_WORDS - 1, signature: null });
    expect(fingerprintText(`${words} last`).signature).toHaveLength(SIGNATURE_HASHES);
    expect(fingerprintText("12 34 — 56").wordCount).toBe(0);
  });
});

describe("bandHashes", () => {
  it("cuts the signature into BAND_COUNT bands: equal signatures share every band, one changed value changes one band", () => {
    const signature = fingerprintText(bookText(5)).signature!;
    const bands = bandHashes(signature);
    expect(bands).toHaveLength(BAND_COUNT);
    const changed = [...signature];
    changed[0] = changed[0]! + 1;
    const changedBands = bandHashes(changed);
    expect(changedBands.filter((hash, band) => hash !== bands[band])).toHaveLength(1);
  });

  it("differs between bands of equal rows", () => {
    const flat = new Array<number>(SIGNATURE_HASHES).fill(7);
    expect(new Set(bandHashes(flat)).size).toBe(BAND_COUNT);
  });
});
