import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { Wallet } from "ethers";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { derivedNamesOf } from "../books/book-files.ts";
import { books } from "../db/schema.ts";
import { listRoutes } from "../../test/helpers/list-routes.ts";
import { linkMailedTo } from "../../test/helpers/mail-files.ts";
import { TEST_ADMIN_EMAIL, TEST_SESSION_SECRET, type TestApp, createTestApp, newAccount } from "../../test/helpers/test-app.ts";
import { unsubscribeTokensFor } from "../follows/unsubscribe-tokens.ts";
import { signedWalletProof } from "../../test/helpers/wallet-proof.ts";
import { bookDocuments } from "../db/schema.ts";
import { type Access, ROUTE_TABLE, type RouteRule } from "./route-table.ts";

const METRICS_TOKEN = "matrix-metrics-token-0123";

type Caller = "anonymous" | "reader" | "owner" | "other" | "admin";
const CALLERS: readonly Caller[] = ["anonymous", "reader", "owner", "other", "admin"];
type Outcome = "allowed" | 401 | 403;

/** What each kind of access means for each caller; "owner" is the author of the book or the account the request names. */
const EXPECTED: Record<Access, Record<Caller, Outcome>> = {
  public: { anonymous: "allowed", reader: "allowed", owner: "allowed", other: "allowed", admin: "allowed" },
  "signed-in": { anonymous: 401, reader: "allowed", owner: "allowed", other: "allowed", admin: "allowed" },
  "signed-in-not-author": { anonymous: 401, reader: "allowed", owner: 403, other: "allowed", admin: "allowed" },
  "book-author": { anonymous: 401, reader: 403, owner: "allowed", other: 403, admin: 403 },
  "account-or-admin": { anonymous: 401, reader: 403, owner: "allowed", other: 403, admin: "allowed" },
  admin: { anonymous: 401, reader: 403, owner: 403, other: 403, admin: "allowed" },
  // Callers other than the anonymous one send their own e-reader key (server/opds/e-reader-key-auth.ts).
  "e-reader-key": { anonymous: 401, reader: "allowed", owner: "allowed", other: "allowed", admin: "allowed" },
};

interface Account {
  id: string;
  username: string;
  password: string;
  cookie: string;
  /** One of the account's e-reader keys, for the routes of e-reader apps. */
  eReaderKey: string;
}

let testApp: TestApp;
const accounts = {} as Record<Exclude<Caller, "anonymous">, Account>;
let sharedBook: { id: number; coverImageUrl: string };

const sessionCookieOf = (response: request.Response) => [response.headers["set-cookie"] ?? []].flat()[0]!.split(";")[0]!;

async function register(overrides: Record<string, string> = {}): Promise<Account> {
  const account = newAccount(overrides);
  const response = await request(testApp.app).post("/api/auth/register").send(account).expect(201);
  const cookie = sessionCookieOf(response);
  return { id: response.body.id, username: account.username, password: account.password, cookie, eReaderKey: await newEReaderKey(cookie) };
}

/** A session of its own, for calls that end or replace the session they are sent with. */
async function freshCookie(caller: Caller): Promise<string | undefined> {
  if (caller === "anonymous") return undefined;
  const { username, password } = accounts[caller];
  return sessionCookieOf(await request(testApp.app).post("/api/auth/login").send({ username, password }).expect(200));
}

/**
 * An account of its own for calls that change what the shared accounts rely on (their password,
 * their other sessions, their existence): every signed-in caller has the same rights to them.
 */
async function throwaway(caller: Caller): Promise<Account | undefined> {
  return caller === "anonymous" ? undefined : register();
}

async function newEReaderKey(cookie: string): Promise<string> {
  const response = await request(testApp.app).post("/api/e-reader-keys").set("Cookie", cookie).send({ name: "Kobo" }).expect(201);
  return (response.body as { key: string }).key;
}

async function publishBook(author: Account) {
  const response = await sendBookForm(request(testApp.app).post("/api/books").set("Cookie", author.cookie)).expect(201);
  return response.body as { id: number; coverImageUrl: string };
}

/** A series of the caller's own, made for the call (anonymous: any id, refused at the door). */
async function ownSeries(caller: Caller): Promise<number> {
  if (caller === "anonymous") return 1;
  const created = await request(testApp.app).post("/api/series").set("Cookie", accounts[caller].cookie).send({ title: `${caller}'s series` }).expect(201);
  return (created.body as { id: number }).id;
}

