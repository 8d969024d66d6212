import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, createTestApp } from "../../test/helpers/test-app.ts";

let testApp: TestApp;
beforeAll(async () => {
  testApp = await createTestApp();
});
afterAll(() => testApp.close());

// Regressions found by server/fuzz.api.test.ts: these paths outside /api fell through to Express's
// HTML "Cannot GET" page (and in production to the app's page) instead of an API error.
describe("paths under /covers, /rate and /rating that no route takes", () => {
  it.each([
    ["GET", "/covers/../../etc/passwd"],
    ["GET", "/covers/a/b.webp"],
    ["GET", "/covers/"],
    ["POST", "/covers/x.webp"],
    ["GET", "/rating/"],
    ["GET", "/rating/1/2"],
    ["DELETE", "/rating/1"],
    ["GET", "/rate"],
  ])("%s %s answers 404 JSON", async (method, path) => {
    const response = await request(testApp.app)[method.toLowerCase() as "get" | "post" | "delete"](path);
    expect(response.status).toBe(404);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.body).toMatchObject({ code: "not_found", message: expect.any(String) });
  });
});

describe("a change sent to a page's path", () => {
  it.each([
    ["POST", "/catalog"],
    ["PUT", "/"],
    ["DELETE", "/dashboard"],
  ])("%s %s answers 404 JSON, never an HTML error page", async (method, path) => {
    const response = await request(testApp.app)[method.toLowerCase() as "post" | "put" | "delete"](path);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: "not_found", message: `No API route for ${method} ${path}.` });
  });
});
