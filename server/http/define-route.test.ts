import express, { type RequestHandler } from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type RouteGroup, routeGroup, routerOf, routesOf } from "./define-route.ts";
import { errorHandler } from "./error-handler.ts";
import { unauthorized } from "./errors.ts";
import { ROUTE_TABLE } from "./route-table.ts";

const route = routesOf<{ seen: string[] }>();
const appOf = <Deps>(group: RouteGroup<Deps>, deps: Deps) => express().use(express.json()).use(group.base || "/", routerOf(group, deps)).use(errorHandler);
const answer = { status: 200, description: "Done." } as const;
const described = { summary: "A test route", tag: "test", errors: [] } as const;

describe("a route declared once", () => {
  it("cannot be declared without an access rule", () => {
    expect(() =>
      // @ts-expect-error: the access rule is required, and the type says so before the run does.
      route({ method: "GET", path: "/api/books/:id/secret", ...described, answer }, () => undefined),
    ).toThrow(/GET \/api\/books\/:id\/secret has no access rule/);
    expect(() =>
      // @ts-expect-error: nor can it name a rule that does not exist.
      route({ method: "GET", path: "/api/books/:id/secret", access: "friends", ...described, answer }, () => undefined),
    ).toThrow(/has no access rule/);
  });

  it("cannot be placed in a group under another base", () => {
    const stray = route({ method: "GET", path: "/api/books", access: "public", ...described, answer }, () => undefined);
    expect(() => routeGroup("/opds", [stray])).toThrow(/GET \/api\/books is declared in the group under \/opds/);
  });

  it("has exactly one rule for each route in the table", () => {
    const keys = ROUTE_TABLE.map(({ method, path }) => `${method} ${path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const rule of ROUTE_TABLE) expect(["public", "signed-in", "signed-in-not-author", "book-author", "account-or-admin", "admin", "e-reader-key"]).toContain(rule.access);
  });

  it("checks the caller before the route's own steps run", async () => {
    const seen: string[] = [];
    const group = routeGroup("/api/account", [
      route(
        { method: "GET", path: "/api/account/sessions", access: "signed-in", ...described, before: (deps) => [(_req, _res, next) => (deps.seen.push("before"), next())], answer },
        ({ res }, deps) => {
          deps.seen.push("handler");
          res.end();
        },
      ),
    ]);
    const response = await request(appOf(group, { seen })).get("/api/account/sessions");
    expect(response.status).toBe(401);
    expect(seen).toEqual([]);
  });

  it("gives the handler its input as the schemas parsed it, and sends its answer with the declared status", async () => {
    const group = routeGroup("/api", [
      route(
        {
          method: "POST",
          path: "/api/things/:id",
          access: "public",
          ...described,
          params: z.object({ id: z.coerce.number().int() }),
          query: z.object({ mode: z.enum(["a", "b"]).default("a") }),
          body: z.object({ name: z.string().trim().min(1) }),
          answer: { status: 201, description: "Made.", json: z.object({ id: z.number(), mode: z.string(), name: z.string() }) },
        },
        ({ params, query, body }) => ({ id: params.id, mode: query.mode, name: body.name }),
      ),
    ]);
    // The answer is typed by the declared schema: a handler that returns another shape does not compile.
    const numbered = { ...described, method: "GET", path: "/api/numbers", access: "public", answer: { ...answer, json: z.object({ id: z.number() }) } } as const;
    // @ts-expect-error: "seven" is not the number the answer declares.
    route(numbered, () => ({ id: "seven" }));
    route(numbered, () => ({ id: 7 }));
    const app = appOf(group, { seen: [] });
    const made = await request(app).post("/api/things/7").send({ name: "  Plume " });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ id: 7, mode: "a", name: "Plume" });
    const refused = await request(app).post("/api/things/seven?mode=c").send({ name: "" });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "validation_failed" });
  });

  it("answers 204 for a route that returns nothing", async () => {
    const group = routeGroup("/api", [
      route({ method: "DELETE", path: "/api/things/1", access: "public", ...described, answer: { status: 204, description: "Gone." } }, () => undefined),
    ]);
    expect((await request(appOf(group, { seen: [] })).delete("/api/things/1")).status).toBe(204);
  });

  it("checks an e-reader-key route with the key check its group gives, and refuses to mount one without", async () => {
    const seen: string[] = [];
    const file = route({ method: "GET", path: "/opds/books/:id/file", access: "e-reader-key", ...described, answer }, ({ res }, deps) => {
      deps.seen.push("handler");
      res.end();
    });
    expect(() => routerOf(routeGroup("/opds", [file]), { seen })).toThrow(/needs the e-reader key check/);
    const eReaderKey: RequestHandler = (req, _res, next) => {
      seen.push("key check");
      next(req.headers.authorization === "Basic good" ? undefined : unauthorized());
    };
    const app = appOf(routeGroup("/opds", [file], { authenticators: () => ({ eReaderKey }) }), { seen });
    expect((await request(app).get("/opds/books/1/file")).status).toBe(401);
    expect(seen).toEqual(["key check"]);
    expect((await request(app).get("/opds/books/1/file").set("Authorization", "Basic good")).status).toBe(200);
    expect(seen).toEqual(["key check", "key check", "handler"]);
  });

  it("guards everything under an admin base, unknown paths included", async () => {
    const app = appOf(routeGroup("/api/admin", [], { guardAll: "admin" }), { seen: [] });
    expect((await request(app).get("/api/admin/anything")).status).toBe(401);
  });
});
