import { describe, expect, it } from "vitest";
import { bookFieldsSchema } from "./book-schemas.ts";
import { formatVolume, seriesVolumeSchema, tagListSchema, tagSlug } from "./series-and-tags.ts";

describe("tags' normalised form", () => {
  it.each([
    ["Science Fiction", "science-fiction"],
    ["science-fiction", "science-fiction"],
    ["Sciénce  fiction", "science-fiction"],
    ["  --Slow burn!!  ", "slow-burn"],
    ["Ñandú & Café", "nandu-cafe"],
    ["İstanbul", "istanbul"],
    ["日本語 の本", "日本語-の本"],
    ["a.b_c", "a-b-c"],
  ])("%j is %j", (name, slug) => {
    expect(tagSlug(name)).toBe(slug);
  });
});

describe("the tags field", () => {
  it("merges the tags that normalise alike, keeping the first written form", () => {
    expect(tagListSchema.parse("Science Fiction, science-fiction,  Space   opera ")).toEqual([
      { slug: "science-fiction", name: "Science Fiction" },
      { slug: "space-opera", name: "Space opera" },
    ]);
    expect(tagListSchema.parse("   ")).toEqual([]);
  });

  it.each([
    [Array.from({ length: 11 }, (_, i) => `t${i}x`).join(","), "validation.tagsMax"],
    ["ok, ,fine", "validation.tagEmpty"],
    ["x", "validation.tagTooShort"],
    ["y".repeat(41), "validation.tagTooLong"],
    ["bad\u0000tag", "validation.invalid"],
  ])("refuses %j", (value, key) => {
    const result = tagListSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(key);
  });
});

describe("volumes", () => {
  it.each([
    ["1", 1],
    ["1.5", 1.5],
    ["9999.99", 9999.99],
    ["", null],
  ])("takes %j", (value, volume) => {
    expect(seriesVolumeSchema.parse(value)).toBe(volume);
  });

  it.each(["0", "0.00", "-1", "10000", "1.234", "1e2", "abc", " .5"])("refuses %j", (value) => {
    expect(seriesVolumeSchema.safeParse(value).success).toBe(false);
  });

  it("writes volumes the short way", () => {
    expect([1, 1.5, 2.25, 3.1].map(formatVolume)).toEqual(["1", "1.5", "2.25", "3.1"]);
  });

  it("leaves series and tags out of a book form that does not send them", () => {
    const fields = bookFieldsSchema.parse({ title: "T", description: "D", genre: "novela" });
    expect(fields.seriesId).toBeUndefined();
    expect(fields.tags).toBeUndefined();
    expect(bookFieldsSchema.parse({ title: "T", description: "D", genre: "novela", seriesId: "", tags: "" })).toMatchObject({ seriesId: null, tags: [] });
  });
});
