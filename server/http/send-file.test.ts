import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, truncateSync, unlinkSync, writeFileSync } from "node:fs";
import { type IncomingMessage, type Server, get } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compressAnswers } from "./compress-answers.ts";
import { type OpenedFile, SEND_CHUNK_BYTES, openFileToSend, sendFileBody } from "./send-file.ts";

const folder = mkdtempSync(join(tmpdir(), "plume-send-file-"));
/** Several chunks and a remainder, as compressible as text, so a compressor would take it. */
const BOOK = Buffer.from("a".repeat(3 * SEND_CHUNK_BYTES + 123));
const LARGE = randomBytes(32 * 1024 * 1024);

/** What the test does to the file once it is open, and how its send ended. */
let afterOpening: (path: string) => void = () => {};
let sendsDone: Array<Promise<void>> = [];

let server: Server;
let baseUrl: string;
beforeAll(async () => {
  const app = express();
  app.use(compressAnswers());
  app.get("/:name", async (req, res) => {
    const path = join(folder, req.params.name);
    const file: OpenedFile = await openFileToSend(path);
    afterOpening(path);
    // ?start=&end= asks for a part of the file, as a Range request does.
    const range = req.query.start === undefined ? undefined : { start: Number(req.query.start), end: Number(req.query.end) };
    res.setHeader("Content-Type", "text/plain");
    res.setHeader("Content-Length", String(range ? range.end - range.start + 1 : file.size));
    res.setHeader("Cache-Control", "private, no-store");
    const sent = sendFileBody(res, file, range).finally(() => file.handle.close());
    sendsDone.push(sent);
    await sent;
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

function fileNamed(name: string, bytes: Buffer): string {
  writeFileSync(join(folder, name), bytes);
  afterOpening = () => {};
  sendsDone = [];
  return `${baseUrl}/${name}`;
}

/** The whole answer, or how far it got before the connection broke. */
function download(url: string): Promise<{ response: IncomingMessage; body: Buffer; aborted: boolean }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { "Accept-Encoding": "gzip, deflate, br" } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", () => {});
      response.on("close", () => resolve({ response, body: Buffer.concat(chunks), aborted: !response.complete }));
    }).on("error", reject);
  });
}

describe("sendFileBody", () => {
  it("sends the file byte for byte, uncompressed, whatever the client accepts", async () => {
    const { response, body, aborted } = await download(fileNamed("book.txt", BOOK));
    expect(aborted).toBe(false);
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect(response.headers["cache-control"]).toBe("private, no-store, no-transform");
    expect(Number(response.headers["content-length"])).toBe(BOOK.length);
    expect(body.equals(BOOK)).toBe(true);
  });

  it.each([
    ["across chunk boundaries", SEND_CHUNK_BYTES - 7, 3 * SEND_CHUNK_BYTES + 11],
    ["of one byte, the last", LARGE.length - 1, LARGE.length - 1],
    ["from the start", 0, 99],
  ])("sends only the part of the file asked for: %s", async (_name, start, end) => {
    const url = fileNamed("part.bin", LARGE);
    const { response, body, aborted } = await download(`${url}?start=${start}&end=${end}`);
    expect(aborted).toBe(false);
    expect(Number(response.headers["content-length"])).toBe(end - start + 1);
    expect(body.equals(LARGE.subarray(start, end + 1))).toBe(true);
  });

  it("sends an empty file as an empty body", async () => {
    const { body, aborted } = await download(fileNamed("empty.txt", Buffer.alloc(0)));
    expect(aborted).toBe(false);
    expect(body.length).toBe(0);
  });

  it("sends the file whole when it is deleted once open", async () => {
    const url = fileNamed("deleted.txt", LARGE);
    afterOpening = (path) => unlinkSync(path);
    const { body, aborted } = await download(url);
    expect(aborted).toBe(false);
    expect(body.equals(LARGE)).toBe(true);
  });

  it("cuts the response when the file turns out shorter than promised", async () => {
    const url = fileNamed("shrunk.txt", LARGE);
    afterOpening = (path) => truncateSync(path, SEND_CHUNK_BYTES + 10);
    const { body, aborted } = await download(url);
    expect(aborted).toBe(true);
    expect(body.length).toBeLessThanOrEqual(SEND_CHUNK_BYTES + 10);
    await expect(Promise.all(sendsDone)).resolves.toHaveLength(1);
  });

  it("stops, without failing, when the client leaves mid-download", async () => {
    const url = fileNamed("left.txt", LARGE);
    const received = await new Promise<number>((resolve) => {
      const request = get(url, (response) => {
        response.once("data", (chunk: Buffer) => {
          request.destroy();
          resolve(chunk.length);
        });
      });
      request.on("error", () => {});
    });
    expect(received).toBeGreaterThan(0);
    await expect(Promise.all(sendsDone)).resolves.toHaveLength(1);
  });
});