let seriesBookMade: Promise<{ seriesId: number; bookId: number; tag: string }> | undefined;
/** The owner's series with one listed, tagged book: made once, before the reads that change nothing are checked. */
const seriesBook = () =>
  (seriesBookMade ??= (async () => {
    const created = await request(testApp.app).post("/api/series").set("Cookie", accounts.owner.cookie).send({ title: "The matrix saga" }).expect(201);
    const seriesId = (created.body as { id: number }).id;
    const response = await sendBookForm(request(testApp.app).post("/api/books").set("Cookie", accounts.owner.cookie), {
      seriesId: String(seriesId),
      seriesVolume: "1",
      tags: "Matrix tag",
    }).expect(201);
    return { seriesId, bookId: (response.body as { id: number }).id, tag: "matrix-tag" };
  })());

/** Reading calls need the book opened by the caller first (server/reading/reading-policy.ts); opening it again changes nothing. */
async function opened(caller: Caller, bookId: number): Promise<number> {
  if (caller !== "anonymous") await request(testApp.app).post(`/api/books/${bookId}/read`).set("Cookie", accounts[caller].cookie).expect(200);
  return bookId;
}

let wordBook: Promise<number> | undefined;
/** A Word book for the reading view, published the first time it is asked for. */
const wordBookId = () =>
  (wordBook ??= sendBookForm(request(testApp.app).post("/api/books").set("Cookie", accounts.owner.cookie), { file: fixture("book.docx") })
    .expect(201)
    .then((response) => (response.body as { id: number }).id));

const koreaderSignIn = (test: request.Test, caller: Caller) =>
  caller === "anonymous"
    ? test
    : test.set("x-auth-user", accounts[caller].username).set("x-auth-key", createHash("md5").update(accounts[caller].eReaderKey).digest("hex"));

/** The KOReader id of the shared book's file, once the caller has taken it (progress is kept only for books taken). */
async function takenDocument(caller: Exclude<Caller, "anonymous">): Promise<string> {
  await opened(caller, sharedBook.id);
  const [row] = await testApp.database.db.select({ partialMd5: bookDocuments.partialMd5 }).from(bookDocuments).where(eq(bookDocuments.bookId, sharedBook.id));
  return row!.partialMd5;
}

let epubBook: Promise<number> | undefined;
/** A Word book whose EPUB Plume made, as the conversion leaves it (the file in "views", its size on the row). */
const epubBookId = () =>
  (epubBook ??= (async () => {
    const response = await sendBookForm(request(testApp.app).post("/api/books").set("Cookie", accounts.owner.cookie), { file: fixture("book.docx") }).expect(201);
    const id = (response.body as { id: number }).id;
    const [book] = await testApp.database.db.select({ filePath: books.filePath }).from(books).where(eq(books.id, id));
    const epub = readFileSync(fixture("book.epub"));
    await testApp.store.write("views", derivedNamesOf(book!.filePath).epub, epub);
    await testApp.database.db.update(books).set({ epubSize: epub.length }).where(eq(books.id, id));
    return id;
  })());

let publicReader: Promise<string> | undefined;
/** A reader who made their shelves public, once: their page answers everyone. */
const publicReaderName = () =>
  (publicReader ??= (async () => {
    const reader = await register();
    await request(testApp.app).put("/api/account/shelves-public").set("Cookie", reader.cookie).send({ shelvesPublic: true }).expect(200);
    return reader.username;
  })());

/** The shared book on the caller's shelves, for the call that takes it off. */
async function shelved(caller: Caller): Promise<number> {
  if (caller !== "anonymous") await request(testApp.app).put(`/api/shelves/${sharedBook.id}`).set("Cookie", accounts[caller].cookie).send({ shelf: "want" }).expect(200);
  return sharedBook.id;
}

const SPAM_NOTICE = {
  category: "spam",
  url: "http://plume.test/books/1",
  explanation: "Every page of this book is the same advertisement.",
  name: "Ana Lectora",
  email: "ana.lectora@example.test",
  goodFaith: true,
};

async function sendNotice(): Promise<number> {
  const response = await request(testApp.app).post("/api/notices").send({ ...SPAM_NOTICE, bookId: sharedBook.id }).expect(201);
  return (response.body as { id: number }).id;
}

const APPEAL = { kind: "appeal", statement: "The authorization matrix contests this decision." };

/** A book of the author's, hidden by the admin: the decision an appeal contests. */
async function hidingOf(author: Account): Promise<number> {
  const book = await publishBook(author);
  const response = await request(testApp.app)
    .post(`/api/admin/books/${book.id}/moderation`)
    .set("Cookie", accounts.admin.cookie)
    .send({ action: "hide", ground: "terms-spam", basis: "own-initiative", facts: "The authorization matrix hides a book." })
    .expect(201);
  return (response.body as { id: number }).id;
}

async function openAppeal(): Promise<number> {
  const decisionId = await hidingOf(accounts.other);
  const response = await request(testApp.app).post(`/api/moderation/decisions/${decisionId}/appeal`).set("Cookie", accounts.other.cookie).send(APPEAL).expect(201);
  return (response.body as { id: number }).id;
}

