import { readFileSync } from "node:fs";
import { and, count, eq, gt, like, notLike } from "drizzle-orm";
import request from "supertest";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EPUB_MIME_TYPE, derivedNamesOf } from "../books/book-files.ts";
import { RATE_LIMIT_DEFAULTS } from "../config.ts";
import { books, rateLimitHits } from "../db/schema.ts";
import { filesUnder, fixture, sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { type TestApp, createTestApp, newAccount, signedInAgent } from "../../test/helpers/test-app.ts";

let testApp: TestApp;
afterEach(() => testApp?.close());

async function appWithLimits(limits: Record<string, string>, env: Record<string, string> = {}) {
  testApp = await createTestApp({ ...limits, ...env });
  return testApp.app;
}

/**
 * The limiter takes a successful sign-in's count back only once its answer is sent (express-rate-limit's
 * skipSuccessfulRequests), in a write of its own: a test that signs in again at once waits for it, as a
 * person's next sign-in, seconds later, always does.
 */
const failedPasswordCountsTakenBack = () =>
  vi.waitFor(async () => {
    const counted = await testApp.database.db
      .select({ key: rateLimitHits.key })
      .from(rateLimitHits)
      .where(and(like(rateLimitHits.key, "sign-in-%"), notLike(rateLimitHits.key, "sign-in-success-%"), gt(rateLimitHits.hits, 0)));
    expect(counted).toEqual([]);
  });

const failedSignIn = (app: TestApp["app"], username: string, from?: string) => {
  const test = request(app).post("/api/auth/login").send({ username, password: "wrong-password" });
  return from ? test.set("X-Forwarded-For", from) : test;
};

function expectRateLimited(response: request.Response) {
  expect(response.status).toBe(429);
  expect(response.body).toMatchObject({ code: "rate_limited", message: expect.stringMatching(/^Too many .+ Try again in \d+ minutes?\.$/) });
  const retryAfter = Number(response.headers["retry-after"]);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(3600);
}

describe("sign-in limits", () => {
  it("locks an account after its failed sign-ins, even for the right password, but not another account", async () => {
    const app = await appWithLimits({ RATE_LIMIT_SIGNIN_PER_ACCOUNT: "3" });
    const { account } = await signedInAgent(app);
    const { account: neighbour } = await signedInAgent(app);
    for (let attempt = 0; attempt < 3; attempt += 1) await failedSignIn(app, account.username).expect(401);

    expectRateLimited(await failedSignIn(app, account.username));
    expectRateLimited(await request(app).post("/api/auth/login").send({ username: ` ${account.username.toUpperCase()} `, password: account.password }));
    await request(app).post("/api/auth/login").send({ username: neighbour.username, password: neighbour.password }).expect(200);
  });

  // docs/decisions/0054: alternating the username and the e-mail of one account doubled a guesser's tries.
  it("counts the failures of one account together, by its username or its proven e-mail, and of an unknown name alike", async () => {
    const app = await appWithLimits({ RATE_LIMIT_SIGNIN_PER_ACCOUNT: "4", RATE_LIMIT_SIGNIN_PER_ACCOUNT_ADDRESS: "4" });
    const { account } = await signedInAgent(app);
    await testApp.proveEmail(account.email);
    for (const identifier of [account.username, account.email, account.username.toUpperCase(), account.email.toUpperCase()]) {
      await failedSignIn(app, identifier).expect(401);
    }
    expectRateLimited(await failedSignIn(app, account.username));
    expectRateLimited(await request(app).post("/api/auth/login").send({ username: account.email, password: account.password }));
    // A name no account has is limited after as many failures, so a refusal tells nothing about which names exist.
    for (let attempt = 0; attempt < 4; attempt += 1) await failedSignIn(app, "nobody_by_this_name").expect(401);
    expectRateLimited(await failedSignIn(app, "Nobody_By_This_Name"));
  });

  it("does not count successful sign-ins", async () => {
    const app = await appWithLimits({ RATE_LIMIT_SIGNIN_PER_ACCOUNT: "2", RATE_LIMIT_SIGNIN_PER_IP: "2" });
    const { account } = await signedInAgent(app);
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await request(app).post("/api/auth/login").send({ username: account.username, password: account.password }).expect(200);
      await failedPasswordCountsTakenBack();
    }
  });

  it("limits failed sign-ins per address across accounts", async () => {
    const app = await appWithLimits({ RATE_LIMIT_SIGNIN_PER_IP: "3" });
    for (const username of ["ana", "bea", "carla"]) await failedSignIn(app, username).expect(401);
    expectRateLimited(await failedSignIn(app, "dora"));
  });

  it("ignores a spoofed X-Forwarded-For unless TRUST_PROXY is set", async () => {
    const app = await appWithLimits({ RATE_LIMIT_SIGNIN_PER_IP: "2" });
    await failedSignIn(app, "ana", "203.0.113.1").expect(401);
    await failedSignIn(app, "bea", "203.0.113.2").expect(401);
    expectRateLimited(await failedSignIn(app, "carla", "203.0.113.3"));
  });

  it("counts each client address apart behind a trusted proxy", async () => {
    const app = await appWithLimits({ RATE_LIMIT_SIGNIN_PER_IP: "2" }, { TRUST_PROXY: "loopback" });
    await failedSignIn(app, "ana", "203.0.113.1").expect(401);
    await failedSignIn(app, "bea", "203.0.113.1").expect(401);
    expectRateLimited(await failedSignIn(app, "carla", "203.0.113.1"));
    await failedSignIn(app, "carla", "198.51.100.7").expect(401);
  });
});

