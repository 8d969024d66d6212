import { type FileHandle, open } from "node:fs/promises";
import type { Request, Response } from "express";
import { rangeNotSatisfiable } from "./errors.ts";

/** A file held open to be sent, with its size when it was opened (the length the response promises). */
export interface OpenedFile {
  handle: FileHandle;
  size: number;
}

/** Opens a file to send: held open, it stays whole even if it is deleted before it has gone out. */
export async function openFileToSend(path: string): Promise<OpenedFile> {
  const handle = await open(path, "r");
  try {
    return { handle, size: (await handle.stat()).size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** A part of a file, from `start` to `end` inclusive (a Range request's bytes). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The part of the file a Range header asks for, or undefined for the whole file: one range only
 * (what pdf.js asks), and a header that cannot be read is ignored, as HTTP allows. An unsatisfiable
 * range is refused with 416 and the file's size.
 */
export function requestedRange(req: Request, res: Response, size: number): ByteRange | undefined {
  const ranges = req.range(size, { combine: true });
  if (ranges === undefined || ranges === -2 || (ranges !== -1 && (ranges.type !== "bytes" || ranges.length !== 1))) return undefined;
  if (ranges === -1) {
    res.setHeader("Content-Range", `bytes */${size}`);
    throw rangeNotSatisfiable();
  }
  return ranges[0];
}

/**
 * Read and sent this much at a time: a 50 MB book takes 50 reads and writes. Against 256 KB, 1 MB
 * cost a fifth less CPU per GB sent (0.51 against 0.64 CPU s/GB) for 2 MB held per download in
 * flight; 4 MB gained nothing more (docs/decisions/0078).
 */
export const SEND_CHUNK_BYTES = 1024 * 1024;

/**
 * Marks the response no-transform: the book goes out byte for byte, and neither the API's compression
 * (compress-answers.ts) nor a proxy on the way may change it.
 */
export function forbidTransforms(res: Response): void {
  const directives = String(res.getHeader("Cache-Control") ?? "")
    .split(",")
    .map((directive) => directive.trim())
    .filter(Boolean);
  if (!directives.includes("no-transform")) res.setHeader("Cache-Control", [...directives, "no-transform"].join(", "));
}

/**
 * Sends the file as the response body (its other headers, Content-Length included, already set) and
 * ends the response. Each chunk is read into one of two buffers while the other is being written, and
 * a buffer is read into again only once the socket has taken all of it: a download allocates nothing
 * per chunk. A read stream allocates a buffer per chunk instead, and at hundreds of MB/s the garbage
 * collections cost as much CPU as the sending itself.
 *
 * Never rejects: a client that leaves ends it, and a file that cannot be read to its end cuts the
 * response, whose length was promised. The caller closes the file.
 *
 * `range` (inclusive byte offsets, checked by the caller) sends only that part, for a 206 answer.
 */
export async function sendFileBody(res: Response, file: OpenedFile, range: ByteRange = { start: 0, end: file.size - 1 }): Promise<void> {
  forbidTransforms(res);
  // Each write's callback says when its buffer is free again; a connection that closes settles them all.
  const closed = new Promise<Error>((resolve) => res.once("close", () => resolve(new Error("The connection closed"))));
  // Resolves with the write's error, if any, so a failure waits for its turn without being unhandled.
  const write = (chunk: Buffer) => Promise.race([new Promise<Error | null | undefined>((resolve) => res.write(chunk, resolve)), closed]);

  const buffers = [Buffer.allocUnsafeSlow(SEND_CHUNK_BYTES), Buffer.allocUnsafeSlow(SEND_CHUNK_BYTES)];
  let writing: Promise<Error | null | undefined> = Promise.resolve(null);
  let position = range.start;
  const limit = range.end + 1;
  try {
    for (let turn = 0; position < limit; turn = 1 - turn) {
      const buffer = buffers[turn]!;
      const { bytesRead } = await file.handle.read(buffer, 0, Math.min(buffer.length, limit - position), position);
      if (bytesRead === 0) throw new Error(`The file ended ${limit - position} bytes short of its size`);
      position += bytesRead;
      if (await writing) return;
      writing = write(buffer.subarray(0, bytesRead));
    }
    if (await writing) return;
    res.end();
  } catch (error) {
    res.destroy(error as Error);
  }
}
