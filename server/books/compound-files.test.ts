import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { fixture } from "../../test/helpers/book-fixtures.ts";
import { type CompoundStream, brokenWordDocuments, compoundFile, wordDocument, wordDocumentParts } from "../../test/helpers/compound-files.ts";
import { type CompoundFile, DamagedCompoundFile, readCompoundFile } from "./compound-files.ts";
import { inspectDoc } from "./word-documents.ts";

const scratch = mkdtempSync(join(tmpdir(), "plume-cfb-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let written = 0;
/** Reads a compound file and hands it to `use` while its file is open (its streams are read by position). */
async function read<T>(source: Buffer | string, use: (file: CompoundFile) => T | Promise<T> = () => undefined as T): Promise<T> {
  const path = typeof source === "string" ? source : join(scratch, `file-${(written += 1)}.doc`);
  if (typeof source !== "string") writeFileSync(path, source);
  const handle = await open(path, "r");
  try {
    return await use(await readCompoundFile(handle, (await handle.stat()).size));
  } finally {
    await handle.close();
  }
}

describe("compound files", () => {
  it("reads the fixture's root storage and its streams' first bytes, from regular and mini sectors", async () => {
    await read(fixture("book.doc"), async (file) => {
      expect([...file.root.keys()].sort()).toEqual(["\u0001COMPOBJ", "\u0001OLE", "\u0005DOCUMENTSUMMARYINFORMATION", "\u0005SUMMARYINFORMATION", "1TABLE", "WORDDOCUMENT"]);
      expect((await file.readStream(file.root.get("WORDDOCUMENT")!, 2)).readUInt16LE(0)).toBe(0xa5ec);
    });
    await read(wordDocument().bytes, async (file) => {
      const table = file.root.get("1TABLE")!;
      expect(table.mini).toBe(true);
      expect(await file.readStream(table, 1000)).toEqual((wordDocumentParts()[1] as CompoundStream).data);
    });
  });

  it("reads a FAT listed partly in a DIFAT sector", async () => {
    expect(await read(compoundFile(wordDocumentParts(), { fatSectors: 240 }).bytes, (file) => file.root.get("WORDDOCUMENT")!.size)).toBe(5000);
  });

  // Each fault is named, so a file refused for another reason than the one it carries fails here.
  it.each(brokenWordDocuments().filter(([, , fault]) => fault !== null))("refuses %s", async (_label, bytes, fault) => {
    const error = await read(bytes).then(() => null, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(DamagedCompoundFile);
    expect((error as Error).message).toMatch(fault!);
  });

  it.each(brokenWordDocuments().filter(([, , fault]) => fault === null))("reads %s as a sound compound file (the FIB is Word's to judge)", async (_label, bytes) => {
    expect(await read(bytes, (file) => file.root.has("WORDDOCUMENT"))).toBe(true);
  });

  // Hostile input: whatever bytes change, the judgement is a verdict, never another error (a read
  // past a buffer, a loop); the seed is fixed so that a failure can be replayed.
  it("gives a verdict on any corruption of a sound document", async () => {
    const sound = compoundFile(wordDocumentParts({ extra: [{ name: "Data", data: Buffer.alloc(4096, 7) }] })).bytes;
    // Mostly 32-bit fields of the header, FAT, directory and mini FAT (the first sectors), set to
    // sector numbers, markers or anything; some bytes anywhere.
    const field = fc.record({
      at: fc.nat({ max: 2560 / 4 - 1 }).map((index) => index * 4),
      value: fc.oneof(fc.nat({ max: 40 }), fc.constantFrom(0xfffffffe, 0xffffffff, 0xfffffffd), fc.nat({ max: 0xffffffff })),
    });
    const byte = fc.record({ at: fc.nat({ max: sound.length - 1 }), value: fc.integer({ min: 0, max: 255 }) });
    const corruption = fc.array(fc.oneof(field.map((change) => ({ ...change, width: 4 })), byte.map((change) => ({ ...change, width: 1 }))), { minLength: 1, maxLength: 6 });
    const cut = fc.option(fc.nat({ max: sound.length }), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(corruption, cut, async (changes, length) => {
        const bytes = Buffer.from(sound.subarray(0, length));
        for (const { at, value, width } of changes) {
          if (at + width > bytes.length) continue;
          if (width === 4) bytes.writeUInt32LE(value, at);
          else bytes[at] = value;
        }
        const path = join(scratch, `corrupt-${(written += 1)}.doc`);
        writeFileSync(path, bytes);
        expect([null, "damaged", "macros", "malformed"]).toContain(await inspectDoc(path));
      }),
      { seed: 27, numRuns: 400 },
    );
  });
});