describe("sign-in limits that cannot be turned against a person", () => {
  const signIn = (app: TestApp["app"], account: { username: string; password: string }, from: string) =>
    request(app).post("/api/auth/login").set("X-Forwarded-For", from).send({ username: account.username, password: account.password });

  it("lets a person sign in from their own address while someone elsewhere guesses their password", async () => {
    const app = await appWithLimits({ RATE_LIMIT_SIGNIN_PER_ACCOUNT_ADDRESS: "3", RATE_LIMIT_SIGNIN_PER_ACCOUNT: "9" }, { TRUST_PROXY: "loopback" });
    const { account } = await signedInAgent(app);
    for (let attempt = 0; attempt < 3; attempt += 1) await failedSignIn(app, account.username, "203.0.113.66").expect(401);
    // The guesser keeps knocking: refused, and the refusals are not counted as guesses.
    for (let attempt = 0; attempt < 9; attempt += 1) expectRateLimited(await failedSignIn(app, account.username, "203.0.113.66"));

    await signIn(app, account, "198.51.100.7").expect(200);
    expectRateLimited(await signIn(app, account, "203.0.113.66"));
  });

  it("stops a guesser with many addresses at the per-account ceiling", async () => {
    const app = await appWithLimits({ RATE_LIMIT_SIGNIN_PER_ACCOUNT_ADDRESS: "3", RATE_LIMIT_SIGNIN_PER_ACCOUNT: "6" }, { TRUST_PROXY: "loopback" });
    const { account } = await signedInAgent(app);
    for (const from of ["203.0.113.1", "203.0.113.2"]) {
      for (let attempt = 0; attempt < 3; attempt += 1) await failedSignIn(app, account.username, from).expect(401);
    }
    expectRateLimited(await failedSignIn(app, account.username, "203.0.113.3"));
  });

  it("never counts a limit's own refusal as a failed password", async () => {
    const app = await appWithLimits({ RATE_LIMIT_SIGNIN_PER_ACCOUNT_ADDRESS: "2", RATE_LIMIT_SIGNIN_PER_IP: "4" });
    for (let attempt = 0; attempt < 2; attempt += 1) await failedSignIn(app, "ana").expect(401);
    for (let attempt = 0; attempt < 5; attempt += 1) expectRateLimited(await failedSignIn(app, "ana"));
    // Two wrong passwords so far from this address, not seven: another account can still be tried.
    await failedSignIn(app, "bea").expect(401);
  });

  it("limits successful sign-ins per account and per address, each one costing a password hash", async () => {
    const app = await appWithLimits({ RATE_LIMIT_SIGNIN_SUCCESS_PER_ACCOUNT: "2", RATE_LIMIT_SIGNIN_SUCCESS_PER_IP: "2" }, { TRUST_PROXY: "loopback" });
    const { account } = await signedInAgent(app);
    const { account: other } = await signedInAgent(app);
    await signIn(app, account, "198.51.100.1").expect(200);
    await signIn(app, account, "198.51.100.2").expect(200);
    expectRateLimited(await signIn(app, account, "198.51.100.3"));
    await signIn(app, other, "198.51.100.1").expect(200);
    expectRateLimited(await signIn(app, other, "198.51.100.1"));
  });
});

