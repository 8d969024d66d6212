import express, { type RequestHandler } from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { GuardedRouter, ruleOf } from "./access.ts";
import { errorHandler } from "./error-handler.ts";
import { unauthorized } from "./errors.ts";
import { ROUTE_TABLE } from "./route-table.ts";

describe("the route table drives the access check", () => {
  it("refuses to mount a route the table does not list", () => {
    expect(() => new GuardedRouter("/api", undefined).get("/books/:id/secret", (_req, res) => res.end())).toThrow(
      /GET \/api\/books\/:id\/secret has no rule/,
    );
    expect(() => ruleOf("DELETE", "/api/config")).toThrow(/no rule/);
  });

  it("finds every listed route's rule by method and full path", () => {
    for (const rule of ROUTE_TABLE) expect(ruleOf(rule.method, rule.path)).toBe(rule);
  });

  it("checks the caller before the route's own handlers run", async () => {
    let reached = false;
    const routes = new GuardedRouter("/api/account", undefined).get("/sessions", (_req, res) => {
      reached = true;
      res.end();
    });
    const app = express().use(routes.base, routes.router).use(errorHandler);
    const response = await request(app).get("/api/account/sessions");
    expect(response.status).toBe(401);
    expect(reached).toBe(false);
  });

  it("checks an e-reader-key route with the key check its router was given, and refuses to mount one without", async () => {
    expect(() => new GuardedRouter("/opds", undefined).get("/books/:id/file", (_req, res) => res.end())).toThrow(/needs the e-reader key check/);
    const seen: string[] = [];
    const eReaderKey: RequestHandler = (req, _res, next) => {
      seen.push("key check");
      next(req.headers.authorization === "Basic good" ? undefined : unauthorized());
    };
    const routes = new GuardedRouter("/opds", undefined, { eReaderKey }).get("/books/:id/file", (_req, res) => {
      seen.push("handler");
      res.end();
    });
    const app = express().use(routes.base, routes.router).use(errorHandler);
    expect((await request(app).get("/opds/books/1/file")).status).toBe(401);
    expect(seen).toEqual(["key check"]);
    expect((await request(app).get("/opds/books/1/file").set("Authorization", "Basic good")).status).toBe(200);
    expect(seen).toEqual(["key check", "key check", "handler"]);
  });

  it("guards everything under an admin base, unknown paths included", async () => {
    const routes = new GuardedRouter("/api/admin", "admin@example.com").guardAll("admin");
    const app = express().use(routes.base, routes.router).use(errorHandler);
    expect((await request(app).get("/api/admin/anything")).status).toBe(401);
  });
});
