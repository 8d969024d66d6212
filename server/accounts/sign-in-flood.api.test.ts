import { randomBytes, scryptSync } from "node:crypto";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../db/schema.ts";
import { HTTP_TIMEOUTS, hardenHttpServer } from "../http/harden-server.ts";
import { createLogger } from "../system/logger.ts";
import { type TestApp, createTestApp } from "../../test/helpers/test-app.ts";
import { HASHES_AT_ONCE, HASHES_WAITING, HASH_WAIT_LIMIT_MS } from "./passwords.ts";

/**
 * A sign-in flood (docs/decisions/0054): every request gets an answer, 401 or 503, and a log line with
 * it, long before the server's idle timeout closes a connection. The account's hash is made four times
 * as costly as a standard one (p=12 where new accounts get 3: the same memory, four times the work), as
 * a slow or busy machine makes a standard one; the queue full of them is then about a minute of work,
 * which HASHES_WAITING alone let wait past the idle timeout.
 */
const FLOOD = HASHES_AT_ONCE + HASHES_WAITING + 30;
const SLOW_HASH = { N: 2 ** 15, r: 8, p: 12 };

function slowHash(password: string): string {
  const salt = randomBytes(16);
  const maxmem = 256 * SLOW_HASH.N * SLOW_HASH.r + 16 * 1024 * 1024;
  const key = scryptSync(password, salt, 64, { ...SLOW_HASH, maxmem });
  return ["scrypt", SLOW_HASH.N, SLOW_HASH.r, SLOW_HASH.p, salt.toString("base64"), key.toString("base64")].join("$");
}

const lines: string[] = [];
let testApp: TestApp;
let server: Server;
let loginUrl: string;

beforeAll(async () => {
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  testApp = await createTestApp({}, { logger: createLogger("info", destination) });
  await testApp.database.db.insert(users).values({ username: "flooded", email: null, password: slowHash("the-right-password") });
  // The real server's timeouts, as `npm start` sets them.
  server = createServer(testApp.app);
  hardenHttpServer(server, HTTP_TIMEOUTS);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  loginUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/auth/login`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await testApp.close();
});

describe("a sign-in flood", () => {
  it("answers every request, 401 or 503 server_busy, before the idle timeout, and logs each with its status", { timeout: 90_000 }, async () => {
    const answers = await Promise.all(
      Array.from({ length: FLOOD }, async () => {
        try {
          const response = await fetch(loginUrl, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ username: "flooded", password: "a-wrong-password" }),
            // Past the idle timeout: a connection the server closed unanswered shows as an error here.
            signal: AbortSignal.timeout(HTTP_TIMEOUTS.idleMs + 10_000),
          });
          return { status: response.status, code: ((await response.json()) as { code: string }).code };
        } catch (error) {
          return { status: 0, code: `no answer: ${String((error as Error).cause ?? error)}` };
        }
      }),
    );

    const codes = answers.map(({ code }) => code);
    expect(codes.filter((code) => code !== "invalid_credentials" && code !== "server_busy")).toEqual([]);
    expect(codes).toContain("invalid_credentials");
    expect(codes).toContain("server_busy");

    const logged = lines.map((line) => JSON.parse(line) as { route?: string; status: number | null; durationMs: number }).filter(({ route }) => route === "/api/auth/login");
    expect(logged.map(({ status }) => status).sort()).toEqual(answers.map(({ status }) => status).sort());
    // No answer waited past the hashing queue's limit by more than the hashes then running and the work around them.
    expect(Math.max(...logged.map(({ durationMs }) => durationMs))).toBeLessThan(HASH_WAIT_LIMIT_MS + 15_000);
  });
});
