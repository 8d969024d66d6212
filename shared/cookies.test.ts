import { describe, expect, it } from "vitest";
import { choiceCookie, cookieValue } from "./cookies.ts";

describe("cookies", () => {
  it("reads a plain value by its exact name, and nothing else", () => {
    const header = "plume.sid=s%3Aabc.def; plume-lang=fr; plume-book-lang=es";
    expect(cookieValue(header, "plume-lang")).toBe("fr");
    expect(cookieValue(header, "plume-book-lang")).toBe("es");
    expect(cookieValue(header, "lang")).toBeUndefined();
    expect(cookieValue("plume-lang=", "plume-lang")).toBeUndefined();
    expect(cookieValue("plume-lang=f r", "plume-lang")).toBeUndefined();
    expect(cookieValue("", "plume-lang")).toBeUndefined();
  });

  it("keeps a choice for a year, or forgets it", () => {
    expect(choiceCookie("plume-lang", "es")).toBe("plume-lang=es; path=/; max-age=31536000; samesite=lax");
    expect(choiceCookie("plume-lang", undefined)).toBe("plume-lang=; path=/; max-age=0; samesite=lax");
  });
});
