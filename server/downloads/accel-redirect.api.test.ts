import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type RunningNginx, nginxInstalled, startNginx } from "../../test/helpers/nginx.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { books, downloads } from "../db/schema.ts";
import { DiskStore } from "../storage/disk-store.ts";

/** Counted downloads sent by nginx in front (DOWNLOADS_ACCEL_REDIRECT, docs/decisions/0078). */
const INTERNAL = "/_plume-uploads/";

let testApp: TestApp<DiskStore>;
let uploadsDir: string;
let bookId: number;
let storedName: string;
let reader: Awaited<ReturnType<typeof signedInAgent>>;

beforeAll(async () => {
  uploadsDir = mkdtempSync(join(tmpdir(), "plume-accel-"));
  testApp = await createTestApp({ TRUST_PROXY: "loopback" }, { store: new DiskStore(uploadsDir, { accelRedirect: INTERNAL }) });
  const author = await signedInAgent(testApp.app);
  bookId = (await sendBookForm(author.agent.post("/api/books"), { title: "The Quay Cafe", coverImage: null }).expect(201)).body.id;
  storedName = readdirSync(join(uploadsDir, "books"))[0]!;
  reader = await signedInAgent(testApp.app);
});
afterAll(async () => {
  await testApp.close();
  rmSync(uploadsDir, { recursive: true, force: true });
});

const downloadRows = () => testApp.database.db.select().from(downloads).where(eq(downloads.bookId, bookId));
const downloadCount = async () => (await testApp.database.db.select().from(books).where(eq(books.id, bookId)))[0]!.downloadCount;

describe("a counted download sent by nginx (X-Accel-Redirect)", () => {
  it("names the stored file for nginx, with the download's headers and no body, and counts it as Plume decided to serve it", async () => {
    const before = (await downloadRows()).length;
    const response = await reader.agent.post(`/api/books/${bookId}/download`).set("X-Forwarded-For", "198.51.100.4").buffer(true).expect(200);
    expect(response.headers["x-accel-redirect"]).toBe(`${INTERNAL}books/${storedName}`);
    expect(response.headers["content-length"]).toBe("0");
    expect(response.body).toEqual(Buffer.alloc(0));
    expect(response.headers["content-type"]).toBe("application/pdf");
    expect(response.headers["content-disposition"]).toBe('attachment; filename="The Quay Cafe.pdf"');
    expect(response.headers["cache-control"]).toBe("private, no-store, no-transform");
    expect((await downloadRows()).length).toBe(before + 1);
    expect(await downloadCount()).toBe(1);
  });

  it("refuses a caller who is not signed in as before: no file named, nothing logged", async () => {
    const before = (await downloadRows()).length;
    const response = await request(testApp.app).post(`/api/books/${bookId}/download`).expect(401);
    expect(response.headers["x-accel-redirect"]).toBeUndefined();
    expect((await downloadRows()).length).toBe(before);
  });

  it("answers an e-reader app's HEAD itself, with the file's length, and counts nothing; its GET goes to nginx", async () => {
    const { key } = (await reader.agent.post("/api/e-reader-keys").send({ name: "Kobo" }).expect(201)).body as { key: string };
    const opdsFile = (method: "head" | "get") => request(testApp.app)[method](`/opds/books/${bookId}/file`).auth(reader.account.username, key);
    const before = (await downloadRows()).length;
    const head = await opdsFile("head").expect(200);
    expect(head.headers["x-accel-redirect"]).toBeUndefined();
    expect(head.headers["content-length"]).toBe(String(readFileSync(fixture("book.pdf")).length));
    expect((await downloadRows()).length).toBe(before);
    const get = await opdsFile("get").expect(200);
    expect(get.headers["x-accel-redirect"]).toBe(`${INTERNAL}books/${storedName}`);
    expect((await downloadRows()).filter((row) => row.channel === "opds")).toHaveLength(1);
  });

  it("refuses a book whose file is missing with 404, naming nothing and counting nothing", async () => {
    const author = await signedInAgent(testApp.app);
    const missing = (await sendBookForm(author.agent.post("/api/books"), { coverImage: null }).expect(201)).body.id as number;
    const [name] = (await testApp.database.db.select({ filePath: books.filePath }).from(books).where(eq(books.id, missing))).map((row) => row.filePath);
    rmSync(join(uploadsDir, "books", name!));
    const response = await reader.agent.post(`/api/books/${missing}/download`).expect(404);
    expect(response.headers["x-accel-redirect"]).toBeUndefined();
    expect(await testApp.database.db.select().from(downloads).where(eq(downloads.bookId, missing))).toEqual([]);
  });
});

describe.skipIf(!nginxInstalled())("behind nginx as docs/deploy.md sets it up", () => {
  let app: Server;
  let nginx: RunningNginx;
  let scratch: string;

  beforeAll(async () => {
    app = createServer(testApp.app).listen(0, "127.0.0.1");
    await new Promise((resolve) => app.once("listening", resolve));
    scratch = mkdtempSync(join(tmpdir(), "plume-accel-nginx-"));
    // nginx's workers run as nobody: they read the books as any reader of the folder would.
    chmodSync(uploadsDir, 0o755);
    nginx = await startNginx({
      scratch,
      logFile: join(scratch, "error.log"),
      probePath: "/healthz",
      http: `  access_log off;
  sendfile on;
  server {
    listen 127.0.0.1:{port};
    location / {
      proxy_pass http://127.0.0.1:${(app.address() as AddressInfo).port};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
    location ${INTERNAL} {
      internal;
      alias ${uploadsDir}/;
      add_header X-Content-Type-Options nosniff always;
      max_ranges 0;
    }
  }`,
    });
  });
  afterAll(async () => {
    await nginx?.stop();
    await new Promise((resolve) => app.close(resolve));
    rmSync(scratch, { recursive: true, force: true });
  });

  it("sends the whole file with the download's headers, and never the internal location to a client", async () => {
    const cookie = reader.agent.jar.getCookies({ domain: "127.0.0.1", path: "/", secure: false, script: false }).toValueString();
    const response = await fetch(`${nginx.url}/api/books/${bookId}/download`, { method: "POST", headers: { Cookie: cookie } });
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(readFileSync(fixture("book.pdf")));
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="The Quay Cafe.pdf"');
    expect(response.headers.get("cache-control")).toBe("private, no-store, no-transform");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-accel-redirect")).toBeNull();
    expect((await fetch(`${nginx.url}${INTERNAL}books/${storedName}`)).status).toBe(404);
    expect((await fetch(`${nginx.url}/api/books/${bookId}/download`, { method: "POST" })).status).toBe(401);
  });
});
