import { once } from "node:events";
import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { books, downloads } from "../db/schema.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type ListeningApp, listen } from "../../test/helpers/raw-http.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { logger } from "../system/logger.ts";

/*
 * The address a download is counted against (docs/decisions/0020): read once when the request
 * arrives, an IPv6 address as its /64, and behind a proxy the address the trusted proxy saw.
 */

type Agent = Awaited<ReturnType<typeof signedInAgent>>;

let behindProxy: TestApp;
let direct: TestApp;
beforeAll(async () => {
  [behindProxy, direct] = await Promise.all([createTestApp({ TRUST_PROXY: "loopback" }), createTestApp()]);
});
afterAll(() => Promise.all([behindProxy.close(), direct.close()]));

const readers = (testApp: TestApp, howMany: number) => Promise.all(Array.from({ length: howMany }, () => signedInAgent(testApp.app)));

async function newBook(testApp: TestApp) {
  const author = await signedInAgent(testApp.app);
  const response = await sendBookForm(author.agent.post("/api/books"), { coverImage: null }).expect(201);
  return response.body.id as number;
}

const logOf = (testApp: TestApp, bookId: number) =>
  testApp.database.db.select().from(downloads).where(eq(downloads.bookId, bookId)).orderBy(asc(downloads.id));
const countOf = async (testApp: TestApp, bookId: number) =>
  (await testApp.database.db.select().from(books).where(eq(books.id, bookId)))[0]!.downloadCount;

function sessionCookieOf(reader: Agent): string {
  const cookie = reader.agent.jar.getCookie("plume.sid", { domain: "127.0.0.1", path: "/", secure: false, script: false });
  if (!cookie) throw new Error("The reader has no session cookie");
  return cookie.toValueString();
}

/** Sends a download request on a raw connection and resets the connection as soon as it is written. */
async function downloadAndReset({ port }: ListeningApp, reader: Agent, bookId: number): Promise<void> {
  const socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  socket.write(
    `POST /api/books/${bookId}/download HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${sessionCookieOf(reader)}\r\nContent-Length: 0\r\n\r\n`,
  );
  socket.resetAndDestroy();
}

/** Waits until the server has let go of every connection and the log has stopped growing. */
async function waitUntilSettled(server: ListeningApp, testApp: TestApp, bookId: number) {
  let rows = -1;
  for (let waited = 0; waited < 10_000; waited += 250) {
    await sleep(250);
    const open = await new Promise<number>((resolve, reject) => server.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
    const now = (await logOf(testApp, bookId)).length;
    if (open === 0 && now === rows) return;
    rows = now;
  }
  throw new Error("The server did not settle");
}

describe("a download is counted against the address it came from", () => {
  it("keeps the per-address cap for readers who reset their connection at once", async () => {
    const server = await listen(direct.app);
    onTestFinished(() => server.close());
    const bookId = await newBook(direct);
    const crowd = await readers(direct, 8);
    await Promise.all(crowd.map((reader) => downloadAndReset(server, reader, bookId)));
    await waitUntilSettled(server, direct, bookId);

    // A request whose address was read before the reset is logged against it and capped; one
    // whose connection was gone before its address could be read is neither logged nor counted.
    const log = await logOf(direct, bookId);
    expect(log.every((row) => row.ipAddress === "127.0.0.1")).toBe(true);
    expect(log.filter((row) => row.counted).length).toBeLessThanOrEqual(3);
    expect(await countOf(direct, bookId)).toBe(log.filter((row) => row.counted).length);
  });

  it("counts a whole IPv6 /64 as one address, and an IPv4-mapped address as the IPv4 one", async () => {
    const bookId = await newBook(behindProxy);
    const crowd = await readers(behindProxy, 7);
    const addresses = ["2001:db8:7:1::a", "2001:db8:7:1:ffff::1", "2001:DB8:7:1:1:2:3:4", "2001:db8:7:1::9", "2001:db8:7:2::a", "::ffff:198.51.100.4", "198.51.100.4"];
    for (const [index, reader] of crowd.entries()) {
      await reader.agent.post(`/api/books/${bookId}/download`).set("X-Forwarded-For", addresses[index]!).expect(200);
    }
    const log = await logOf(behindProxy, bookId);
    expect(log.map((row) => [row.ipAddress, row.counted])).toEqual([
      ["2001:db8:7:1::/64", true],
      ["2001:db8:7:1::/64", true],
      ["2001:db8:7:1::/64", true],
      ["2001:db8:7:1::/64", false],
      ["2001:db8:7:2::/64", true],
      ["198.51.100.4", true],
      ["198.51.100.4", true],
    ]);
  });

  it("behind a proxy, counts an address forwarded with its port as the address, and never one that is not an address (docs/decisions/0053)", async () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => {});
    try {
      const bookId = await newBook(behindProxy);
      const forwarded = ["203.0.113.9:51234", "[2001:db8:9::1]:443", "unknown", "garbage, or worse"];
      const crowd = await readers(behindProxy, forwarded.length);
      for (const [index, reader] of crowd.entries()) {
        await reader.agent.post(`/api/books/${bookId}/download`).set("X-Forwarded-For", forwarded[index]!).expect(200);
      }
      expect((await logOf(behindProxy, bookId)).map((row) => [row.ipAddress, row.counted, row.notCountedReason])).toEqual([
        ["203.0.113.9", true, null],
        ["2001:db8:9::/64", true, null],
        [null, false, "no-address"],
        [null, false, "no-address"],
      ]);
      expect(await countOf(behindProxy, bookId)).toBe(2);
    } finally {
      warn.mockRestore();
    }
  });

  it("behind one proxy (TRUST_PROXY=1), takes the address the proxy saw, never the one the client wrote", async () => {
    const oneHop = behindProxy.anotherProcess({ TRUST_PROXY: "1" });
    try {
      const bookId = await newBook(behindProxy);
      const [reader] = await readers(behindProxy, 1);
      const request = (await import("supertest")).default;
      const cookie = sessionCookieOf(reader!);
      await request(oneHop.app).post(`/api/books/${bookId}/download`).set("Cookie", cookie).set("X-Forwarded-For", "192.0.2.66, 203.0.113.9").expect(200);
      expect((await logOf(behindProxy, bookId)).map((row) => row.ipAddress)).toEqual(["203.0.113.9"]);
    } finally {
      oneHop.close();
    }
  });

  it("ignores X-Forwarded-For without TRUST_PROXY, and says once in the log that a proxy seems to be in front", async () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => {});
    try {
      const bookId = await newBook(direct);
      const crowd = await readers(direct, 2);
      for (const [index, reader] of crowd.entries()) {
        await reader.agent.post(`/api/books/${bookId}/download`).set("X-Forwarded-For", `192.0.2.${index + 1}`).expect(200);
      }
      expect((await logOf(direct, bookId)).map((row) => row.ipAddress)).toEqual(["127.0.0.1", "127.0.0.1"]);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(/TRUST_PROXY is not set/);
    } finally {
      warn.mockRestore();
    }
  });
});