describe("account limits", () => {
  const register = (app: TestApp["app"], from: string, account: object = newAccount()) =>
    request(app).post("/api/auth/register").set("X-Forwarded-For", from).send(account);

  it("limits registrations per address, invalid attempts included, and not another address's", async () => {
    const app = await appWithLimits({ RATE_LIMIT_REGISTER_PER_IP: "2" }, { TRUST_PROXY: "loopback" });
    await register(app, "198.51.100.1").expect(201);
    await register(app, "198.51.100.1", { username: "x" }).expect(400);
    expectRateLimited(await register(app, "198.51.100.1"));
    await register(app, "198.51.100.2").expect(201);
  });

  it("limits the accounts made from all addresses together, counting only accounts made", async () => {
    const app = await appWithLimits({ RATE_LIMIT_REGISTER_ALL_ADDRESSES: "2" }, { TRUST_PROXY: "loopback" });
    // Invalid input and a taken username make no account, so they do not fill the ceiling.
    // A refused attempt is counted while it runs and taken back once its answer is sent: wait for that.
    const madeSoFar = (made: number) =>
      vi.waitFor(async () => {
        const [row] = await testApp.database.db.select({ hits: rateLimitHits.hits }).from(rateLimitHits).where(eq(rateLimitHits.key, "register-all:all"));
        expect(row?.hits).toBe(made);
      });
    const taken = newAccount();
    await register(app, "198.51.100.1", taken).expect(201);
    await register(app, "198.51.100.2", { ...newAccount(), username: taken.username }).expect(409);
    await madeSoFar(1);
    await register(app, "198.51.100.3", { username: "x", password: 5 }).expect(400);
    await madeSoFar(1);
    await register(app, "198.51.100.4").expect(201);
    const refused = await register(app, "198.51.100.5");
    expectRateLimited(refused);
    expect(refused.body.message).toMatch(/^Too many new accounts are being made right now\./);
    expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(600);
    // Sign-in is not held up by the ceiling on sign-ups.
    await request(app).post("/api/auth/login").send({ username: taken.username, password: taken.password }).expect(200);
  });

  it("lets a classroom behind one address sign up by default", async () => {
    testApp = await createTestApp({ RATE_LIMIT_REGISTER_PER_IP: String(RATE_LIMIT_DEFAULTS.RATE_LIMIT_REGISTER_PER_IP), RATE_LIMIT_REGISTER_ALL_ADDRESSES: String(RATE_LIMIT_DEFAULTS.RATE_LIMIT_REGISTER_ALL_ADDRESSES) });
    // Thirty pupils, and ten of them get a field wrong the first time.
    for (let pupil = 0; pupil < 30; pupil += 1) {
      if (pupil % 3 === 0) await request(testApp.app).post("/api/auth/register").send({ ...newAccount(), confirmPassword: "typo" }).expect(400);
      await request(testApp.app).post("/api/auth/register").send(newAccount()).expect(201);
    }
  });

  it("limits uploads per account and stores nothing from a refused one", async () => {
    const app = await appWithLimits({ RATE_LIMIT_UPLOADS_PER_ACCOUNT: "1" });
    const { agent } = await signedInAgent(app);
    await sendBookForm(agent.post("/api/books")).expect(201);
    const filesBefore = filesUnder(testApp.uploadsDir);

    expectRateLimited(await sendBookForm(agent.post("/api/books")));
    const [counted] = await testApp.database.db.select({ value: count() }).from(books);
    expect(counted!.value).toBe(1);
    expect(filesUnder(testApp.uploadsDir)).toEqual(filesBefore);
    const { agent: otherAuthor } = await signedInAgent(app);
    await sendBookForm(otherAuthor.post("/api/books")).expect(201);
  });

  it("limits downloads and ratings per account", async () => {
    const app = await appWithLimits({ RATE_LIMIT_DOWNLOADS_PER_ACCOUNT: "2", RATE_LIMIT_RATINGS_PER_ACCOUNT: "1" });
    const { agent: author } = await signedInAgent(app);
    const first = (await sendBookForm(author.post("/api/books")).expect(201)).body as { id: number };
    const second = (await sendBookForm(author.post("/api/books"), { title: "Otro libro" }).expect(201)).body as { id: number };
    const { agent: reader, user } = await signedInAgent(app);

    await reader.post(`/api/books/${first.id}/download`).expect(200);
    await reader.post(`/api/books/${second.id}/download`).expect(200);
    expectRateLimited(await reader.post(`/api/books/${first.id}/download`));

    await reader.post("/rate").send({ bookId: first.id, userId: user.id, rating: 5 }).expect(201);
    expectRateLimited(await reader.post("/rate").send({ bookId: second.id, userId: user.id, rating: 4 }));
  });
});

