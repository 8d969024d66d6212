import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DownloadTarget, MEGABYTE, compareDownloads } from "./download-load.ts";

const FILE = Buffer.alloc(MEGABYTE, 7);
const PLAN = { rounds: 2, sliceSeconds: 0.2, warmupSeconds: 0.05 };

/** Serves the file whole at /file, and the ways a server can fail fast at the other paths. */
let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/file") return void res.writeHead(200, { "Content-Length": FILE.length }).end(FILE);
    if (req.url === "/compressed") return void res.writeHead(200, { "Content-Length": 10, "Content-Encoding": "gzip" }).end(Buffer.alloc(10));
    if (req.url === "/short") return void res.writeHead(200).end(FILE.subarray(0, 1000));
    res.writeHead(429, { "Content-Type": "application/json" }).end('{"code":"too_many_requests"}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** `count` clients of the test's own server (it runs in this process). */
const clients = (path: string, count: number): DownloadTarget => ({
  calls: Array.from({ length: count }, () => ({ url: `${baseUrl}${path}`, method: "GET", headers: {} })),
  processIds: [process.pid],
});

describe("compareDownloads", () => {
  it("measures every target's throughput and the CPU its server spends per GB", async () => {
    const figures = await compareDownloads({ one: clients("/file", 1), three: clients("/file", 3) }, FILE.length, PLAN);
    for (const [target, count] of [["one", 1], ["three", 3]] as const) {
      const figure = figures[target];
      expect(figure.completed).toBeGreaterThan(0);
      // A download that finished in a slice may have begun before it: only its bytes inside count.
      const measuredMegabytes = figure.megabytesPerSecond * PLAN.rounds * PLAN.sliceSeconds * 1.2;
      expect(measuredMegabytes).toBeGreaterThan(figure.completed - PLAN.rounds * count);
      // Server and clients share this process: each GB costs it CPU time, about all the machine's cores
      // for as long at most. Both figures are medians of their own rounds, so on a busy machine their
      // product can pass the cores by some: the bound is loose, there to catch a unit error (clock
      // ticks read as seconds would be 100 times over), not to time anything.
      expect(figure.cpuSecondsPerGigabyte).toBeGreaterThan(0);
      expect(figure.cpuSecondsPerGigabyte * (figure.megabytesPerSecond / 1024)).toBeLessThanOrEqual(cpus().length * 3);
    }
  });

  it.each([
    ["refused", "/refused", /answered 429 \(identity\): \{"code":"too_many_requests"\}/],
    ["compressed", "/compressed", /answered 200 \(gzip\)/],
    ["cut short", "/short", /sent 1000 of 1048576 bytes/],
  ])("voids the figure when a download is %s", async (_case, path, message) => {
    await expect(compareDownloads({ server: clients(path, 2) }, FILE.length, PLAN)).rejects.toThrow(message);
  });
});