const REVIEW_TEXT = "The authorization matrix read this book and liked it.";

/** A new book of the owner's that the caller rated (the owner and a visitor rate nothing). */
async function ratedBy(caller: Caller): Promise<number> {
  const book = await publishBook(accounts.owner);
  if (caller !== "anonymous" && caller !== "owner") {
    await request(testApp.app).post("/rate").set("Cookie", accounts[caller].cookie).send({ bookId: book.id, userId: accounts[caller].id, rating: 4 }).expect(201);
  }
  return book.id;
}

/** A review of a new book of the owner's, by the caller, or by a stranger for the calls on someone else's review. */
async function reviewBy(writer: Caller | "stranger"): Promise<{ id: number; bookId: number }> {
  const book = await publishBook(accounts.owner);
  if (writer === "anonymous" || writer === "owner") return { id: 999999, bookId: book.id };
  const cookie = writer === "stranger" ? (await register()).cookie : accounts[writer].cookie;
  await request(testApp.app).post(`/api/books/${book.id}/read`).set("Cookie", cookie).expect(200);
  const response = await request(testApp.app).put(`/api/books/${book.id}/review`).set("Cookie", cookie).send({ rating: 4, text: REVIEW_TEXT }).expect(200);
  return { id: (response.body as { review: { id: number } }).review.id, bookId: book.id };
}

/** A stranger's review the owner replied to: the reply only its book's author deletes. */
async function repliedReview(caller: Caller): Promise<number> {
  const { id } = await reviewBy("stranger");
  if (caller === "owner") await request(testApp.app).put(`/api/reviews/${id}/reply`).set("Cookie", accounts.owner.cookie).send({ text: "Thank you." }).expect(200);
  return id;
}

interface Call {
  path: string;
  send?: (test: request.Test) => request.Test;
  /** The session the call is made with; by default the caller's own. */
  cookie?: string;
}

/** One well-formed request per route, so that only who calls decides the answer. */
let checkedResetToken: string | null;

/** A reset link's token for a fresh account, made by the admin: no caller's own password is at stake. */
async function throwawayResetToken(): Promise<string | null> {
  const throwaway = await request(testApp.app).post("/api/auth/register").send(newAccount()).expect(201);
  const link = await request(testApp.app).post(`/api/admin/users/${(throwaway.body as { id: string }).id}/reset-link`).set("Cookie", accounts.admin.cookie).expect(201);
  return new URL((link.body as { url: string }).url).searchParams.get("token");
}

