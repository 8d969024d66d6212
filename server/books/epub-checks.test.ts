import { describe, expect, it } from "vitest";
import { fixture } from "../../test/helpers/book-fixtures.ts";
import { checkEpub } from "./epub-checks.ts";

const LIMITS = { unpackedMaxBytes: 100 * 1024 * 1024, inflateRatioMax: 100, documentMaxBytes: 16 * 1024 * 1024 };

describe("an EPUB's check in its cage", () => {
  it("answers the verdict of the child, the cover's bytes included", async () => {
    const verdict = await checkEpub(fixture("book.epub"), LIMITS);
    expect(verdict.unsafe).toBeNull();
    expect(verdict.unsafe === null && verdict.cover).toBeInstanceOf(Uint8Array);
  });

  it("takes a check that cannot finish within the cage for a book too complex to check", async () => {
    const verdict = await checkEpub(fixture("book.epub"), LIMITS, { timeoutMs: 1, heapMegabytes: 64 });
    expect(verdict).toEqual({ unsafe: "too-complex", detail: "its check ended: timeout" });
  });
});
