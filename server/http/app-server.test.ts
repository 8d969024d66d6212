import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createAppServer } from "./app-server.ts";

let close: () => Promise<void> = async () => {};
afterEach(() => close());

describe("the app's HTTP server", () => {
  it("makes each request and response with the app's prototypes before Express sees them, and answers as Express does", async () => {
    const app = express();
    app.get("/hello", (req, res) => {
      res.json({ path: req.path, query: req.query });
    });
    const { server, serve } = createAppServer();
    serve(app);
    const seen: Array<[object, object]> = [];
    // Heard before the app's own listener, so before Express sets any prototype itself.
    server.prependListener("request", (req, res) => seen.push([Object.getPrototypeOf(req), Object.getPrototypeOf(res)]));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    const { port } = server.address() as AddressInfo;

    const response = await fetch(`http://127.0.0.1:${port}/hello?name=ana`);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ path: "/hello", query: { name: "ana" } });
    expect(seen).toHaveLength(1);
    expect(seen[0]![0]).toBe(app.request);
    expect(seen[0]![1]).toBe(app.response);
  });

  it("answers 503 until it has its app, which may come after it listens (docs/decisions/0053)", async () => {
    const { server, serve } = createAppServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    const { port } = server.address() as AddressInfo;
    expect((await fetch(`http://127.0.0.1:${port}/hello`)).status).toBe(503);

    serve(express().get("/hello", (_req, res) => res.send(`on ${port}`)));

    const response = await fetch(`http://127.0.0.1:${port}/hello`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(`on ${port}`);
  });
});