describe("a PDF's bytes for the browser reader (docs/decisions/0049)", () => {
  // A longer file (a PDF may end in comments): a few whole-file Ranges reach the hour's megabyte.
  const BOOK = { buffer: Buffer.concat([readFileSync(fixture("book.pdf")), Buffer.from(`${`%${"x".repeat(1022)}\n`.repeat(300)}%%EOF\n`)]), name: "long.pdf" };
  const BOOK_BYTES = BOOK.buffer.length;
  const fileOf = (agent: request.Agent, bookId: number, range?: string) => {
    const test = agent.get(`/api/books/${bookId}/read/file`).buffer(true).responseType("blob");
    return range ? test.set("Range", range) : test;
  };

  it("lets a reader page a PDF by a hundred Range requests, and stops a fetcher at the hour's megabytes or downloads", async () => {
    // 1 MB of parts an hour here (500 by default), and 3 downloads.
    const app = await appWithLimits({ RATE_LIMIT_READ_MB_PER_ACCOUNT: "1", RATE_LIMIT_DOWNLOADS_PER_ACCOUNT: "3" });
    const { agent: author } = await signedInAgent(app);
    const { id: bookId } = (await sendBookForm(author.post("/api/books"), { file: BOOK, coverImage: null }).expect(201)).body as { id: number };

    // A reader as pdf.js reads: the opening, one request for the whole file (cut once its headers say
    // parts can be had), then parts as the pages turn, back and forth: 100 of 1 KB.
    const { agent: reader } = await signedInAgent(app);
    await reader.post(`/api/books/${bookId}/read`).expect(200);
    await fileOf(reader, bookId).expect(200);
    for (let turn = 0; turn < 100; turn += 1) {
      const start = ((turn * 7) % Math.floor(BOOK_BYTES / 1024)) * 1024;
      await fileOf(reader, bookId, `bytes=${start}-${start + 1023}`).expect(206);
    }

    // A fetcher taking the whole file again and again: the download limit (the opening was one of its three).
    const { agent: fetcher } = await signedInAgent(app);
    await fetcher.post(`/api/books/${bookId}/read`).expect(200);
    await fileOf(fetcher, bookId).expect(200);
    // A Range the server cannot use gets the whole file, and counts as the whole file.
    await fileOf(fetcher, bookId, "bytes=abc").expect(200);
    const wholeAgain = await fileOf(fetcher, bookId);
    expect(wholeAgain.status).toBe(429);
    expect(JSON.parse(String(wholeAgain.body))).toMatchObject({ code: "rate_limited", message: expect.stringMatching(/^Too many downloads\. Try again in \d+ minutes?\.$/) });

    // The same fetcher by parts: whole files as Ranges, until their kilobytes reach the hour's megabyte.
    const perFetch = Math.ceil(BOOK_BYTES / 1024);
    const allowed = Math.floor(1024 / perFetch);
    expect(allowed).toBe(3);
    for (let fetch = 0; fetch < allowed; fetch += 1) await fileOf(fetcher, bookId, "bytes=0-").expect(206);
    const refused = await fileOf(fetcher, bookId, "bytes=0-");
    expect(refused.status).toBe(429);
    expect(JSON.parse(String(refused.body))).toMatchObject({ code: "rate_limited", message: expect.stringMatching(/^Too many parts of books fetched\. Try again in \d+ minutes?\.$/) });
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // A small part is refused too until the hour is over; the limit is the fetcher's own: the reader still reads.
    expect((await fileOf(fetcher, bookId, "bytes=0-99")).status).toBe(429);
    await fileOf(reader, bookId, "bytes=0-1023").expect(206);
    // Some 140 requests: on a busy machine, more than the default 30 s.
  }, 90_000);
});

