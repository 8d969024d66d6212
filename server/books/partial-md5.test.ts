import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { partialMd5 } from "./partial-md5.ts";

describe("partialMd5 (KOReader's document id)", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "partial-md5-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const bytesOf = (length: number) => Buffer.from(Array.from({ length }, (_, index) => (index * 31 + (index >> 8)) & 0xff));
  const md5 = (...parts: Buffer[]) => createHash("md5").update(Buffer.concat(parts)).digest("hex");

  it("hashes a file shorter than a sample whole", async () => {
    const path = join(dir, "small");
    await writeFile(path, "hello");
    expect(await partialMd5(path)).toBe(md5(Buffer.from("hello")));
  });

  it("samples 1 KiB at 0, 1 KiB, 4 KiB and 16 KiB, up to the file's end", async () => {
    const bytes = bytesOf(20_000);
    const path = join(dir, "medium");
    await writeFile(path, bytes);
    const expected = md5(bytes.subarray(0, 1024), bytes.subarray(1024, 2048), bytes.subarray(4096, 5120), bytes.subarray(16384, 17408));
    expect(await partialMd5(path)).toBe(expected);
  });

  it("takes a short last sample where the file ends inside it", async () => {
    const bytes = bytesOf(4500);
    const path = join(dir, "short-tail");
    await writeFile(path, bytes);
    expect(await partialMd5(path)).toBe(md5(bytes.subarray(0, 1024), bytes.subarray(1024, 2048), bytes.subarray(4096, 4500)));
  });
});
