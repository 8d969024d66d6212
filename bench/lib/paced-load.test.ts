import { once } from "node:events";
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { runPacedLoad } from "./paced-load.ts";

const servers: Array<ReturnType<typeof createServer>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function serve(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe("runPacedLoad", () => {
  it("spreads the requests over the second instead of sending them in one burst", async () => {
    const arrivals: number[] = [];
    const url = await serve((_request, answer) => {
      arrivals.push(performance.now());
      answer.end("ok");
    });
    const figures = await runPacedLoad({ url, rate: 100, seconds: 1, connections: 20 });

    expect(arrivals).toHaveLength(100);
    const firstHalf = arrivals.filter((at) => at - arrivals[0]! < 500).length;
    // Evenly paced, half arrive in the first half second; a burst would bring all 100 at once.
    expect(firstHalf).toBeGreaterThan(25);
    expect(firstHalf).toBeLessThan(75);
    expect(figures.offered).toBe(100);
    expect(figures.p50Ms).toBeLessThanOrEqual(figures.p99Ms);
  });

  it("charges a request for the time it waited behind a server that fell behind", async () => {
    // One connection to a server that takes 50 ms an answer: 20 a second, against 50 offered.
    const url = await serve((_request, answer) => setTimeout(() => answer.end("ok"), 50));
    const figures = await runPacedLoad({ url, rate: 50, seconds: 1, connections: 1 });

    expect(figures.requestsPerSecond).toBeLessThan(30);
    // The last request was due at 0.98 s and answered after 50 × 50 ms: about 1.5 s late.
    expect(figures.maxMs).toBeGreaterThan(1_000);
    expect(figures.p99Ms).toBeGreaterThan(500);
  });

  it("refuses the whole load when a request fails, so that failing fast never reads as fast", async () => {
    const url = await serve((_request, answer) => {
      answer.statusCode = 503;
      answer.end();
    });
    await expect(runPacedLoad({ url, rate: 20, seconds: 0.5, connections: 5 })).rejects.toThrow(/10 of 10 requests failed \(status 503\)/);
  });
});
