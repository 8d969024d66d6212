import { createServer } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HTTP_TIMEOUTS, hardenHttpServer } from "./harden-server.ts";

const server = createServer((_req, res) => res.end("ok"));
let port: number;
beforeAll(async () => {
  hardenHttpServer(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends raw bytes and reads everything the server answers until it closes the connection. */
function exchange(raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(raw));
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as unknown;

describe("hardenHttpServer", () => {
  it("bounds headers, whole requests and idle connections", () => {
    expect(server.headersTimeout).toBe(HTTP_TIMEOUTS.headersMs);
    expect(server.requestTimeout).toBe(HTTP_TIMEOUTS.requestMs);
    expect(server.timeout).toBe(HTTP_TIMEOUTS.idleMs);
    expect(server.keepAliveTimeout).toBe(HTTP_TIMEOUTS.idleMs);
    expect(HTTP_TIMEOUTS.idleMs).toBeLessThan(HTTP_TIMEOUTS.requestMs);
  });

  it("answers a request line too long for Node's parser with 431 in the API's JSON shape", async () => {
    const answer = await exchange(`GET /${"x".repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toContain("Content-Type: application/json");
    expect(bodyOf(answer)).toEqual({ code: "headers_too_large", message: expect.any(String) });
  });

  it("answers a request Node cannot parse with 400 JSON", async () => {
    const answer = await exchange("NOT A REQUEST\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(answer)).toEqual({ code: "bad_request", message: expect.any(String) });
  });
});
