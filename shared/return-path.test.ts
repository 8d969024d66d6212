import { describe, expect, it } from "vitest";
import { safeReturnPath } from "./return-path.ts";

describe("safeReturnPath", () => {
  it.each([
    ["/dashboard", "/dashboard"],
    ["/edit-book/3?x=1#top", "/edit-book/3?x=1#top"],
    [undefined, "/"],
    ["", "/"],
    ["dashboard", "/"],
    ["//evil.test/x", "/"],
    ["/\\evil.test", "/"],
    ["https://evil.test", "/"],
    ["/\tx", "/"],
    [`/${"a".repeat(3000)}`, "/"],
  ])("%s → %s", (input, expected) => {
    expect(safeReturnPath(input)).toBe(expected);
  });
});
