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
  ])("%j → %j", (title, extension, expected) => {
    expect(downloadFileName(title, extension)).toBe(expected);
  });

  it("keeps long titles to 200 characters before the extension", () => {
    expect(downloadFileName("x".repeat(300), "pdf")).toBe(`${"x".repeat(200)}.pdf`);
  });
});
