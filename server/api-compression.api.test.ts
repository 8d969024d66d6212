import { once } from "node:events";
import { statSync } from "node:fs";
import { type IncomingMessage, get } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync } from "node:zlib";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, sendBookForm } from "../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, signedInAgent } from "../test/helpers/test-app.ts";

let testApp: TestApp;
let author: Awaited<ReturnType<typeof signedInAgent>>;
let bookId: number;

beforeAll(async () => {
  testApp = await createTestApp();
  author = await signedInAgent(testApp.app);
  // A long description makes the catalog answer large enough to be worth compressing.
  const description = "Une longue histoire de libraires, de cafés et de pluie sur les quais. ".repeat(30);
  const response = await sendBookForm(author.agent.post("/api/books"), { description, file: fixture("book.pdf") }).expect(201);
  bookId = response.body.id;
});
afterAll(() => testApp.close());

describe("compression of API answers", () => {
  it("compresses JSON for clients that accept it, brotli first", async () => {
    const plain = await request(testApp.app).get("/api/books").set("Accept-Encoding", "identity").expect(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const compressed = await request(testApp.app).get("/api/books").set("Accept-Encoding", "gzip, deflate, br").expect(200);
    expect(compressed.headers["content-encoding"]).toBe("br");
    expect(compressed.headers["vary"]).toMatch(/Accept-Encoding/);
    expect(compressed.body).toEqual(plain.body);
  });

  it("answers a client that accepts no encoding as it is, and says the answer depends on the encoding", async () => {
    const compressed = await request(testApp.app).get("/api/books").set("Accept-Encoding", "br").expect(200);
    const plain = await request(testApp.app).get("/api/books").unset("Accept-Encoding").expect(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["vary"]).toMatch(/Accept-Encoding/);
    expect(plain.body).toEqual(compressed.body);
  });

  it("compresses with gzip for a client without brotli, and not at all for one that refuses both", async () => {
    const plain = await request(testApp.app).get("/api/books").set("Accept-Encoding", "identity").expect(200);
    const gzipped = await request(testApp.app).get("/api/books").set("Accept-Encoding", "gzip;q=0.8, deflate").expect(200);
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.body).toEqual(plain.body);
    const refused = await request(testApp.app).get("/api/books").set("Accept-Encoding", "br;q=0, gzip;q=0, deflate").expect(200);
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(Number(refused.headers["content-length"])).toBe(Buffer.byteLength(JSON.stringify(plain.body)));
  });

  it("gives a compressed answer its compressed length and leaves small answers as they are", async () => {
    const plain = await request(testApp.app).get("/api/books").set("Accept-Encoding", "identity").expect(200);
    const server = testApp.app.listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const { port } = server.address() as AddressInfo;
      const [response] = (await once(get({ port, host: "127.0.0.1", path: "/api/books", headers: { "Accept-Encoding": "br" } }), "response")) as [IncomingMessage];
      const chunks: Buffer[] = [];
      for await (const chunk of response) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      expect(response.headers["content-encoding"]).toBe("br");
      expect(Number(response.headers["content-length"])).toBe(body.length);
      expect(JSON.parse(brotliDecompressSync(body).toString("utf8"))).toEqual(plain.body);
    } finally {
      server.close();
    }
    const small = await request(testApp.app).get("/api/stats/public").set("Accept-Encoding", "br").expect(200);
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.headers["vary"]).toMatch(/Accept-Encoding/);
  });

  it("answers 304 without a body when the client already has the answer", async () => {
    const first = await request(testApp.app).get("/api/books").set("Accept-Encoding", "br").expect(200);
    const again = await request(testApp.app).get("/api/books").set("Accept-Encoding", "br").set("If-None-Match", String(first.headers["etag"])).expect(304);
    expect(again.headers["content-encoding"]).toBeUndefined();
    expect(again.text).toBe("");
  });

  it("answers a HEAD with the plain answer's headers and no body", async () => {
    const response = await request(testApp.app).head("/api/books").set("Accept-Encoding", "br").expect(200);
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect(response.headers["vary"]).toMatch(/Accept-Encoding/);
  });

  it("sends book files as stored, with their length, whatever the client accepts", async () => {
    const response = await author.agent.post(`/api/books/${bookId}/download`).set("Accept-Encoding", "gzip, deflate, br").expect(200);
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect(Number(response.headers["content-length"])).toBe(statSync(fixture("book.pdf")).size);
  });
});
