import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import request from "supertest";
import { S3Client, UploadPartCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type TestS3Server, startS3Server } from "../../test/helpers/s3-server.ts";
import { freePort } from "../../test/helpers/free-port.ts";
import { ConfigError } from "../config.ts";
import { requestedRange } from "../http/send-file.ts";
import { DiskStore } from "./disk-store.ts";
import type { FileStore, StoredKind } from "./file-store.ts";
import { openFileStore } from "./open-store.ts";
import { S3Store, isTransientS3Error } from "./s3-store.ts";

let s3: TestS3Server;
const folders: string[] = [];
const folder = () => {
  const path = mkdtempSync(join(tmpdir(), "plume-store-"));
  folders.push(path);
  return path;
};
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
  for (const path of folders) rmSync(path, { recursive: true, force: true });
});

const drivers: Array<[string, () => FileStore]> = [
  ["disk", () => new DiskStore(folder())],
  ["s3", () => new S3Store(s3.settings, join(folder(), "tmp"))],
];

/** Serves one stored file as the routes do: Range-aware, through the driver's own sending. */
function fileServer(store: FileStore, kind: StoredKind, name: string) {
  return express().get("/file", async (req, res) => {
    const file = await store.open(kind, name);
    try {
      const range = requestedRange(req, res, file.size);
      res.setHeader("Content-Type", "application/octet-stream");
      if (range) res.status(206).setHeader("Content-Range", `bytes ${range.start}-${range.end}/${file.size}`);
      res.setHeader("Content-Length", String(range ? range.end - range.start + 1 : file.size));
      await file.send(res, range);
    } finally {
      await file.close();
    }
  });
}

/** Bytes whose every position is told apart, so a range sent from the wrong offset shows. */
function numbered(length: number): Buffer {
  const data = Buffer.alloc(length);
  for (let index = 0; index < length; index += 1) data[index] = (index * 7 + (index >> 8)) % 251;
  return data;
}

/** Larger than the bucket driver sends in one PutObject: it goes in 8 MiB parts. */
const MULTIPART_BYTES = 20 * 1024 * 1024;
const PART_SEAM = 8 * 1024 * 1024;

describe.each(drivers)("the %s storage driver", (_driver, makeStore) => {
  let store: FileStore;
  beforeAll(() => {
    store = makeStore();
  });
  afterAll(() => store.close());

  function tempFile(data: Buffer): string {
    const path = store.temp.newPath();
    writeFileSync(path, data);
    return path;
  }

  it("keeps a checked temporary file under a new name and sends it whole or in part", async () => {
    const data = numbered(100_000);
    const temp = tempFile(data);
    const name = await store.keep(temp, "books", "pdf");

    expect(name).toMatch(/^[0-9a-f-]{36}\.pdf$/);
    expect(readdirSync(store.temp.dir)).toEqual([]);
    expect(await store.has("books", name)).toBe(true);
    const whole = await request(fileServer(store, "books", name)).get("/file");
    expect(whole.status).toBe(200);
    expect(Buffer.compare(whole.body as Buffer, data)).toBe(0);
    const part = await request(fileServer(store, "books", name)).get("/file").set("Range", "bytes=1000-1999");
    expect(part.status).toBe(206);
    expect(part.headers["content-range"]).toBe("bytes 1000-1999/100000");
    expect(Buffer.compare(part.body as Buffer, data.subarray(1000, 2000))).toBe(0);
    const beyond = await request(fileServer(store, "books", name)).get("/file").set("Range", "bytes=200000-");
    expect(beyond.status).toBe(416);
  });

  it("streams a file larger than one part and sends it whole, and a range across the parts' seam", async () => {
    const data = numbered(MULTIPART_BYTES);
    const temp = tempFile(data);
    const name = await store.keep(temp, "books", "pdf");
    expect(readdirSync(store.temp.dir)).not.toContain(temp.split("/").at(-1));
    const part = await request(fileServer(store, "books", name)).get("/file").set("Range", `bytes=${PART_SEAM - 10}-${PART_SEAM + 9}`);
    expect(part.status).toBe(206);
    expect(Buffer.compare(part.body as Buffer, data.subarray(PART_SEAM - 10, PART_SEAM + 10))).toBe(0);
    const whole = await request(fileServer(store, "books", name)).get("/file").buffer(true);
    expect(Buffer.compare(whole.body as Buffer, data)).toBe(0);
  });

  it("writes, lists with their age, lends a local copy and removes; a name it did not make is refused", async () => {
    const name = `${randomUUID()}-200.webp`;
    const before = Date.now() - 2_000;
    await store.write("covers", name, Buffer.from("RIFF-cover"));

    const listed = (await store.list("covers")).find((entry) => entry.name === name);
    expect(listed!.modifiedAt.getTime()).toBeGreaterThanOrEqual(before);
    const opened = await store.open("covers", name);
    expect(opened.etag).toBeTruthy();
    await opened.close();
    expect(await store.withLocalFile("covers", name, async (path) => readFileSync(path, "utf8"))).toBe("RIFF-cover");
    // The copy was the driver's to remove (the disk driver lends the file itself).
    expect(readdirSync(store.temp.dir)).toEqual([]);

    await store.remove("covers", name);
    await store.remove("covers", name);
    expect(await store.has("covers", name)).toBe(false);
    await expect(store.open("covers", name)).rejects.toThrow();
    await expect(store.write("covers", "../escape.webp", Buffer.alloc(1))).rejects.toThrow(/Not a stored file name/);
  });

  it("leaves nothing stored when a keep fails", async () => {
    const before = await store.list("books");
    await expect(store.keep(join(store.temp.dir, "never-written"), "books", "pdf")).rejects.toThrow();
    expect(await store.list("books")).toEqual(before);
  });
});