const SAMPLES: Record<string, (caller: Caller) => Promise<Call>> = {
  "POST /api/auth/register": async (caller) => ({
    path: "/api/auth/register",
    send: (test) => test.send(newAccount()),
    cookie: await freshCookie(caller),
  }),
  "POST /api/auth/login": async (caller) => {
    const { username, password } = accounts[caller === "anonymous" ? "reader" : caller];
    return { path: "/api/auth/login", send: (test) => test.send({ username, password }), cookie: await freshCookie(caller) };
  },
  "POST /api/auth/logout": async (caller) => ({ path: "/api/auth/logout", cookie: await freshCookie(caller) }),
  "GET /api/auth/user": async () => ({ path: "/api/auth/user" }),
  "POST /api/auth/forgot-password": async (caller) => ({
    path: "/api/auth/forgot-password",
    send: (test) => test.send({ email: `${caller}-forgot@example.test` }),
  }),
  // The link is the proof, whoever holds it: a fresh account's link from the admin, so no caller's own password changes.
  "POST /api/auth/reset-password": async () => {
    const token = await throwawayResetToken();
    return { path: "/api/auth/reset-password", send: (test) => test.send({ token, password: "brand-new-pass", confirmPassword: "brand-new-pass" }) };
  },
  // A check spends nothing, whoever holds the link: one link, made before the reads are watched, serves every caller.
  "GET /api/auth/reset-password/check": async () => ({ path: `/api/auth/reset-password/check?token=${checkedResetToken}` }),
  // Each call spends a link: a new account's, read from the mail the app wrote for it. The door lets
  // anyone knock; only the session of the account the link was made for spends it (docs/decisions/0054,
  // tested in server/accounts/email-verification.api.test.ts), so every caller comes with that session.
  "POST /api/auth/verify-email": async () => {
    const account = newAccount();
    const registered = await request(testApp.app).post("/api/auth/register").send(account).expect(201);
    const token = (await linkMailedTo(testApp.mailDir, account.email)).searchParams.get("token");
    return { path: "/api/auth/verify-email", send: (test) => test.send({ token }), cookie: sessionCookieOf(registered) };
  },
  // The admin's address is proven (that is what makes it the admin), so it has no link left to ask for: a
  // newly registered account stands in for it, as "signed-in" lets every account through alike.
  "POST /api/auth/verify-email/resend": async (caller) => ({
    path: "/api/auth/verify-email/resend",
    cookie: caller === "admin" ? (await register()).cookie : undefined,
  }),
  "PUT /api/auth/language": async () => ({ path: "/api/auth/language", send: (test) => test.send({ language: "en" }) }),
  "PATCH /api/account/profile": async (caller) => {
    // The caller's own names and username again: allowed, and nothing the other cases rely on moves.
    const username = caller === "anonymous" ? "nobody" : accounts[caller].username;
    return { path: "/api/account/profile", send: (test) => test.send({ firstName: "Ana", lastName: "García", username }) };
  },
  "PUT /api/account/email": async (caller) => {
    const account = await throwaway(caller);
    return { path: "/api/account/email", cookie: account?.cookie, send: (test) => test.send({ email: `moved.${randomUUID()}@example.test`, currentPassword: account?.password ?? "secret-pass" }) };
  },
  "PUT /api/account/password": async (caller) => {
    const account = await throwaway(caller);
    const password = account?.password ?? "secret-pass";
    return { path: "/api/account/password", cookie: account?.cookie, send: (test) => test.send({ currentPassword: password, password: "another-pass", confirmPassword: "another-pass" }) };
  },
  "PUT /api/account/notifications": async () => ({ path: "/api/account/notifications", send: (test) => test.send({ paymentCompleted: true }) }),
  "PUT /api/account/shelves-public": async () => ({ path: "/api/account/shelves-public", send: (test) => test.send({ shelvesPublic: false }) }),
  "GET /api/shelves": async () => ({ path: "/api/shelves" }),
  "PUT /api/shelves/:bookId": async () => ({ path: `/api/shelves/${sharedBook.id}`, send: (test) => test.send({ shelf: "reading" }) }),
  "DELETE /api/shelves/:bookId": async (caller) => ({ path: `/api/shelves/${await shelved(caller)}` }),
  "GET /api/my-books/shelves/:shelf": async () => ({ path: "/api/my-books/shelves/want" }),
  "GET /api/my-books/taken": async () => ({ path: "/api/my-books/taken" }),
  "GET /api/my-books/continue-reading": async () => ({ path: "/api/my-books/continue-reading" }),
  "GET /api/readers/:username": async () => ({ path: `/api/readers/${await publicReaderName()}` }),
  "PUT /api/account/explicit-books": async () => ({ path: "/api/account/explicit-books", send: (test) => test.send({ showExplicit: false }) }),
  "PUT /api/account/e-reader-email": async () => ({ path: "/api/account/e-reader-email", send: (test) => test.send({ eReaderEmail: "matrix@kindle.com" }) }),
  "GET /api/account/sessions": async () => ({ path: "/api/account/sessions" }),
  "POST /api/account/sessions/sign-out-others": async (caller) => ({ path: "/api/account/sessions/sign-out-others", cookie: (await throwaway(caller))?.cookie }),
  "DELETE /api/account/sessions/:id": async (caller) => {
    const account = await throwaway(caller);
    if (!account) return { path: `/api/account/sessions/${"0".repeat(32)}` };
    // A second browser of the account, signed out from the first.
    await request(testApp.app).post("/api/auth/login").send({ username: account.username, password: account.password }).expect(200);
    const listed = await request(testApp.app).get("/api/account/sessions").set("Cookie", account.cookie).expect(200);
    const other = (listed.body as { sessions: Array<{ id: string; current: boolean }> }).sessions.find((session) => !session.current)!;
    return { path: `/api/account/sessions/${other.id}`, cookie: account.cookie };
  },
  "GET /api/account/export": async () => ({ path: "/api/account/export" }),
  "GET /api/account/deletion-preview": async () => ({ path: "/api/account/deletion-preview" }),
  "GET /api/account/storage": async () => ({ path: "/api/account/storage" }),
  "DELETE /api/account": async (caller) => {
    const account = await throwaway(caller);
    return { path: "/api/account", cookie: account?.cookie, send: (test) => test.send({ currentPassword: account?.password ?? "secret-pass" }) };
  },
  "GET /api/login": async () => ({ path: "/api/login?next=/upload" }),
  "GET /api/config": async () => ({ path: "/api/config" }),
  "GET /api/stats/public": async () => ({ path: "/api/stats/public" }),
  "GET /api/books": async () => ({ path: "/api/books?search=paris&sort=title" }),
  "POST /api/books": async () => ({ path: "/api/books", send: (test) => sendBookForm(test) }),
  "GET /api/books/:id": async () => ({ path: `/api/books/${sharedBook.id}` }),
  "PUT /api/books/:id": async () => {
    const book = await publishBook(accounts.owner);
    return { path: `/api/books/${book.id}`, send: (test) => sendBookForm(test, { title: "A new title", file: null, coverImage: null }) };
  },
  "DELETE /api/books/:id": async () => ({ path: `/api/books/${(await publishBook(accounts.owner)).id}` }),
  "POST /api/books/:id/download": async () => ({ path: `/api/books/${sharedBook.id}/download` }),
  "POST /api/books/:id/editions": async () => {
    const book = await publishBook(accounts.owner);
    return { path: `/api/books/${book.id}/editions`, send: (test) => test.field("changelog", "A second edition.").attach("file", fixture("book.epub")) };
  },
  "GET /api/books/:id/editions": async () => ({ path: `/api/books/${sharedBook.id}/editions` }),
  // Each account has an e-reader address to send to, so the call goes through for everyone it lets in.
  "POST /api/books/:id/send-to-e-reader": async (caller) => {
    if (caller !== "anonymous") {
      await request(testApp.app).put("/api/account/e-reader-email").set("Cookie", accounts[caller].cookie).send({ eReaderEmail: `${caller}@kindle.com` }).expect(200);
    }
    return { path: `/api/books/${sharedBook.id}/send-to-e-reader` };
  },
  "POST /api/books/:id/read": async () => ({ path: `/api/books/${sharedBook.id}/read` }),
  "GET /api/books/:id/read/file": async (caller) => ({ path: `/api/books/${await opened(caller, sharedBook.id)}/read/file` }),
  "GET /api/books/:id/read/epub": async (caller) => ({ path: `/api/books/${await opened(caller, await epubBookId())}/read/epub` }),
  "GET /api/books/:id/read/view": async (caller) => {
    const bookId = await opened(caller, await wordBookId());
    // The matrix asks who may read the view, not how soon a busy machine makes it (503 book_view_preparing).
    await testApp.wordViewsDone();
    return { path: `/api/books/${bookId}/read/view` };
  },
  "PUT /api/books/:id/read/position": async (caller) => ({
    path: `/api/books/${await opened(caller, sharedBook.id)}/read/position`,
    send: (test) => test.send({ page: 1 }),
  }),
  "GET /api/authors/:id": async () => ({ path: `/api/authors/${accounts.owner.id}` }),
  "GET /api/authors/:id/books": async () => ({ path: `/api/authors/${accounts.owner.id}/books` }),
  "GET /api/authors/:id/stats": async () => ({ path: `/api/authors/${accounts.owner.id}/stats` }),
  "GET /api/authors/:id/payments": async () => ({ path: `/api/authors/${accounts.owner.id}/payments` }),
  "GET /api/authors/:id/download-report": async () => ({ path: `/api/authors/${accounts.owner.id}/download-report` }),
  "POST /api/wallet/nonce": async () => ({ path: "/api/wallet/nonce", send: (test) => test.send({ walletAddress: Wallet.createRandom().address }) }),
  "POST /api/wallet/connect": async (caller) => {
    const wallet = Wallet.createRandom();
    // A caller with a session proves the wallet as a browser would; the anonymous one sends a well-formed message it could not have obtained.
    const proof =
      caller === "anonymous"
        ? { message: "not signed in", signature: `0x${"1".repeat(130)}` }
        : await signedWalletProof((path) => request(testApp.app).post(path).set("Cookie", accounts[caller].cookie), wallet);
    return { path: "/api/wallet/connect", send: (test) => test.send(proof) };
  },
  "GET /rating/:bookId": async () => ({ path: `/rating/${sharedBook.id}` }),
  "POST /rate": async (caller) => ({
    path: "/rate",
    send: (test) => test.send({ bookId: sharedBook.id, userId: caller === "anonymous" ? accounts.reader.id : accounts[caller].id, rating: 4 }),
  }),
  "GET /api/reviews": async () => ({ path: `/api/reviews?bookId=${sharedBook.id}&userId=${accounts.owner.id}` }),
  // Reviews (docs/product.md#reviews): each call on a book of the owner's that the caller rated or reviewed first, so only who calls decides.
  "GET /api/books/:id/reviews": async () => ({ path: `/api/books/${sharedBook.id}/reviews` }),
  "PUT /api/books/:id/rating": async (caller) => ({ path: `/api/books/${await ratedBy(caller)}/rating`, send: (test) => test.send({ rating: 2 }) }),
  "DELETE /api/books/:id/rating": async (caller) => ({ path: `/api/books/${await ratedBy(caller)}/rating` }),
  "PUT /api/books/:id/review": async (caller) => ({
    path: `/api/books/${await opened(caller, (await publishBook(accounts.owner)).id)}/review`,
    send: (test) => test.send({ rating: 4, text: REVIEW_TEXT }),
  }),
  "DELETE /api/books/:id/review": async (caller) => ({ path: `/api/books/${(await reviewBy(caller)).bookId}/review` }),
  "PUT /api/reviews/:id/reply": async () => ({ path: `/api/reviews/${(await reviewBy("stranger")).id}/reply`, send: (test) => test.send({ text: "Thank you for reading." }) }),
  "DELETE /api/reviews/:id/reply": async (caller) => ({ path: `/api/reviews/${await repliedReview(caller)}/reply` }),
  "PUT /api/reviews/:id/helpful": async () => ({ path: `/api/reviews/${(await reviewBy("stranger")).id}/helpful` }),
  "DELETE /api/reviews/:id/helpful": async () => ({ path: `/api/reviews/${(await reviewBy("stranger")).id}/helpful` }),
  "POST /api/admin/reviews/:id/moderation": async (caller) => ({
    path: `/api/admin/reviews/${caller === "admin" ? (await reviewBy("stranger")).id : (await reviewBy(caller === "anonymous" ? "stranger" : caller)).id}/moderation`,
    send: (test) => test.send({ action: "remove", ground: "terms-spam", basis: "notice", facts: "The authorization matrix removes a review." }),
  }),
  "GET /covers/:name": async () => ({ path: sharedBook.coverImageUrl }),
  "GET /api/e-reader-keys": async () => ({ path: "/api/e-reader-keys" }),
  "POST /api/e-reader-keys": async () => ({ path: "/api/e-reader-keys", send: (test) => test.send({ name: "KOReader on my phone" }) }),
  "DELETE /api/e-reader-keys/:id": async (caller) => {
    if (caller === "anonymous") return { path: `/api/e-reader-keys/${randomUUID()}` };
    const created = await request(testApp.app).post("/api/e-reader-keys").set("Cookie", accounts[caller].cookie).send({ name: "Old Kindle" }).expect(201);
    return { path: `/api/e-reader-keys/${(created.body as { id: string }).id}` };
  },
  "GET /opds": async () => ({ path: "/opds" }),
  "GET /opds/following": async (caller) => ({
    path: "/opds/following",
    send: (test) => (caller === "anonymous" ? test : test.auth(accounts[caller].username, accounts[caller].eReaderKey)),
  }),
  "GET /opds/following/atom": async (caller) => ({
    path: "/opds/following/atom",
    send: (test) => (caller === "anonymous" ? test : test.auth(accounts[caller].username, accounts[caller].eReaderKey)),
  }),
  // An author with a listed book who is not the caller: nobody follows themself.
  "GET /api/authors/:id/follow": async (caller) => ({ path: `/api/authors/${caller === "other" ? accounts.owner.id : accounts.other.id}/follow` }),
  "PUT /api/authors/:id/follow": async (caller) => ({ path: `/api/authors/${caller === "other" ? accounts.owner.id : accounts.other.id}/follow` }),
  "DELETE /api/authors/:id/follow": async (caller) => ({ path: `/api/authors/${caller === "other" ? accounts.owner.id : accounts.other.id}/follow` }),
  "GET /api/following": async () => ({ path: "/api/following" }),
  "PUT /api/account/digest": async () => ({ path: "/api/account/digest", send: (test) => test.send({ digestFrequency: "weekly" }) }),
  // A mail program's one-click unsubscribe: no session, the link's signed token (RFC 8058).
  "POST /unsubscribe": async () => ({ path: `/unsubscribe?token=${unsubscribeTokensFor(TEST_SESSION_SECRET).tokenFor(accounts.reader.id)}` }),
  "GET /opds/new": async () => ({ path: "/opds/new?page=1" }),
  "GET /opds/popular": async () => ({ path: "/opds/popular" }),
  "GET /opds/genres": async () => ({ path: "/opds/genres" }),
  "GET /opds/genres/:genre": async () => ({ path: "/opds/genres/novela" }),
  "GET /opds/languages": async () => ({ path: "/opds/languages" }),
  "GET /opds/languages/:language": async () => ({ path: "/opds/languages/es" }),
  // Series and tags (docs/product.md#series-and-tags): each signed-in caller changes a series of its own; another's is refused in server/series/series.api.test.ts.
  "GET /api/account/series": async () => ({ path: "/api/account/series" }),
  "POST /api/series": async () => ({ path: "/api/series", send: (test) => test.send({ title: "A matrix series" }) }),
  "PUT /api/series/:id": async (caller) => ({ path: `/api/series/${await ownSeries(caller)}`, send: (test) => test.send({ title: "Renamed by the matrix" }) }),
  "DELETE /api/series/:id": async (caller) => ({ path: `/api/series/${await ownSeries(caller)}` }),
  "GET /api/series/:id": async () => ({ path: `/api/series/${(await seriesBook()).seriesId}` }),
  "GET /api/books/:id/placement": async () => ({ path: `/api/books/${(await seriesBook()).bookId}/placement` }),
  "GET /api/tags": async () => ({ path: "/api/tags?q=matrix" }),
  "GET /api/tags/:slug": async () => ({ path: `/api/tags/${(await seriesBook()).tag}` }),
  "GET /opds/tags": async () => ({ path: "/opds/tags" }),
  "GET /opds/tags/:slug": async () => ({ path: `/opds/tags/${(await seriesBook()).tag}` }),
  "GET /opds/series/:id": async () => ({ path: `/opds/series/${(await seriesBook()).seriesId}` }),
  "GET /opds/search": async () => ({ path: "/opds/search?q=paris" }),
  "GET /opds/opensearch.xml": async () => ({ path: "/opds/opensearch.xml" }),
  "GET /opds/books/:id/file": async (caller) => ({
    path: `/opds/books/${sharedBook.id}/file`,
    send: (test) => (caller === "anonymous" ? test : test.auth(accounts[caller].username, accounts[caller].eReaderKey)),
  }),
  // KOReader signs in with the username and the MD5 of an e-reader key typed as its password.
  "GET /kosync/users/auth": async (caller) => ({ path: "/kosync/users/auth", send: (test) => koreaderSignIn(test, caller) }),
  "PUT /kosync/syncs/progress": async (caller) => {
    const document = caller === "anonymous" ? "0".repeat(32) : await takenDocument(caller);
    return { path: "/kosync/syncs/progress", send: (test) => koreaderSignIn(test, caller).send({ document, progress: "1", percentage: 0, device: "Kobo", device_id: "K" }) };
  },
  "GET /kosync/syncs/progress/:document": async (caller) => ({
    path: `/kosync/syncs/progress/${caller === "anonymous" ? "0".repeat(32) : await takenDocument(caller)}`,
    send: (test) => koreaderSignIn(test, caller),
  }),
  "GET /api/admin/overview-debug": async () => ({ path: "/api/admin/overview-debug" }),
  "GET /api/admin/payment-diagnostics": async () => ({ path: "/api/admin/payment-diagnostics" }),
  "GET /api/admin/users": async () => ({ path: "/api/admin/users" }),
  "GET /api/admin/books": async () => ({ path: "/api/admin/books" }),
  "GET /api/admin/payout-sla": async () => ({ path: "/api/admin/payout-sla" }),
  "GET /feed.xml": async () => ({ path: "/feed.xml" }),
  "GET /authors/:id/feed.xml": async () => ({ path: `/authors/${accounts.owner.id}/feed.xml` }),
  "GET /sitemap.xml": async () => ({ path: "/sitemap.xml" }),
  "GET /sitemaps/:name": async () => ({ path: "/sitemaps/books-1.xml" }),
  "GET /robots.txt": async () => ({ path: "/robots.txt" }),
  "GET /api/openapi.json": async () => ({ path: "/api/openapi.json" }),
  "GET /healthz": async () => ({ path: "/healthz" }),
  "GET /readyz": async () => ({ path: "/readyz" }),
  // Public to every caller, a session or none: the bearer token is the scraper's proof.
  "GET /metrics": async () => ({ path: "/metrics", send: (test) => test.set("Authorization", `Bearer ${METRICS_TOKEN}`) }),
  "POST /api/admin/users/:id/reset-link": async () => ({ path: `/api/admin/users/${accounts.reader.id}/reset-link` }),
  // Each admin decision needs a book or an account in the state it changes: a fresh one per call.
  "POST /api/admin/books/:id/moderation": async (caller) => ({
    path: `/api/admin/books/${caller === "admin" ? (await publishBook(accounts.other)).id : sharedBook.id}/moderation`,
    send: (test) => test.send({ action: "hide", ground: "terms-spam", basis: "own-initiative", facts: "The authorization matrix hides a book." }),
  }),
  "POST /api/admin/users/:id/moderation": async (caller) => ({
    path: `/api/admin/users/${caller === "admin" ? (await register()).id : accounts.other.id}/moderation`,
    send: (test) => test.send({ action: "suspend", ground: "terms-spam", basis: "own-initiative", facts: "The authorization matrix suspends an account." }),
  }),
  "GET /api/moderation/decisions": async () => ({ path: "/api/moderation/decisions" }),
  "GET /api/admin/notices": async () => ({ path: "/api/admin/notices" }),
  "GET /api/admin/moderation/decisions": async () => ({ path: "/api/admin/moderation/decisions" }),
  "GET /api/transparency": async () => ({ path: "/api/transparency" }),
  // The admin dismisses a notice sent for the call; anyone else is refused before it is looked at.
  "POST /api/admin/notices/:id/dismiss": async (caller) => ({
    path: `/api/admin/notices/${caller === "admin" ? await sendNotice() : 1}/dismiss`,
    send: (test) => test.send({ facts: "The book is the author's own, as its first edition shows." }),
  }),
  // Every account contests a decision about its own book; a visitor is refused before the number is looked at.
  "POST /api/moderation/decisions/:id/appeal": async (caller) => ({
    path: `/api/moderation/decisions/${caller === "anonymous" ? 1 : await hidingOf(accounts[caller])}/appeal`,
    send: (test) => test.send(APPEAL),
  }),
  "GET /api/admin/appeals": async () => ({ path: "/api/admin/appeals" }),
  "POST /api/admin/appeals/:id/decision": async (caller) => ({
    path: `/api/admin/appeals/${caller === "admin" ? await openAppeal() : 1}/decision`,
    send: (test) => test.send({ outcome: "rejected", facts: "The authorization matrix rejects an appeal." }),
  }),
  "POST /api/notices": async () => ({
    path: "/api/notices",
    send: (test) => test.send({ ...SPAM_NOTICE, bookId: sharedBook.id }),
  }),
  "POST /api/admin/fix-first-book-flag": async () => ({
    path: "/api/admin/fix-first-book-flag",
    send: (test) => test.send({ bookId: sharedBook.id, setAsFirstBook: true }),
  }),
};

