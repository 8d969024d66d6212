import { describe, expect, it } from "vitest";
import type { ReaderFormat, SavedPosition } from "../../shared/reading.ts";
import { koreaderProgressOf, pageOfKoreaderProgress, percentageOf } from "./koreader-places.ts";

const position = (values: Partial<SavedPosition> & { format: ReaderFormat }): SavedPosition & { format: ReaderFormat } => ({
  page: 1,
  percentage: null,
  locator: null,
  device: null,
  ...values,
});

describe("KOReader's places in Plume's terms", () => {
  it("reads a PDF's page and a reflowed book's spine item", () => {
    expect(pageOfKoreaderProgress("12", "pdf")).toBe(12);
    expect(pageOfKoreaderProgress("/body/DocFragment[7]/body/div/p[3]/text().42", "epub")).toBe(7);
    expect(pageOfKoreaderProgress("/body/DocFragment[0]", "epub")).toBe(1);
  });

  it("takes what names no page as the first", () => {
    expect(pageOfKoreaderProgress("0", "pdf")).toBe(1);
    expect(pageOfKoreaderProgress("3.5", "pdf")).toBe(1);
    expect(pageOfKoreaderProgress("/body/p[2]", "epub")).toBe(1);
    expect(pageOfKoreaderProgress("/body/DocFragment[99999999]", "epub")).toBe(1);
  });
});

describe("the place KOReader is sent", () => {
  it("gives back KOReader's own place in the same format as it came", () => {
    const xpointer = "/body/DocFragment[4]/body/p[9]/text().3";
    expect(koreaderProgressOf(position({ format: "epub", page: 4, locator: xpointer, device: "Kobo Libra 2" }), "epub", null)).toBe(xpointer);
    expect(koreaderProgressOf(position({ format: "pdf", page: 8, locator: "8", device: "Kobo" }), "pdf", 20)).toBe("8");
  });

  it("sends a browser's PDF page as that page, within the book", () => {
    expect(koreaderProgressOf(position({ format: "pdf", page: 5 }), "pdf", 10)).toBe("5");
    expect(koreaderProgressOf(position({ format: "pdf", page: 40 }), "pdf", 10)).toBe("10");
    expect(koreaderProgressOf(position({ format: "pdf", page: 40 }), "pdf", null)).toBe("40");
  });

  it("sends a browser's EPUB place as the start of its spine item, never the browser's CFI", () => {
    expect(koreaderProgressOf(position({ format: "epub", page: 6, percentage: 0.4, locator: "epubcfi(/6/12!/4/2/10)" }), "epub", null)).toBe("/body/DocFragment[6]");
  });

  it("finds a PDF page by percentage from another format, and sends a reflowed file nothing it cannot follow", () => {
    expect(koreaderProgressOf(position({ format: "epub", page: 3, percentage: 0.5 }), "pdf", 10)).toBe("6");
    expect(koreaderProgressOf(position({ format: "epub", page: 3, percentage: 1 }), "pdf", 10)).toBe("10");
    expect(koreaderProgressOf(position({ format: "word", page: 3 }), "pdf", 10)).toBeNull();
    expect(koreaderProgressOf(position({ format: "word", page: 3, percentage: 0.2 }), "epub", null)).toBeNull();
    expect(koreaderProgressOf(position({ format: "pdf", page: 3 }), "epub", null)).toBeNull();
    expect(koreaderProgressOf(position({ format: "word", page: 3 }), "word", 12)).toBeNull();
    expect(koreaderProgressOf(position({ format: "word", page: 1, locator: "/body/DocFragment[1]/body/p[40]", device: "Kobo" }), "word", 12)).toBe("/body/DocFragment[1]/body/p[40]");
  });

  it("says how far through: the saved share, else the page's", () => {
    expect(percentageOf(position({ format: "epub", percentage: 0.25 }), null)).toBe(0.25);
    expect(percentageOf(position({ format: "pdf", page: 5 }), 9)).toBe(0.5);
    expect(percentageOf(position({ format: "pdf", page: 5 }), null)).toBe(0);
  });
});