describe("the s3 driver's multipart upload", () => {
  it("is aborted when a part fails: no object, and the temporary file is the caller's", async () => {
    const store = new S3Store(s3.settings, join(folder(), "tmp"));
    const path = store.temp.newPath();
    writeFileSync(path, numbered(MULTIPART_BYTES));
    const before = await s3.keys();
    const sent: string[] = [];
    const send = S3Client.prototype.send;
    const failingSecondPart = function (this: S3Client, command: { constructor: { name: string } }, ...rest: unknown[]): Promise<unknown> {
      sent.push(command.constructor.name);
      // The second part fails, as a dropped connection would.
      if (command instanceof UploadPartCommand && sent.filter((name) => name === "UploadPartCommand").length === 2) return Promise.reject(new Error("connection reset"));
      return (send as (...args: unknown[]) => Promise<unknown>).call(this, command, ...rest);
    };
    // send is overloaded (a callback form returns nothing): the stand-in is typed as the promise form only.
    const spy = vi.spyOn(S3Client.prototype, "send").mockImplementation(failingSecondPart as never);
    try {
      await expect(store.keep(path, "books", "pdf")).rejects.toThrow("connection reset");
      expect(sent).toEqual(["CreateMultipartUploadCommand", "UploadPartCommand", "UploadPartCommand", "AbortMultipartUploadCommand"]);
      spy.mockRestore();
      expect(await s3.keys()).toEqual(before);
      expect(readdirSync(store.temp.dir)).toEqual([path.split("/").at(-1)]);
    } finally {
      spy.mockRestore();
      store.close();
    }
  });
});

type Fault = "pass" | "cut" | number;

/**
 * The bucket behind an HTTP proxy that treats each PUT as `faultOfPut` says for the n-th one: passed
 * on, its connection cut once its first bytes arrived, or answered with that status and the bucket's
 * XML error. Every other request is passed on.
 */
