import { gzipSync } from "node:zlib";
import express from "express";
import request from "supertest";
import { describe, expect, it, vi } from "vitest";
import { CompressedAnswers, compressAnswers } from "./compress-answers.ts";

const cards = (word: string) => Array.from({ length: 200 }, (_, index) => `${word} ${index}`);

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

  it("sends each encoding's kept bytes while an answer is the same, and the new answer once it changes", async () => {
    const answer = { cards: cards("atlas") };
    const app = express();
    app.use(compressAnswers());
    app.get("/", (_req, res) => void res.json(answer.cards));
    const get = (encoding: string) => request(app).get("/").set("Accept-Encoding", encoding).expect(200);
    expect((await get("br")).headers["content-encoding"]).toBe("br");
    expect((await get("br")).body).toEqual(answer.cards);
    const gzip = await get("gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.body).toEqual(answer.cards);
    answer.cards = cards("carte");
    expect((await get("br")).body).toEqual(answer.cards);
  });
});
