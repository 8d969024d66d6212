import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { books } from "../db/schema.ts";
import { DiskStore } from "../storage/disk-store.ts";
import { filesUnder, fixture, sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { RawHttpClient, listen, signUp } from "../../test/helpers/raw-http.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { checkBookFits } from "./storage-quota.ts";

const MB = 1024 * 1024;

/**
 * A real PDF (the fixture) padded to exactly `bytes` bytes by a comment before its end marker: its
 * first page still draws, and the cross-reference offsets stay true.
 */
function pdfOfSize(bytes: number): { buffer: Buffer; name: string } {
  const book = readFileSync(fixture("book.pdf"));
  const end = book.lastIndexOf("%%EOF");
  const tail = book.subarray(end);
  const padding = Buffer.concat([Buffer.from("%"), Buffer.alloc(bytes - end - tail.length - 2, 0x20), Buffer.from("\n")]);
  return { buffer: Buffer.concat([book.subarray(0, end), padding, tail]), name: "book.pdf" };
}

type Agent = Awaited<ReturnType<typeof signedInAgent>>["agent"];
const upload = (agent: Agent, bytes: number, title = "Room") => sendBookForm(agent.post("/api/books"), { title, file: pdfOfSize(bytes), coverImage: null });
const usageOf = async (agent: Agent) => (await agent.get("/api/account/storage").expect(200)).body as { usedBytes: number; limitBytes: number };

let testApp: TestApp;
beforeAll(async () => {
  // One megabyte per account, so the edge is reached with small files.
  testApp = await createTestApp({ STORAGE_QUOTA_PER_ACCOUNT_MB: "1" });
});
afterAll(() => testApp.close());

const rowsOf = async (authorId: string, { database } = testApp) => database.db.select({ id: books.id }).from(books).where(eq(books.authorId, authorId));

/** The refusal leaves nothing: no row, no stored file, no temporary file. */
async function expectRefusedCleanly(
  app: TestApp,
  authorId: string,
  send: () => PromiseLike<request.Response>,
  code: string,
  field: string,
  key: string,
) {
  await app.coversDone();
  const rowsBefore = await rowsOf(authorId, app);
  const uploadsDir = dirname(app.store.temp.dir);
  const filesBefore = filesUnder(uploadsDir);
  const response = await send();
  expect(response.status).toBe(413);
  expect(response.body).toMatchObject({ code, fields: { [field]: key } });
  expect(await rowsOf(authorId, app)).toEqual(rowsBefore);
  await expect.poll(() => filesUnder(uploadsDir)).toEqual(filesBefore);
  return response;
}

describe("the storage quota of an account", () => {
  it("accepts books up to exactly the limit, and shows the author what they keep", async () => {
    const { agent } = await signedInAgent(testApp.app);
    expect(await usageOf(agent)).toEqual({ usedBytes: 0, limitBytes: MB });
    await upload(agent, MB / 2).expect(201);
    await upload(agent, MB / 2).expect(201);
    expect(await usageOf(agent)).toEqual({ usedBytes: MB, limitBytes: MB });
  });

  it("refuses a book over the limit with 413 storage_quota_exceeded naming what is used, leaving nothing behind", async () => {
    const { agent, user } = await signedInAgent(testApp.app);
    await upload(agent, MB - 40_000).expect(201);
    const response = await expectRefusedCleanly(testApp, user.id, () => upload(agent, 40_001), "storage_quota_exceeded", "file", "upload.storageQuotaExceeded");
    expect(response.body.message).toContain("it keeps 1.0 MB of its 1.0 MB");
    // A cover comes with the refused book: neither is kept.
    await expectRefusedCleanly(
      testApp,
      user.id,
      () => sendBookForm(agent.post("/api/books"), { file: pdfOfSize(40_001), coverImage: fixture("cover.jpg") }),
      "storage_quota_exceeded",
      "file",
      "upload.storageQuotaExceeded",
    );
    await upload(agent, 40_000).expect(201);
  });

  it("frees a deleted book's space", async () => {
    const { agent } = await signedInAgent(testApp.app);
    const first = await upload(agent, MB).expect(201);
    await upload(agent, 40_000).expect(413);
    await agent.delete(`/api/books/${first.body.id}`).expect(204);
    expect((await usageOf(agent)).usedBytes).toBe(0);
    await upload(agent, MB).expect(201);
  });

  it("lets only one of two uploads at once through when both together would pass the limit", async () => {
    const { agent, user } = await signedInAgent(testApp.app);
    await testApp.coversDone();
    const booksBefore = filesUnder(join(testApp.uploadsDir, "books")).length;
    // Each upload fits alone, so both pass the check made before their files are kept; the store holds
    // each kept file until both are, so the two transactions race: the account's lock must decide.
    const keep = testApp.store.keep.bind(testApp.store);
    let kept = 0;
    let bothKept = () => {};
    const held = new Promise<void>((resolve) => (bothKept = resolve));
    testApp.store.keep = async (...args) => {
      const name = await keep(...args);
      if (++kept === 2) bothKept();
      await held;
      return name;
    };
    try {
      const responses = await Promise.all([upload(agent, 600 * 1024, "One"), upload(agent, 600 * 1024, "Two")]);
      expect(kept).toBe(2);
      expect(responses.map((response) => response.status).sort()).toEqual([201, 413]);
      expect(responses.find((response) => response.status === 413)!.body.code).toBe("storage_quota_exceeded");
    } finally {
      Reflect.deleteProperty(testApp.store, "keep");
    }
    expect(await rowsOf(user.id)).toHaveLength(1);
    expect((await usageOf(agent)).usedBytes).toBe(600 * 1024);
    // The loser's kept file is removed with its refusal.
    await expect.poll(() => filesUnder(join(testApp.uploadsDir, "books")).length).toBe(booksBefore + 1);
  });

  it("lets a full account change a book's cover: covers are not counted", async () => {
    const { agent } = await signedInAgent(testApp.app);
    const book = await upload(agent, MB).expect(201);
    await sendBookForm(agent.put(`/api/books/${book.body.id}`), { file: null, coverImage: fixture("cover.png") }).expect(200);
    expect((await usageOf(agent)).usedBytes).toBe(MB);
  });

  it("refuses an upload whose Content-Length cannot fit before its body is read", async () => {
    const listening = await listen(testApp.app);
    try {
      const { cookie } = await signUp(new RawHttpClient(listening.port));
      await testApp.coversDone();
      const filesBefore = filesUnder(testApp.uploadsDir);
      const socket = connect(listening.port, "127.0.0.1");
      socket.on("error", () => {});
      // 20 MB promised to an account with 1 MB of room; not a byte of the body is sent.
      socket.write(
        `POST /api/books HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${20 * MB}\r\n\r\n`,
      );
      const answer = await new Promise<string>((resolve) => {
        let received = "";
        socket.on("data", (chunk: Buffer) => {
          received += chunk.toString("utf8");
          if (received.includes("}")) resolve(received);
        });
      });
      socket.destroy();
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toContain('"code":"storage_quota_exceeded"');
      expect(filesUnder(testApp.uploadsDir)).toEqual(filesBefore);
    } finally {
      await listening.close();
    }
  });

  it("refuses the usage to a visitor", async () => {
    const response = await request(testApp.app).get("/api/account/storage").expect(401);
    expect(response.body.code).toBe("unauthorized");
  });

  it("holds all accounts together under STORAGE_TOTAL_MAX_GB when it is set", async () => {
    const { agent, user } = await signedInAgent(testApp.app);
    await upload(agent, 40_000).expect(201);
    const limits = { quotaPerAccountBytes: MB, freeSpaceMinBytes: 0 };
    const allKept = await testApp.database.db.select({ fileSize: books.fileSize, deletedAt: books.deletedAt }).from(books);
    const total = allKept.filter((row) => !row.deletedAt).reduce((sum, row) => sum + row.fileSize, 0);
    await expect(checkBookFits(testApp.database.db, { ...limits, totalMaxBytes: total + 10 }, user.id, 10)).resolves.toBeUndefined();
    await expect(checkBookFits(testApp.database.db, { ...limits, totalMaxBytes: total + 10 }, user.id, 11)).rejects.toMatchObject({
      status: 413,
      code: "storage_full",
    });
  });
});

describe("the admin's view of storage", () => {
  it("shows each account's usage and the quota in the overview, to the admin only", async () => {
    const admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL });
    await testApp.proveEmail(TEST_ADMIN_EMAIL);
    const author = await signedInAgent(testApp.app);
    await upload(author.agent, 40_000).expect(201);
    await upload(author.agent, 50_000).expect(201);
    await author.agent.get("/api/admin/overview-debug").expect(403);
    await author.agent.get("/api/admin/users").expect(403);
    const overview = (await admin.agent.get("/api/admin/overview-debug").expect(200)).body as { storageQuotaBytes: number };
    const users = (await admin.agent.get("/api/admin/users").expect(200)).body as { items: Array<{ id: string; storageBytes: number }> };
    expect(overview.storageQuotaBytes).toBe(MB);
    expect(users.items.find((row) => row.id === author.user.id)?.storageBytes).toBe(90_000);
    expect(users.items.find((row) => row.id === admin.user.id)?.storageBytes).toBe(0);
  });
});

