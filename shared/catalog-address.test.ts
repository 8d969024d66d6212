import { describe, expect, it } from "vitest";
import { catalogQueryString, readCatalogFilters, shownCatalogFilters } from "./catalog-address.ts";

describe("the catalog's address", () => {
  it.each([
    ["", { search: "", genre: undefined, sort: undefined }],
    ["search=%20faro%20&genre=historia&sort=title", { search: "faro", genre: "historia", sort: "title" }],
    // The default order named, an order or a genre the catalog does not have, relevance (the default with a search).
    ["sort=newest", { search: "", genre: undefined, sort: undefined }],
    ["search=faro&sort=newest", { search: "faro", genre: undefined, sort: "newest" }],
    ["genre=Historia&sort=relevance", { search: "", genre: undefined, sort: undefined }],
    ["genre=all&sort=title%27&lang=es", { search: "", genre: undefined, sort: undefined }],
    // A book language (docs/product.md#catalog-by-language); one the catalog has no books in reads as every language.
    ["language=fr&genre=novela", { search: "", genre: "novela", sort: undefined, language: "fr" }],
    ["language=de", { search: "", genre: undefined, sort: undefined, language: undefined }],
    ["language=ES", { search: "", genre: undefined, sort: undefined, language: undefined }],
  ])("reads %j", (query, filters) => {
    expect(readCatalogFilters(query)).toEqual(filters);
  });

  it.each([
    [{ search: "", genre: undefined, sort: undefined }, ""],
    [{ search: " mar ", genre: "novela", sort: "downloads" }, "search=mar&genre=novela&sort=downloads"],
    [{ search: "  ", genre: undefined, sort: "newest" }, ""],
    [{ search: "mar", genre: undefined, sort: "newest" }, "search=mar&sort=newest"],
    [{ search: "", genre: "novela", sort: undefined, language: "es" }, "genre=novela&language=es"],
  ] as const)("writes %j as %j, the defaults left out", (filters, written) => {
    expect(catalogQueryString(filters)).toBe(written);
  });

  it("shows the book language the reader chose last where the address names none, and the address's where it does", () => {
    expect(shownCatalogFilters("genre=novela", "es")).toEqual({ search: "", genre: "novela", sort: undefined, tag: undefined, language: "es" });
    expect(shownCatalogFilters("language=fr", "es").language).toBe("fr");
    expect(shownCatalogFilters("language=de", "es").language).toBe("es");
    expect(shownCatalogFilters("", undefined).language).toBeUndefined();
  });
});
