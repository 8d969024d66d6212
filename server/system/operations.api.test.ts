import { mkdirSync, rmSync } from "node:fs";
import { Writable } from "node:stream";
import { sql } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { createLogger } from "./logger.ts";

const METRICS_TOKEN = "scrape-token-0123456789";

/** The logger's destination, kept line by line: what an operator's log collector would receive. */
function capturedLog() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  return { lines, logger: createLogger("info", destination) };
}

describe("health probes (docs/decisions/0040)", () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it("says alive without asking anything of the database, and is never cached", async () => {
    const response = await request(testApp.app).get("/healthz").expect(200);
    expect(response.body).toEqual({ status: "ok" });
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("is ready with the database migrated and the uploads folder writable; an unreachable chain is reported, not counted", async () => {
    const response = await request(testApp.app).get("/readyz").expect(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.body).toEqual({
      status: "ready",
      checks: { database: "ok", migrations: "ok", storage: "ok" },
      // The test chain's RPC is a closed port; no payout worker has recorded its health.
      chain: { reachable: false, latestBlock: null, finalityLagSeconds: null, payouts: null },
    });
    expect(response.text).not.toMatch(/127\.0\.0\.1|http|@/);
  });

  it("is not ready, and says which check failed, when uploads cannot be written", async () => {
    rmSync(testApp.store.temp.dir, { recursive: true });
    try {
      const response = await request(testApp.app).get("/readyz").expect(503);
      expect(response.body).toMatchObject({ status: "not-ready", checks: { database: "ok", migrations: "ok", storage: "failed" } });
    } finally {
      mkdirSync(testApp.store.temp.dir);
    }
  });

  it("is not ready while the newest migration is not applied", async () => {
    const { db } = testApp.database;
    const newest = sql`drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`;
    // Both drivers answer a raw statement with its rows under `rows`.
    const deleted = (await db.execute(sql`delete from ${newest} returning hash, created_at::text`)) as unknown as { rows: { hash: string; created_at: string }[] };
    const [row] = deleted.rows;
    try {
      const response = await request(testApp.app).get("/readyz").expect(503);
      expect(response.body.checks).toEqual({ database: "ok", migrations: "failed", storage: "ok" });
    } finally {
      await db.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${row!.hash}, ${row!.created_at}::bigint)`);
    }
  });
});

describe("metrics (docs/decisions/0040)", () => {
  it("do not exist without METRICS_TOKEN: a JSON 404 like any unknown path", async () => {
    const testApp = await createTestApp();
    try {
      const response = await request(testApp.app).get("/metrics").expect(404);
      expect(response.body).toEqual({ code: "not_found", message: "No API route for GET /metrics." });
    } finally {
      await testApp.close();
    }
  });

  it("ask for the bearer token, then count downloads, uploads, requests and payments", async () => {
    const testApp = await createTestApp({ METRICS_TOKEN });
    try {
      await request(testApp.app).get("/metrics").expect(401);
      const wrong = await request(testApp.app).get("/metrics").set("Authorization", `Bearer ${METRICS_TOKEN}x`).expect(401);
      expect(wrong.headers["www-authenticate"]).toBe('Bearer realm="metrics"');

      const author = await signedInAgent(testApp.app);
      const { body: book } = await sendBookForm(author.agent.post("/api/books")).expect(201);
      await testApp.coversDone();
      const reader = await signedInAgent(testApp.app);
      await reader.agent.post(`/api/books/${book.id}/download`).expect(200);
      await reader.agent.post(`/api/books/${book.id}/download`).expect(200);

      const response = await request(testApp.app).get("/metrics").set("Authorization", `Bearer ${METRICS_TOKEN}`).expect(200);
      expect(response.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(response.text).toMatch(/^plume_downloads_total\{counted="true",reason="none"\} [1-9]/m);
      expect(response.text).toMatch(/^plume_downloads_total\{counted="false",reason="repeat-reader"\} [1-9]/m);
      expect(response.text).toMatch(/^plume_uploads_total\{outcome="accepted"\} [1-9]/m);
      expect(response.text).toMatch(/^plume_http_request_duration_seconds_bucket\{le="[^"]+",method="POST",route="\/api\/books\/:id\/download",status_class="2xx"\} [1-9]/m);
      expect(response.text).toMatch(/^plume_payments_oldest_owed_age_seconds \d/m);
      expect(response.text).toContain("# TYPE plume_payments gauge");
      expect(response.text).toContain("process_cpu_user_seconds_total");
    } finally {
      await testApp.close();
    }
  });
});

describe("the request log (docs/decisions/0040)", () => {
  it("writes one JSON line per request with its id, method, route pattern, status and duration", async () => {
    const { lines, logger } = capturedLog();
    const testApp = await createTestApp({}, { logger });
    try {
      const response = await request(testApp.app).get("/api/books/999999").expect(404);
      const line = lines.map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry.requestId === response.headers["x-request-id"]);
      expect(line).toMatchObject({ level: 30, msg: "request completed", method: "GET", route: "/api/books/:id", status: 404, durationMs: expect.any(Number) });
      expect(line!.time).toMatch(/^\d{4}-\d\d-\d\dT/);
    } finally {
      await testApp.close();
    }
  });

  it("leaves out a sign-in's password, e-mail, cookie and Authorization header", async () => {
    const { lines, logger } = capturedLog();
    const testApp = await createTestApp({}, { logger });
    try {
      const { account } = await signedInAgent(testApp.app);
      // Only a proven address signs in (docs/decisions/0054).
      await testApp.proveEmail(account.email);
      const cookie = "plume.sid=s%3Asecret-session-id.signature";
      const authorization = "Basic c2VjcmV0LWJhc2ljLWNyZWRlbnRpYWxz";
      await request(testApp.app)
        .post("/api/auth/login?email=" + encodeURIComponent(account.email))
        .set("Cookie", cookie)
        .set("Authorization", authorization)
        .send({ username: account.email, password: account.password })
        .expect(200);
      const output = lines.join("\n");
      expect(output).toContain('"route":"/api/auth/login"');
      for (const secret of [account.password, account.email, "secret-session-id", authorization, "c2VjcmV0"]) expect(output).not.toContain(secret);
    } finally {
      await testApp.close();
    }
  });
});