describe("an EPUB's bytes for the browser reader", () => {
  it("count as a whole file each time, against the account's download limit", async () => {
    const app = await appWithLimits({ RATE_LIMIT_DOWNLOADS_PER_ACCOUNT: "3" });
    const { agent: author } = await signedInAgent(app);
    const docx = { buffer: readFileSync(fixture("book.docx")), name: "book.docx" };
    const { id: bookId } = (await sendBookForm(author.post("/api/books"), { file: docx, coverImage: null }).expect(201)).body as { id: number };
    // The EPUB Plume made from the Word book, as its conversion leaves it.
    const epub = readFileSync(fixture("book.epub"));
    const [book] = await testApp.database.db.select({ filePath: books.filePath }).from(books).where(eq(books.id, bookId));
    await testApp.store.write("views", derivedNamesOf(book!.filePath).epub, epub);
    await testApp.database.db.update(books).set({ epubSize: epub.length }).where(eq(books.id, bookId));

    const { agent: fetcher } = await signedInAgent(app);
    await fetcher.post(`/api/books/${bookId}/read`).expect(200);
    const epubOf = () => fetcher.get(`/api/books/${bookId}/read/epub`).buffer(true).responseType("blob");
    // The opening was one of the three; each EPUB fetched is another.
    expect((await epubOf().expect(200)).headers["content-type"]).toBe(EPUB_MIME_TYPE);
    await epubOf().expect(200);
    const refused = await epubOf();
    expect(refused.status).toBe(429);
    expect(JSON.parse(String(refused.body))).toMatchObject({ code: "rate_limited", message: expect.stringMatching(/^Too many downloads\./) });
    await testApp.wordViewsDone();
  });
});

describe("the shared store", () => {
  it("makes two server processes on one database agree on the count", async () => {
    const app = await appWithLimits({ RATE_LIMIT_SIGNIN_PER_ACCOUNT: "2" });
    const secondProcess = testApp.anotherProcess({ RATE_LIMIT_SIGNIN_PER_ACCOUNT: "2" });
    try {
      await failedSignIn(app, "ana").expect(401);
      await failedSignIn(secondProcess.app, "ana").expect(401);
      expectRateLimited(await failedSignIn(app, "ana"));
      expectRateLimited(await failedSignIn(secondProcess.app, "ana"));
    } finally {
      secondProcess.close();
    }
  });
});
