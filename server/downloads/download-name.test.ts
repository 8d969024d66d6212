import { describe, expect, it } from "vitest";
import { downloadFileName } from "./download-name.ts";

describe("downloadFileName", () => {
  it.each([
    ["Mañana en París", "pdf", "Mañana en París.pdf"],
    ["../../etc/passwd", "docx", "etc passwd.docx"],
    ['A "quoted": title?', "doc", "A quoted title.doc"],
    ["line\nbreak\u0000", "pdf", "line break.pdf"],
    ["   ", "pdf", "book.pdf"],
    ["...", "pdf", "book.pdf"],
    // A title typed as a file name keeps one extension, the real file's, whatever the letter case.
    ["Informe anual.docx", "docx", "Informe anual.docx"],
    ["Informe anual.DOCX", "docx", "Informe anual.docx"],
    ["Draft.pdf", "docx", "Draft.docx"],
    ["Notes.doc.docx ", "docx", "Notes.docx"],
    [".docx", "docx", "book.docx"],
    ["El faro.EPUB", "epub", "El faro.epub"],
    ["El faro.epub", "pdf", "El faro.pdf"],
    // Only a book file's extension is one: other endings are part of the title.
    ["Version 2.0", "pdf", "Version 2.0.pdf"],
    ["Learning ASP.NET", "pdf", "Learning ASP.NET.pdf"],
    ["The docx", "pdf", "The docx.pdf"],
  ])("%j → %j", (title, extension, expected) => {
    expect(downloadFileName(title, extension)).toBe(expected);
  });

  it("keeps long titles to 200 characters before the extension", () => {
    expect(downloadFileName("x".repeat(300), "pdf")).toBe(`${"x".repeat(200)}.pdf`);
  });
});
