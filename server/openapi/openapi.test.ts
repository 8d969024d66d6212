import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { ROUTE_TABLE, type RouteRule } from "../http/route-table.ts";
import { buildOpenApiDocument, callKey, isRestApiRoute, openApiPath } from "./openapi-document.ts";

/** Probes and the Prometheus scrape: for an orchestrator and a scraper, not the REST API's clients (docs/decisions/0040). */
const OPERATIONS_ROUTES = /^\/(healthz|readyz|metrics)$/;
/**
 * The routes that are not the REST API serve documents or protocols described by their own standards
 * (OPDS, KOReader's progress sync). A new route outside /api must be placed on one side or the other
 * here, never left out of the description by accident.
 */
const DOCUMENT_ROUTES = [/^\/opds(\/|$)/, /^\/unsubscribe$/, /^\/kosync\//, /^\/covers\//, /^\/feed\.xml$/, /^\/authors\/:id\/feed\.xml$/, /^\/sitemaps?[./]/, /^\/robots\.txt$/, OPERATIONS_ROUTES];

const document = buildOpenApiDocument(ROUTE_TABLE);
const METHODS = ["get", "post", "put", "patch", "delete"] as const;
const described = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  METHODS.filter((method) => item?.[method]).map((method) => `${method.toUpperCase()} ${path}`),
);

describe("the OpenAPI description", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    // The validator does refuse: the same document with an answer that has no description is not valid.
    const broken = structuredClone(document) as unknown as { paths: Record<string, Record<string, { responses: Record<string, object> }>> };
    broken.paths["/api/books"]!.get!.responses["200"] = {};
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it("describes every route of the REST API in the route table, and nothing else", () => {
    const rest = ROUTE_TABLE.filter(isRestApiRoute).map(callKey).sort();
    expect(rest.length).toBeGreaterThan(0);
    expect(described.sort()).toEqual(rest);
    for (const rule of ROUTE_TABLE.filter(isRestApiRoute)) expect(rule.summary, callKey(rule)).toBeTruthy();
  });

  it("leaves out only the routes that serve documents of their own kind", () => {
    for (const rule of ROUTE_TABLE.filter((candidate) => !isRestApiRoute(candidate))) {
      expect(DOCUMENT_ROUTES.some((pattern) => pattern.test(rule.path)), `${rule.method} ${rule.path}: REST API or a document?`).toBe(true);
    }
  });

  it("refuses to leave out a REST route without a description", () => {
    const undescribed: RouteRule = { method: "GET", path: "/api/books/:id/secrets", access: "public" };
    expect(() => buildOpenApiDocument([...ROUTE_TABLE, undescribed])).toThrow("GET /api/books/{id}/secrets has no description");
  });

  it("writes Express's path parameters as OpenAPI's, and describes each", () => {
    expect(openApiPath("/api/authors/:id/payments")).toBe("/api/authors/{id}/payments");
    const download = document.paths?.["/api/books/{id}/download"]?.post;
    expect(download?.parameters).toContainEqual(expect.objectContaining({ in: "path", name: "id", required: true }));
  });

  it("states each route's access rule as its security requirement and its refusals", () => {
    for (const rule of ROUTE_TABLE.filter(isRestApiRoute)) {
      const operation = document.paths?.[openApiPath(rule.path)]?.[rule.method.toLowerCase() as (typeof METHODS)[number]];
      const responses = Object.keys(operation?.responses ?? {});
      expect(responses, callKey(rule)).toContain("500");
      if (rule.access === "public") {
        expect(operation?.security, callKey(rule)).toEqual([]);
      } else {
        expect(operation?.security, callKey(rule)).toEqual([{ sessionCookie: [] }]);
        expect(responses, callKey(rule)).toContain("401");
      }
      if (["book-author", "account-or-admin", "admin", "signed-in-not-author"].includes(rule.access)) expect(responses, callKey(rule)).toContain("403");
    }
    expect(document.components?.securitySchemes).toMatchObject({ sessionCookie: { type: "apiKey", in: "cookie" }, eReaderKey: { type: "http", scheme: "basic" } });
  });

  it("gives every error the one error shape", () => {
    const errorSchema = document.components?.schemas?.ApiError as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(errorSchema.properties).sort()).toEqual(["code", "fields", "message", "requestId"]);
    expect(errorSchema.required.sort()).toEqual(["code", "message"]);
    const refusal = document.paths?.["/api/books/{id}"]?.get?.responses?.["404"] as { content: Record<string, { schema: unknown }> };
    expect(refusal.content["application/json"]!.schema).toEqual({ $ref: "#/components/schemas/ApiError" });
  });

  it("takes request shapes from the shared zod schemas", () => {
    const register = document.paths?.["/api/auth/register"]?.post?.requestBody as { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> };
    const schema = register.content["application/json"]!.schema;
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(["firstName", "lastName", "username", "email", "password", "confirmPassword"]));
    expect(schema.required).not.toContain("email");
    const upload = document.paths?.["/api/books"]?.post?.requestBody as { content: Record<string, { schema: { properties: Record<string, { format?: string }>; required: string[] } }> };
    const form = upload.content["multipart/form-data"]!.schema;
    expect(form.properties.file).toMatchObject({ format: "binary" });
    expect(form.required).toContain("file");
    expect(form.required).not.toContain("coverImage");
  });
});
