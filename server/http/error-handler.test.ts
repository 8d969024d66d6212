import express from "express";
import request from "supertest";
import { afterEach, describe, expect, it, vi } from "vitest";
import { logger } from "../system/logger.ts";
import { apiNotFound, errorHandler } from "./error-handler.ts";
import { requestId } from "./request-id.ts";

function appThrowing(error: unknown) {
  const app = express();
  app.use(requestId);
  app.get("/boom", () => {
    throw error;
  });
  app.use(apiNotFound);
  app.use(errorHandler);
  return app;
}

afterEach(() => vi.restoreAllMocks());

describe("errorHandler", () => {
  it("answers an unexpected error with a reference, and logs it under that reference, never leaking its text", async () => {
    const logged = vi.spyOn(logger, "error").mockImplementation(() => {});
    const secret = Object.assign(new Error('relation "users" violates constraint at /srv/plume/server/db.ts:12'), {
      detail: "Key (email)=(ana@example.test) already exists.",
    });

    const response = await request(appThrowing(secret)).get("/boom").expect(500);

    const reference = String(response.headers["x-request-id"]);
    expect(reference).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body).toEqual({
      code: "internal_error",
      message: `Something went wrong on our side. Quote ${reference} if you contact us.`,
      requestId: reference,
    });
    expect(response.text).not.toMatch(/users|constraint|srv|\.ts|ana@|at /);
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ err: secret, requestId: reference, route: "/boom" }), "unexpected error");
  });

  it("answers a thrown non-error value the same way", async () => {
    vi.spyOn(logger, "error").mockImplementation(() => {});
    const response = await request(appThrowing("a string")).get("/boom").expect(500);
    expect(response.body.code).toBe("internal_error");
    expect(response.text).not.toContain("a string");
  });

  it("logs nothing when the client left while a file was sent", async () => {
    const logged = vi.spyOn(logger, "error").mockImplementation(() => {});
    const app = express();
    app.get("/file", (_req, res, next) => next(Object.assign(new Error("Request aborted"), { code: "ECONNABORTED" })));
    app.use(errorHandler);
    // The handler answers nothing: the client is gone. Here supertest is still there, and times out waiting.
    await expect(request(app).get("/file").timeout(300)).rejects.toThrow(/Timeout/);
    expect(logged).not.toHaveBeenCalled();
  });

  it("answers an unknown path with 404 JSON naming it", async () => {
    const response = await request(appThrowing(null)).get("/nowhere").expect(404);
    expect(response.body).toEqual({ code: "not_found", message: "No API route for GET /nowhere." });
  });
});
