import { describe, expect, it } from "vitest";
import { GENRE_KEYS, toGenreKey } from "./genres.ts";

describe("toGenreKey", () => {
  it("accepts every key as it is and in any letter case", () => {
    for (const key of GENRE_KEYS) {
      expect(toGenreKey(key)).toBe(key);
      expect(toGenreKey(key.toUpperCase())).toBe(key);
    }
  });

  it.each([
    ["libro infantil", "libroInfantil"],
    ["Ficción", "ficcion"],
    ["ficcio\u0301n", "ficcion"],
    [" biografía ", "biografia"],
    ["investigación académica", "investigacionAcademica"],
    ["artículo", "articulo"],
  ])("maps the legacy value %j to %s", (value, key) => {
    expect(toGenreKey(value)).toBe(key);
  });

  it("refuses anything else", () => {
    for (const value of ["", "all", "poetry", "ficcion; drop table books", "__proto__", "constructor"]) {
      expect(toGenreKey(value)).toBeUndefined();
    }
  });
});
