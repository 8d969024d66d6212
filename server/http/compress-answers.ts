import { hash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { RequestHandler, Response } from "express";
import Negotiator from "negotiator";

/** Smaller answers gain less than their compression costs (the `compression` middleware's default). */
const THRESHOLD_BYTES = 1024;
const ENCODINGS = ["br", "gzip", "identity"];
/** Brotli first whatever order the client lists them in: smaller answers for the same CPU. */
const PREFERRED_ENCODINGS = ["br", "gzip"];
/** Types worth compressing: what the API answers (JSON), the feeds (XML) and any text. */
const COMPRESSIBLE_TYPE = /^(?:text\/|application\/(?:[\w.+-]+\+)?(?:json|xml)\b)/i;

const compressors: Record<string, (body: Buffer) => Buffer> = {
  // Quality 4: the `compression` middleware's default, chosen by decision 0011.
  br: (body) =>
    brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body) => gzipSync(body),
};

/**
 * The last answers compressed, by encoding and the SHA-256 of the bytes: the same catalog page asked
 * again is the same bytes, and hashing them costs a tenth of compressing them again (docs/decisions/0078).
 * Bounded by what the compressed answers weigh together; the least recently asked goes first.
 */
export class CompressedAnswers {
  readonly #kept = new Map<string, Buffer>();
  #bytes = 0;

  constructor(private readonly limitBytes: number) {}

  compressed(encoding: string, body: Buffer, compress: (body: Buffer) => Buffer): Buffer {
    const key = `${encoding}:${hash("sha256", body, "base64")}`;
    const kept = this.#kept.get(key);
    if (kept) {
      this.#kept.delete(key);
      this.#kept.set(key, kept);
      return kept;
    }
    const made = compress(body);
    if (made.length > this.limitBytes) return made;
    this.#kept.set(key, made);
    this.#bytes += made.length;
    for (const [oldest, answer] of this.#kept) {
      if (this.#bytes <= this.limitBytes) break;
      this.#kept.delete(oldest);
      this.#bytes -= answer.length;
    }
    return made;
  }
}

/** A few hundred catalog pages (about 3 KB each compressed) per process. */
const KEPT_COMPRESSED_BYTES = 1024 * 1024;

/** Whether a whole answer is worth compressing and may be: large enough, text, not encoded, not no-transform. */
function isCompressible(res: Response, body: Buffer): boolean {
  return (
    body.length >= THRESHOLD_BYTES &&
    !res.getHeader("Content-Encoding") &&
    !/\bno-transform\b/i.test(String(res.getHeader("Cache-Control") ?? "")) &&
    COMPRESSIBLE_TYPE.test(String(res.getHeader("Content-Type") ?? ""))
  );
}

/**
 * API answers compressed for the clients that accept them (docs/decisions/0011, 0019): brotli, or
 * gzip, at the `compression` middleware's settings, but each answer in one call when it is sent
 * whole. A compression stream per answer cost 350 to 470 µs of CPU where one call takes 80 to 100 µs
 * (docs/performance.md). API answers are made whole (`res.json`); an answer written in parts (a book
 * file, which is never compressed) goes out as it is. Every answer says it varies with the encoding.
 */
export function compressAnswers(kept = new CompressedAnswers(KEPT_COMPRESSED_BYTES)): RequestHandler {
  return (req, res, next) => {
    res.vary("Accept-Encoding");
    if (req.method === "HEAD" || !req.headers["accept-encoding"]) return next();
    const encoding = new Negotiator(req).encoding(ENCODINGS, { preferred: PREFERRED_ENCODINGS });
    const compress = encoding ? compressors[encoding] : undefined;
    if (!compress) return next();

    const write = res.write;
    const end = res.end;
    let writtenInParts = false;
    res.write = function (this: Response, ...args: Parameters<Response["write"]>) {
      writtenInParts = true;
      return Reflect.apply(write, this, args) as boolean;
    } as Response["write"];
    res.end = function (this: Response, chunk?: unknown, chunkEncoding?: unknown, callback?: unknown) {
      if (writtenInParts || this.headersSent || (typeof chunk !== "string" && !Buffer.isBuffer(chunk))) {
        return Reflect.apply(end, this, [chunk, chunkEncoding, callback]) as Response;
      }
      const body = typeof chunk === "string" ? Buffer.from(chunk, typeof chunkEncoding === "string" ? (chunkEncoding as BufferEncoding) : "utf8") : chunk;
      const done = typeof chunkEncoding === "function" ? chunkEncoding : callback;
      if (!isCompressible(this, body)) return Reflect.apply(end, this, [body, done]) as Response;
      const compressed = kept.compressed(encoding!, body, compress);
      this.setHeader("Content-Encoding", encoding!);
      this.setHeader("Content-Length", compressed.length);
      return Reflect.apply(end, this, [compressed, done]) as Response;
    } as Response["end"];
    next();
  };
}
