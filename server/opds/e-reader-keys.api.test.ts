import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E_READER_KEYS_MAX, type CreatedEReaderKey, type EReaderKey } from "../../shared/e-reader-keys.ts";
import { fixture, sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { books, downloads, eReaderKeys } from "../db/schema.ts";

type Reader = Awaited<ReturnType<typeof signedInAgent>>;
const CHALLENGE = 'Basic realm="Plume", charset="UTF-8"';
const KEY_FORMAT = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/;

let testApp: TestApp;
let author: Reader;
let bookId: number;

beforeAll(async () => {
  // Behind a trusted proxy each reader can come from an address of its own, as in the counting tests.
  testApp = await createTestApp({ TRUST_PROXY: "loopback" });
  author = await signedInAgent(testApp.app);
  bookId = (await sendBookForm(author.agent.post("/api/books"), { coverImage: null }).expect(201)).body.id as number;
});
afterAll(() => testApp.close());

async function createKey(reader: Reader, name = "Kobo Clara"): Promise<CreatedEReaderKey> {
  return (await reader.agent.post("/api/e-reader-keys").send({ name }).expect(201)).body as CreatedEReaderKey;
}
const listKeys = async (reader: Reader) => (await reader.agent.get("/api/e-reader-keys").expect(200)).body as EReaderKey[];
const opdsFile = (id = bookId) => request(testApp.app).get(`/opds/books/${id}/file`);

describe("e-reader keys (docs/product.md#opds)", () => {
  it("are shown once on creation, listed without the key, and kept only as a SHA-256", async () => {
    const reader = await signedInAgent(testApp.app);
    const response = await reader.agent.post("/api/e-reader-keys").send({ name: "  KOReader on my phone " }).expect(201);
    expect(response.headers["cache-control"]).toBe("no-store");
    const created = response.body as CreatedEReaderKey;
    expect(created).toEqual({ id: expect.any(String), name: "KOReader on my phone", key: expect.stringMatching(KEY_FORMAT), createdAt: expect.any(String), lastUsedAt: null, revokedAt: null });

    const listed = await listKeys(reader);
    expect(listed).toEqual([{ id: created.id, name: "KOReader on my phone", createdAt: created.createdAt, lastUsedAt: null, revokedAt: null }]);
    expect(JSON.stringify(listed)).not.toContain(created.key);

    const [row] = await testApp.database.db.select().from(eReaderKeys).where(eq(eReaderKeys.id, created.id));
    expect(row!.keyHash).toBe(createHash("sha256").update(created.key.replaceAll("-", "")).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(created.key.replaceAll("-", ""));
  });

  it("need a name of at most 60 characters", async () => {
    const reader = await signedInAgent(testApp.app);
    for (const body of [{}, { name: "   " }, { name: "x".repeat(61) }, { name: "Kobo\u0000" }, { name: 42 }]) {
      const response = await reader.agent.post("/api/e-reader-keys").send(body).expect(400);
      expect(response.body).toMatchObject({ code: "validation_failed", fields: { name: expect.any(String) } });
    }
    expect(await listKeys(reader)).toEqual([]);
  });

  it("are each account's own: another's key is a 404 and stays in use", async () => {
    const owner = await signedInAgent(testApp.app);
    const stranger = await signedInAgent(testApp.app);
    const key = await createKey(owner);
    expect(await listKeys(stranger)).toEqual([]);
    const refused = await stranger.agent.delete(`/api/e-reader-keys/${key.id}`).expect(404);
    expect(refused.body).toMatchObject({ code: "not_found" });
    await stranger.agent.delete("/api/e-reader-keys/00000000-0000-4000-8000-000000000000").expect(404);
    await stranger.agent.delete("/api/e-reader-keys/42").expect(400);
    await opdsFile().auth(owner.account.username, key.key).expect(200);
  });

  it(`are capped at ${E_READER_KEYS_MAX} in use; revoking one makes room`, async () => {
    const reader = await signedInAgent(testApp.app);
    const keys = await Promise.all(Array.from({ length: E_READER_KEYS_MAX }, (_, index) => createKey(reader, `Device ${index + 1}`)));
    const refused = await reader.agent.post("/api/e-reader-keys").send({ name: "One too many" }).expect(409);
    expect(refused.body).toMatchObject({ code: "too_many_e_reader_keys" });
    await reader.agent.delete(`/api/e-reader-keys/${keys[0]!.id}`).expect(204);
    await createKey(reader, "In its place");
    expect((await listKeys(reader)).filter((key) => !key.revokedAt)).toHaveLength(E_READER_KEYS_MAX);
  });

  it("are revoked at once: listed as revoked, refused from then on; revoking twice changes nothing", async () => {
    const reader = await signedInAgent(testApp.app);
    const key = await createKey(reader);
    await opdsFile().auth(reader.account.username, key.key).expect(200);
    await reader.agent.delete(`/api/e-reader-keys/${key.id}`).expect(204);
    const [listed] = await listKeys(reader);
    expect(listed!.revokedAt).toEqual(expect.any(String));
    expect(listed!.lastUsedAt).toEqual(expect.any(String));
    const refused = await opdsFile().auth(reader.account.username, key.key).expect(401);
    expect(refused.headers["www-authenticate"]).toBe(CHALLENGE);
    await reader.agent.delete(`/api/e-reader-keys/${key.id}`).expect(204);
    expect((await listKeys(reader))[0]!.revokedAt).toBe(listed!.revokedAt);
  });
});

describe("an OPDS download with HTTP Basic", () => {
  it("takes the username or the e-mail in any case, and the key as an e-ink keyboard types it", async () => {
    const reader = await signedInAgent(testApp.app);
    const { key } = await createKey(reader);
    const typed = key.toLowerCase().replaceAll("-", " ").replaceAll("0", "o");
    for (const [name, password] of [
      [reader.account.username, key],
      [reader.account.username.toUpperCase(), key],
      [reader.account.email, typed],
    ] as const) {
      const response = await opdsFile().auth(name, password).expect(200);
      expect(response.headers["content-type"]).toBe("application/pdf");
      expect(response.headers["content-disposition"]).toMatch(/^attachment;/);
      expect(response.headers["cache-control"]).toMatch(/^private, no-store/);
      expect(Buffer.compare(response.body as Buffer, readFileSync(fixture("book.pdf")))).toBe(0);
    }
  });

  it("refuses a missing, malformed, wrong, unknown or mismatched identity with 401 and the Basic challenge", async () => {
    const reader = await signedInAgent(testApp.app);
    const other = await signedInAgent(testApp.app);
    const { key } = await createKey(reader);
    const basic = (text: string) => `Basic ${Buffer.from(text).toString("base64")}`;
    const attempts: Array<[string, string | undefined]> = [
      ["no header", undefined],
      ["another scheme", `Bearer ${key}`],
      ["not base64", "Basic !!!not-base64!!!"],
      ["no colon", basic(`${reader.account.username}${key}`)],
      ["no user name", basic(`:${key}`)],
      ["not a key at all", basic(`${reader.account.username}:secret-pass`)],
      ["a wrong key", basic(`${reader.account.username}:${"Z".repeat(16)}`)],
      ["an unknown account", basic(`nobody_at_all:${key}`)],
      ["another account's name", basic(`${other.account.username}:${key}`)],
    ];
    for (const [what, header] of attempts) {
      const test = opdsFile();
      const response = await (header === undefined ? test : test.set("Authorization", header));
      expect(response.status, what).toBe(401);
      expect(response.headers["www-authenticate"], what).toBe(CHALLENGE);
      expect(response.body, what).toMatchObject({ code: "unauthorized" });
    }
    // A session cookie is not an e-reader key.
    await reader.agent.get(`/opds/books/${bookId}/file`).expect(401);
  });

  it("answers 400 for an id that is not one and 404 for a withdrawn book, once the key is right", async () => {
    const reader = await signedInAgent(testApp.app);
    const { key } = await createKey(reader);
    await opdsFile(0).auth(reader.account.username, key).expect(400);
    await request(testApp.app).get("/opds/books/abc/file").auth(reader.account.username, key).expect(400);
    const withdrawn = (await sendBookForm(author.agent.post("/api/books"), { title: "Withdrawn", coverImage: null }).expect(201)).body.id as number;
    await author.agent.delete(`/api/books/${withdrawn}`).expect(204);
    await opdsFile(withdrawn).auth(reader.account.username, key).expect(404);
  });

  it("counts exactly like any download: once per reader and book across channels, never the author's", async () => {
    const reader = await signedInAgent(testApp.app);
    const readerKey = (await createKey(reader)).key;
    const authorKey = (await createKey(author)).key;
    const book = (await sendBookForm(author.agent.post("/api/books"), { title: "Counted once", coverImage: null }).expect(201)).body.id as number;
    const countOf = async () => (await testApp.database.db.select().from(books).where(eq(books.id, book)))[0]!.downloadCount;

    await opdsFile(book).auth(reader.account.username, readerKey).set("X-Forwarded-For", "198.51.100.1").expect(200);
    expect(await countOf()).toBe(1);
    await reader.agent.post(`/api/books/${book}/download`).set("X-Forwarded-For", "198.51.100.1").expect(200);
    await opdsFile(book).auth(reader.account.username, readerKey).set("X-Forwarded-For", "198.51.100.2").expect(200);
    await opdsFile(book).auth(author.account.username, authorKey).set("X-Forwarded-For", "198.51.100.3").expect(200);
    expect(await countOf()).toBe(1);

    // Asking for the headers alone takes nothing: nothing is logged.
    const head = await request(testApp.app).head(`/opds/books/${book}/file`).auth(reader.account.username, readerKey).expect(200);
    expect(head.headers["content-type"]).toBe("application/pdf");
    expect(head.headers["content-length"]).toBe(String(readFileSync(fixture("book.pdf")).length));

    const log = await testApp.database.db.select().from(downloads).where(eq(downloads.bookId, book));
    expect(log.map(({ userId, channel, counted, ipAddress }) => ({ userId, channel, counted, ipAddress }))).toEqual([
      { userId: reader.user.id, channel: "opds", counted: true, ipAddress: "198.51.100.1" },
      { userId: reader.user.id, channel: "download", counted: false, ipAddress: "198.51.100.1" },
      { userId: reader.user.id, channel: "opds", counted: false, ipAddress: "198.51.100.2" },
      { userId: author.user.id, channel: "opds", counted: false, ipAddress: "198.51.100.3" },
    ]);
  });
});

describe("failed e-reader sign-ins", () => {
  it("are limited per address: past the limit even the right key waits, other addresses do not", async () => {
    const limited = await createTestApp({ TRUST_PROXY: "loopback", RATE_LIMIT_E_READER_KEY_FAILURES_PER_IP: "3" });
    try {
      const reader = await signedInAgent(limited.app);
      const { key } = (await reader.agent.post("/api/e-reader-keys").send({ name: "Kobo" }).expect(201)).body as CreatedEReaderKey;
      const writer = await signedInAgent(limited.app);
      const book = (await sendBookForm(writer.agent.post("/api/books"), { coverImage: null }).expect(201)).body.id as number;
      const attempt = (password: string, address: string) =>
        request(limited.app).get(`/opds/books/${book}/file`).auth(reader.account.username, password).set("X-Forwarded-For", address);

      // Successes are not failures: they never use up the limit.
      for (let index = 0; index < 4; index += 1) await attempt(key, "203.0.113.9").expect(200);
      for (let index = 0; index < 3; index += 1) await attempt("WRONG-WRONG-WRONG-WRNG", "203.0.113.9").expect(401);
      const refused = await attempt(key, "203.0.113.9").expect(429);
      expect(refused.body).toMatchObject({ code: "rate_limited" });
      await attempt(key, "203.0.113.10").expect(200);
    } finally {
      await limited.close();
    }
  });
});
