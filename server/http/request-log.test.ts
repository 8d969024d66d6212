import { Writable } from "node:stream";
import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createLogger } from "../system/logger.ts";
import { markRoute } from "./access.ts";
import { requestId } from "./request-id.ts";
import { requestLog } from "./request-log.ts";

function loggedApp() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = express().use(requestId, requestLog(createLogger("info", destination)));
  app.get("/api/books/:id", markRoute("/api/books/:id"), (_req, res) => void res.json({ ok: true }));
  app.get("/broken", (_req, res) => void res.status(500).json({ message: "no" }));
  return { app, lines };
}

describe("the request log's lines (docs/decisions/0040)", () => {
  it("names a matched route by its pattern and anything else by its path without the query", async () => {
    const { app, lines } = loggedApp();
    const answered = await request(app).get("/api/books/42?secret=1").expect(200);
    await request(app).get("/nothing?secret=1").expect(404);
    expect(lines[0]).toMatchObject({ level: 30, msg: "request completed", requestId: answered.headers["x-request-id"], method: "GET", route: "/api/books/:id", status: 200 });
    expect(lines[1]).toMatchObject({ level: 30, msg: "request completed", method: "GET", path: "/nothing", status: 404 });
    expect(JSON.stringify(lines)).not.toContain("secret");
  });

  it("logs a 5xx answer as a failed request", async () => {
    const { app, lines } = loggedApp();
    await request(app).get("/broken").expect(500);
    expect(lines).toEqual([expect.objectContaining({ level: 50, msg: "request failed", path: "/broken", status: 500, error: "failed with status code 500" })]);
  });
});