describe("the free-space floor, on a disk whose free space the test sets", () => {
  let small: TestApp;
  let freeBytes = 0;
  const uploadsDir = mkdtempSync(join(tmpdir(), "plume-small-disk-"));
  beforeAll(async () => {
    const store = new DiskStore(uploadsDir);
    store.temp.freeBytes = async () => freeBytes;
    small = await createTestApp({ STORAGE_FREE_SPACE_MIN_MB: "1" }, { store });
  });
  afterAll(async () => {
    await small.close();
    rmSync(uploadsDir, { recursive: true, force: true });
  });

  it("takes a body that leaves the floor free, and refuses one that would not with 413 storage_full, leaving nothing", async () => {
    // 3 MB free above a 1 MB floor: what the request declares must leave the floor free.
    freeBytes = 4 * MB;
    const { agent, user } = await signedInAgent(small.app);
    await upload(agent, 2 * MB).expect(201);
    await expectRefusedCleanly(small, user.id, () => upload(agent, 3 * MB + 1), "storage_full", "file", "upload.storageFull");
  });

  it("refuses a new cover once the disk is at its floor, leaving the book as it was", async () => {
    freeBytes = 4 * MB;
    const { agent, user } = await signedInAgent(small.app);
    const book = await upload(agent, 40_000).expect(201);
    await small.coversDone();
    const before = await small.database.db.select().from(books).where(eq(books.id, book.body.id));
    freeBytes = MB;
    await expectRefusedCleanly(
      small,
      user.id,
      () => sendBookForm(agent.put(`/api/books/${book.body.id}`), { title: "Changed", file: null, coverImage: fixture("cover.png") }),
      "storage_full",
      "coverImage",
      "upload.storageFull",
    );
    expect(await small.database.db.select().from(books).where(eq(books.id, book.body.id))).toEqual(before);
  });
});
