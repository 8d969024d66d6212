import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { serveBuiltClient } from "./serve-client.ts";

function builtClient() {
  const folder = mkdtempSync(join(tmpdir(), "plume-client-"));
  mkdirSync(join(folder, "assets"));
  writeFileSync(join(folder, "index.html"), "<!doctype html><title>Plume</title>");
  writeFileSync(join(folder, "assets", "app-abc123.js"), "console.log(1)");
  const app = express();
  app.use(...serveBuiltClient(folder));
  return app;
}

describe("serveBuiltClient", () => {
  it("serves hashed assets with a year of immutable caching", async () => {
    const response = await request(builtClient()).get("/assets/app-abc123.js").expect(200);
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("answers every page path with the app, revalidated each time", async () => {
    for (const path of ["/", "/catalog", "/edit-book/3", "/no/such/page"]) {
      const response = await request(builtClient()).get(path).expect(200);
      expect(response.text).toContain("<title>Plume</title>");
      expect(response.headers["cache-control"]).toBe("no-cache");
    }
  });

  it("never serves files outside its folder", async () => {
    await request(builtClient()).get("/../package.json").expect(200).expect(/<title>Plume<\/title>/);
    await request(builtClient()).get("/%2e%2e/%2e%2e/etc/passwd").expect((response) => {
      expect(response.text).not.toContain("root:");
    });
  });
});
