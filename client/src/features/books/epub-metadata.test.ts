import { describe, expect, it } from "vitest";
import { readEpubMetadata } from "@/features/books/epub-metadata";
import { epubFile } from "@client-test/epub-file";

describe("readEpubMetadata", () => {
  it("reads the package's title, author, language and description from the zip, inflating its parts", async () => {
    expect(await readEpubMetadata(await epubFile({ title: "  El faro\n de los libros " }))).toEqual({
      title: "El faro de los libros",
      author: "Lucía Ferrer",
      language: "es-ES",
      description: "Una guardiana de faro encuentra una biblioteca.",
      cover: null,
    });
  });

  it("finds the package's cover image, its href resolved from the package's folder and decoded", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const { cover } = (await readEpubMetadata(await epubFile({ cover: png })))!;
    expect(cover?.type).toBe("image/png");
    expect(new Uint8Array(await cover!.arrayBuffer())).toEqual(png);
  });

  it("reads nothing from a package that declares entities, nor from a file that is not a zip", async () => {
    const laughs = '<!DOCTYPE package [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]>';
    expect(await readEpubMetadata(await epubFile({ prolog: laughs, title: "&lol2;" }))).toBeNull();
    expect(await readEpubMetadata(new File(["%PDF-1.7"], "book.epub"))).toBeNull();
  });
});