/**
 * The reads that hand over a book's file and so count it as a download (docs/product.md#counting-downloads):
 * e-reader apps only ever GET, so OPDS takes a book with a GET. KOReader's progress is read only for a
 * book taken, so its sample takes the book first.
 */
const TAKES_A_BOOK = new Set(["/opds/books/:id/file", "/kosync/syncs/progress/:document"]);

const routeKey = (rule: Pick<RouteRule, "method" | "path">) => `${rule.method} ${rule.path}`;

async function call(rule: RouteRule, caller: Caller): Promise<request.Response> {
  const sample = SAMPLES[routeKey(rule)];
  if (!sample) throw new Error(`No sample request for ${routeKey(rule)}: add one to SAMPLES.`);
  const { path, send = (test) => test, cookie = caller === "anonymous" ? undefined : accounts[caller].cookie } = await sample(caller);
  let test = request(testApp.app)[rule.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete"](path);
  if (cookie) test = test.set("Cookie", cookie);
  return send(test);
}

/** A digest of every row people or payouts own, to prove that reading changes nothing. */
async function fingerprint(): Promise<string> {
  const tables = ["users", "books", "downloads", "reviews", "payments", "payout_leases"];
  const digests = await Promise.all(
    tables.map(async (table) => {
      const result = (await testApp.database.db.execute(
        sql.raw(`select coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as digest from ${table} t`),
      )) as unknown as { rows: { digest: string }[] };
      return result.rows[0]!.digest;
    }),
  );
  return digests.join(",");
}

beforeAll(async () => {
  testApp = await createTestApp({ METRICS_TOKEN });
  accounts.reader = await register();
  accounts.owner = await register();
  accounts.other = await register();
  accounts.admin = await register({ email: TEST_ADMIN_EMAIL });
  await testApp.proveEmail(TEST_ADMIN_EMAIL);
  sharedBook = await publishBook(accounts.owner);
  await publishBook(accounts.other);
  checkedResetToken = await throwawayResetToken();
});

afterAll(() => testApp.close());

describe("authorization matrix", () => {
  it("has exactly one rule for every route the app serves", () => {
    const served = listRoutes(testApp.app);
    const ruled = ROUTE_TABLE.map(routeKey).sort();
    expect(served).toEqual(ruled);
    expect(new Set(ruled).size).toBe(ruled.length);
  });

  const cases = ROUTE_TABLE.flatMap((rule) => CALLERS.map((caller) => ({ rule, caller, expected: EXPECTED[rule.access][caller] })));

  it.each(cases)("$rule.method $rule.path as $caller: $expected", async ({ rule, caller, expected }) => {
    const response = await call(rule, caller);
    if (expected === "allowed") {
      expect(response.status, JSON.stringify(response.body)).toBeLessThan(400);
    } else {
      expect(response.status).toBe(expected);
      expect(response.body).toMatchObject({ code: expected === 401 ? "unauthorized" : "forbidden" });
    }
  });

  it("changes nothing when any route is read by anyone", async () => {
    // The PDFs published above get their covers drawn after their uploads: that is not a read's doing.
    await testApp.coversDone();
    const before = await fingerprint();
    for (const rule of ROUTE_TABLE.filter(({ method, path }) => method === "GET" && !TAKES_A_BOOK.has(path))) {
      for (const caller of CALLERS) await call(rule, caller);
    }
    expect(await fingerprint()).toBe(before);
  });
});