async function faultyBucket(faultOfPut: (index: number) => Fault) {
  const upstream = new URL(s3.settings.endpoint!);
  let puts = 0;
  const server = createServer((req, res) => {
    const fault = req.method === "PUT" ? faultOfPut(puts++) : "pass";
    if (fault === "cut") {
      req.once("data", () => req.socket.destroy());
      return;
    }
    if (typeof fault === "number") {
      req.resume().once("end", () => {
        res.writeHead(fault, { "Content-Type": "application/xml" });
        res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${fault === 503 ? "SlowDown" : "AccessDenied"}</Code><Message>Refused by the test.</Message></Error>`);
      });
      return;
    }
    const forwarded = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const store = new S3Store({ ...s3.settings, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }, join(folder(), "tmp"));
  return {
    store,
    puts: () => puts,
    close: async () => {
      store.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("the s3 driver's sending of a file", () => {
  it("sends it again, read afresh, when the connection is cut mid-upload or the bucket asks to slow down", async () => {
    const bucket = await faultyBucket((index) => (index === 0 ? "cut" : index === 1 ? 503 : "pass"));
    try {
      const bytes = numbered(200_000);
      const path = bucket.store.temp.newPath();
      writeFileSync(path, bytes);
      const name = await bucket.store.keep(path, "books", "pdf");
      expect(bucket.puts()).toBe(3);
      const kept = await bucket.store.withLocalFile("books", name, async (local) => readFileSync(local));
      expect(kept.equals(bytes)).toBe(true);
      expect(readdirSync(bucket.store.temp.dir)).toEqual([]);
    } finally {
      await bucket.close();
    }
  });

  it.each([
    ["gives up after its third try when the bucket keeps failing", 503, 3],
    ["never sends again what the bucket refused", 403, 1],
  ])("%s", async (_name, status, tries) => {
    const bucket = await faultyBucket(() => status);
    try {
      const path = bucket.store.temp.newPath();
      writeFileSync(path, numbered(1_000));
      const failure = await bucket.store.keep(path, "books", "pdf").catch((error: unknown) => error);
      // Given up on, the author is told to try again later (a 503), not that the server failed.
      if (status === 503) expect(failure).toMatchObject({ status: 503, code: "file_store_unavailable", retryAfterSeconds: 60 });
      else expect(failure).toMatchObject({ $metadata: { httpStatusCode: 403 } });
      expect(bucket.puts()).toBe(tries);
    } finally {
      await bucket.close();
    }
  });

  it("tells a transient failure from a lasting one", () => {
    expect(isTransientS3Error(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }))).toBe(true);
    expect(isTransientS3Error(Object.assign(new Error("timed out"), { name: "TimeoutError" }))).toBe(true);
    expect(isTransientS3Error(new Error("connection reset"))).toBe(false);
    expect(isTransientS3Error(Object.assign(new Error("no such file"), { code: "ENOENT" }))).toBe(false);
  });
});

describe("the s3 driver's start-up check", () => {
  it("passes for a bucket it can use", async () => {
    const store = new S3Store(s3.settings, join(folder(), "tmp"));
    await expect(store.check()).resolves.toBeUndefined();
    store.close();
  });

  const refusal = async (changes: Partial<TestS3Server["settings"]>) => {
    const store = new S3Store({ ...s3.settings, ...changes }, join(folder(), "tmp"));
    try {
      await store.check();
      throw new Error("the check passed");
    } catch (error) {
      return (error as Error).message;
    } finally {
      store.close();
    }
  };

  it("stops the opening of the store the settings name, with the line the server prints", async () => {
    const opening = openFileStore({ dataDir: folder(), storage: { driver: "s3", s3: { ...s3.settings, bucket: "no-such-bucket" } } });
    await expect(opening).rejects.toThrow(ConfigError);
    await expect(opening).rejects.toThrow(/^Invalid setting S3_BUCKET: /);
  });

  it("names the missing bucket", async () => {
    expect(await refusal({ bucket: "no-such-bucket" })).toBe(`Invalid setting S3_BUCKET: there is no bucket no-such-bucket at ${s3.settings.endpoint}`);
  });

  it("names the refused keys without repeating them", async () => {
    const message = await refusal({ accessKeyId: "WRONG-KEY-ID", secretAccessKey: "wrong-secret-value" });
    expect(message).toMatch(/^Invalid setting S3_ACCESS_KEY_ID: .* refused these keys/);
    expect(message).not.toContain("WRONG-KEY-ID");
    expect(message).not.toContain("wrong-secret-value");
  });

  it("names an endpoint that does not answer, within seconds", async () => {
    const started = Date.now();
    const message = await refusal({ endpoint: `http://127.0.0.1:${await freePort()}` });
    expect(message).toMatch(/^Invalid setting S3_ENDPOINT: could not reach http:\/\/127\.0\.0\.1:\d+ within 5 s/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
