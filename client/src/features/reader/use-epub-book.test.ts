import { MAX_LOCATOR_LENGTH } from "@shared/reading";
import { describe, expect, it } from "vitest";
import { positionOf, readerStyles, startOf } from "@/features/reader/use-epub-book";

const saved = { page: 3, percentage: null, locator: null, format: "epub", device: null } as const;

describe("where an EPUB opens (docs/decisions/0097)", () => {
  it("opens at the exact place first, else how far through (KOReader's), else the spine item of an EPUB position", () => {
    expect(startOf(null)).toBeNull();
    expect(startOf({ ...saved, percentage: 0.4, locator: "epubcfi(/6/4!/4/2/1:0)" })).toBe("epubcfi(/6/4!/4/2/1:0)");
    // A KOReader XPointer is not a CFI: how far through the book stands for it.
    expect(startOf({ ...saved, percentage: 0.4, locator: "/body/DocFragment[3]/body/p[2]/text().0", device: "Kobo" })).toEqual({ fraction: 0.4 });
    expect(startOf(saved)).toBe(2);
    // A place from an older edition keeps only its percentage (docs/product.md#editions).
    expect(startOf({ ...saved, percentage: 0.4, locator: null, format: null, earlierEdition: true })).toEqual({ fraction: 0.4 });
    expect(startOf({ ...saved, page: 1 })).toBeNull();
    // A page of a Word book's reading view is not a spine item.
    expect(startOf({ ...saved, format: "word" })).toBeNull();
  });

  it("saves the spine item from 1, how far through within 0 and 1, and the CFI when it fits", () => {
    const location = { fraction: 1.0000001, section: { current: 4, total: 5 }, cfi: "epubcfi(/6/10!/4/2/1:3)" };
    expect(positionOf(location)).toEqual({ page: 5, percentage: 1, locator: "epubcfi(/6/10!/4/2/1:3)", format: "epub" });
    expect(positionOf({ ...location, cfi: `epubcfi(${"/4".repeat(MAX_LOCATOR_LENGTH)})` })).not.toHaveProperty("locator");
  });
});

describe("the reader's styles over a book", () => {
  it("set the size and the theme's colours, and take the book's own colours away only off white paper", () => {
    const light = readerStyles("light", 120);
    expect(light).toContain("font-size: 120% !important");
    expect(light).toContain("#ffffff");
    expect(light).not.toContain("color: inherit");
    const dark = readerStyles("dark", 100);
    expect(dark).toContain("color-scheme: dark");
    expect(dark).toContain("color: inherit !important");
  });
});
