import { createHash } from "node:crypto";
import { open } from "node:fs/promises";

/**
 * KOReader's name for a document: the MD5 of 1 KiB samples at 0, 1 KiB, 4 KiB, 16 KiB … 1 GiB, each
 * four times further than the last, stopping at the file's end (its `util.partialMD5`; LuaJIT's
 * 32-bit shift makes the first offset 0). KOReader's sync sends it for the file it holds, so Plume
 * keeps it for every file it serves (docs/product.md#progress-sync).
 */
const SAMPLE_BYTES = 1024;
const SAMPLE_OFFSETS = [0, ...Array.from({ length: 11 }, (_, index) => 1024 * 4 ** index)];

export async function partialMd5(path: string): Promise<string> {
  const hash = createHash("md5");
  const handle = await open(path, "r");
  try {
    const sample = Buffer.alloc(SAMPLE_BYTES);
    for (const offset of SAMPLE_OFFSETS) {
      const { bytesRead } = await handle.read(sample, 0, SAMPLE_BYTES, offset);
      if (bytesRead === 0) break;
      hash.update(sample.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  return hash.digest("hex");
}
