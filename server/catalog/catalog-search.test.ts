import { describe, expect, it } from "vitest";
import { toPrefixTsQuery } from "./catalog-search.ts";

describe("toPrefixTsQuery", () => {
  it.each([
    ["mañana", "mañana:*"],
    ["La  Casa de", "la & casa & de:*"],
    ["l'été", "l & été:*"],
    ["a&b | !c:* <-> (d)", "a & b & c & d:*"],
    ["ficcio\u0301n", "ficción:*"],
  ])("%j → %j", (input, expected) => {
    expect(toPrefixTsQuery(input)).toBe(expected);
  });

  it("keeps at most eight words and gives nothing for punctuation only", () => {
    expect(toPrefixTsQuery("a b c d e f g h i j")).toBe("a & b & c & d & e & f & g & h:*");
    expect(toPrefixTsQuery("!!! ... ''")).toBeUndefined();
  });
});
