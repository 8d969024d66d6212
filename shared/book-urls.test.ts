import { describe, expect, it } from "vitest";
import { bookIdOfSegment, bookPath, slugOf } from "./book-urls.ts";

describe("book addresses", () => {
  it("makes a slug of plain ASCII words from any title", () => {
    expect(slugOf("L'Été à Lyon!")).toBe("l-ete-a-lyon");
    expect(slugOf("</script><script>alert(1)</script>")).toBe("script-script-alert-1-script");
    expect(slugOf("日本語")).toBe("");
    expect(slugOf("a".repeat(80))).toHaveLength(60);
    expect(slugOf(`${"word ".repeat(20)}`)).toBe(Array.from({ length: 12 }, () => "word").join("-"));
  });

  it("puts the slug after the id, or the id alone", () => {
    expect(bookPath({ id: 42, title: "The Long Winter" })).toBe("/books/42-the-long-winter");
    expect(bookPath({ id: 7, title: "…" })).toBe("/books/7");
  });

  it("reads the id of a segment and ignores its slug", () => {
    expect(bookIdOfSegment("42")).toBe(42);
    expect(bookIdOfSegment("42-any-old-slug")).toBe(42);
    expect(bookIdOfSegment("2147483647")).toBe(2147483647);
    for (const bad of ["", "0", "-1", "042", "4.2", "abc", "42abc", "42-Upper", "2147483648", "99999999999"]) {
      expect(bookIdOfSegment(bad)).toBeUndefined();
    }
  });
});
