import { statSync } from "node:fs";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, sendBookForm } from "./test/book-fixtures.ts";
import { type TestApp, createTestApp, signedInAgent } from "./test/test-app.ts";

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

  it("sends book files as stored, with their length, whatever the client accepts", async () => {
    const response = await author.agent.post(`/api/books/${bookId}/download`).set("Accept-Encoding", "gzip, deflate, br").expect(200);
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect(Number(response.headers["content-length"])).toBe(statSync(fixture("book.pdf")).size);
  });
});
