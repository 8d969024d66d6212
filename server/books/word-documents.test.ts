import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixture } from "../test/book-fixtures.ts";
import { docHasMacros, inspectDocx } from "./word-documents.ts";

const scratch = mkdtempSync(join(tmpdir(), "plume-word-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** book.doc with one of its empty directory entries made into a storage of this name. */
function docWithStorage(name: string, { at = "empty entry", type = 1 } = {}): string {
  const bytes = Buffer.from(readFileSync(fixture("book.doc")));
  const root = bytes.indexOf(Buffer.from("Root Entry", "utf16le"));
  let offset = root + 128;
  while (at === "empty entry" && bytes[offset + 66] !== 0) offset += 128;
  if (at === "unaligned") offset += 3;
  const encoded = Buffer.from(`${name}\0`, "utf16le");
  encoded.copy(bytes, offset);
  bytes.writeUInt16LE(encoded.length, offset + 64);
  bytes[offset + 66] = type;
  const path = join(scratch, `${name}-${at}-${type}.doc`);
  writeFileSync(path, bytes);
  return path;
}

describe("Word 2007 documents", () => {
  it("accepts a plain document", async () => {
    expect(await inspectDocx(fixture("book.docx"))).toBeNull();
  });

  it.each([
    ["a macro-enabled main part and a VBA project under an innocent name", "hostile/docx-macro-by-content-type.docx", "macros"],
    ["a template attached from a remote address", "hostile/docx-remote-template.docx", "external-content"],
    ["a part that inflates from 1 MB to 1 GiB", "hostile/docx-zip-bomb.docx", "unpacks-too-large"],
  ])("refuses %s", async (_label, name, reason) => {
    expect(await inspectDocx(fixture(name))).toBe(reason);
  });
});

describe("Word 97 documents", () => {
  it("accepts a document without macros", async () => {
    expect(await docHasMacros(fixture("book.doc"))).toBe(false);
  });

  it.each([["Macros"], ["_VBA_PROJECT_CUR"]])("finds a %s storage in the compound file's directory", async (name) => {
    expect(await docHasMacros(docWithStorage(name))).toBe(true);
  });

  it("is not fooled by the name as text, nor by a stream of that name", async () => {
    expect(await docHasMacros(docWithStorage("Macros", { at: "unaligned" }))).toBe(false);
    expect(await docHasMacros(docWithStorage("Macros", { type: 2 }))).toBe(false);
  });
});
