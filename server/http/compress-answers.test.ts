import { gzipSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { CompressedAnswers } from "./compress-answers.ts";

describe("the compressed answers kept (docs/decisions/0078)", () => {
  it("compresses the same bytes once per encoding, and other bytes anew", () => {
    const kept = new CompressedAnswers(1024 * 1024);
    const compress = vi.fn((body: Buffer) => gzipSync(body));
    const page = Buffer.from(JSON.stringify({ books: "a page".repeat(200) }));
    const first = kept.compressed("gzip", page, compress);
    expect(kept.compressed("gzip", Buffer.from(page), compress)).toBe(first);
    expect(compress).toHaveBeenCalledTimes(1);
    kept.compressed("br", page, compress);
    kept.compressed("gzip", Buffer.from(JSON.stringify({ books: "another page".repeat(200) })), compress);
    expect(compress).toHaveBeenCalledTimes(3);
  });

  it("lets the least recently asked go once the kept answers weigh more than the limit", () => {
    const kept = new CompressedAnswers(100);
    const compress = vi.fn((body: Buffer) => body.subarray(0, 40));
    const [a, b, c] = ["a", "b", "c"].map((letter) => Buffer.alloc(60, letter));
    kept.compressed("gzip", a!, compress);
    kept.compressed("gzip", b!, compress);
    kept.compressed("gzip", a!, compress);
    kept.compressed("gzip", c!, compress);
    expect(compress).toHaveBeenCalledTimes(3);
    kept.compressed("gzip", a!, compress);
    expect(compress).toHaveBeenCalledTimes(3);
    kept.compressed("gzip", b!, compress);
    expect(compress).toHaveBeenCalledTimes(4);
  });
});
