import { existsSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountTokens, books, downloads, eReaderKeys, payments, readingPositions, reviews, users } from "../db/schema.ts";
import { FORFEITED_REASON } from "./account-deletion-service.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { linkMailedTo } from "../../test/helpers/mail-files.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, newAccount, signedInAgent, sessionAccount } from "../../test/helpers/test-app.ts";
import { connectProvenWallet } from "../../test/helpers/wallet-proof.ts";

let testApp: TestApp;
beforeAll(async () => {
  testApp = await createTestApp({ TRUST_PROXY: "loopback" });
});
afterAll(() => testApp.close());

const db = () => testApp.database.db;
const accountRow = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!;
const signIn = (username: string, password: string) => request(testApp.app).post("/api/auth/login").send({ username, password });
/** A second browser signed in to the same account, telling the server what it is. */
async function anotherBrowser(username: string, password: string, userAgent: string) {
  const agent = request.agent(testApp.app);
  await agent.post("/api/auth/login").set("User-Agent", userAgent).send({ username, password }).expect(200);
  return agent;
}

describe("PATCH /api/account/profile", () => {
  it("changes the names and username, which then sign in and show on the account", async () => {
    const { agent, account } = await signedInAgent(testApp.app);
    const username = `${account.username}_new`;
    const response = await agent.patch("/api/account/profile").send({ firstName: " Inés ", lastName: "Núñez", username }).expect(200);
    expect(response.body).toMatchObject({ firstName: "Inés", lastName: "Núñez", username });
    await signIn(username, account.password).expect(200);
    await signIn(account.username, account.password).expect(401);
  });

  it("refuses a username another account has (in any letter case) and bad names, changing nothing", async () => {
    const { agent, user, account } = await signedInAgent(testApp.app);
    const other = newAccount();
    await request(testApp.app).post("/api/auth/register").send(other).expect(201);
    const taken = await agent.patch("/api/account/profile").send({ firstName: "A", lastName: "B", username: other.username.toUpperCase() }).expect(409);
    expect(taken.body).toMatchObject({ code: "username_taken", fields: { username: "errors.username_taken" } });
    const invalid = await agent.patch("/api/account/profile").send({ firstName: "", lastName: "B", username: "has@sign" }).expect(400);
    expect(invalid.body.fields).toMatchObject({ firstName: expect.any(String), username: expect.any(String) });
    await agent.patch("/api/account/profile").send("not json").set("Content-Type", "application/json").expect(400);
    expect(await accountRow(user.id)).toMatchObject({ username: account.username, firstName: "Ana" });
  });
});

describe("PUT /api/account/email", () => {
  it("needs the current password, then mails a link that proves the new address; the old address's links prove nothing", async () => {
    const { agent, account, user } = await signedInAgent(testApp.app);
    const oldLink = await linkMailedTo(testApp.mailDir, account.email);
    const email = `new.${account.email}`;

    const wrong = await agent.put("/api/account/email").send({ email, currentPassword: "not-my-password" }).expect(400);
    expect(wrong.body).toMatchObject({ code: "wrong_password", fields: { currentPassword: "errors.wrong_password" } });
    expect((await accountRow(user.id)).email).toBe(account.email);

    const same = await agent.put("/api/account/email").send({ email: account.email.toUpperCase(), currentPassword: account.password }).expect(400);
    expect(same.body.code).toBe("email_unchanged");

    const changed = await agent.put("/api/account/email").send({ email, currentPassword: account.password }).expect(200);
    expect(changed.body).toMatchObject({ email, emailVerified: false });
    await agent.post("/api/auth/verify-email").send({ token: oldLink.searchParams.get("token") }).expect(400);
    const newLink = await linkMailedTo(testApp.mailDir, email);
    await agent.post("/api/auth/verify-email").send({ token: newLink.searchParams.get("token") }).expect(200);
    expect((await agent.get("/api/auth/user").expect(200)).body).toMatchObject({ email, emailVerified: true });
  });

  it("takes an address another account proved without granting its rights, and takes the admin's rights away until the new address is proven", async () => {
    const admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL.toUpperCase() });
    await testApp.proveEmail(TEST_ADMIN_EMAIL);
    expect((await admin.agent.get("/api/auth/user")).body.isAdmin).toBe(true);
    const other = await signedInAgent(testApp.app);
    // The same answer as for a free address (docs/decisions/0054): the address is only claimed, and grants nothing.
    const claimed = await other.agent.put("/api/account/email").send({ email: TEST_ADMIN_EMAIL, currentPassword: other.account.password }).expect(200);
    expect(claimed.body).toMatchObject({ email: TEST_ADMIN_EMAIL, emailVerified: false, isAdmin: false });
    await other.agent.get("/api/admin/users").expect(403);

    await admin.agent.put("/api/account/email").send({ email: "elsewhere@plume.test", currentPassword: admin.account.password }).expect(200);
    expect((await admin.agent.get("/api/auth/user")).body.isAdmin).toBe(false);
    await admin.agent.get("/api/admin/users").expect(403);
  });
});

describe("PUT /api/account/password", () => {
  it("needs the current password; then the new one signs in, the old one does not, every other browser is signed out and mailed reset links are spent", async () => {
    const { agent, account, user } = await signedInAgent(testApp.app);
    await testApp.proveEmail(account.email);
    const phone = await anotherBrowser(account.username, account.password, "Mozilla/5.0 (iPhone)");
    await request(testApp.app).post("/api/auth/forgot-password").send({ email: account.email }).expect(202);
    const passwordBefore = (await accountRow(user.id)).password;

    const wrong = await agent.put("/api/account/password").send({ currentPassword: "nope-nope", password: "brand-new-pass", confirmPassword: "brand-new-pass" }).expect(400);
    expect(wrong.body.code).toBe("wrong_password");
    const mismatch = await agent.put("/api/account/password").send({ currentPassword: account.password, password: "brand-new-pass", confirmPassword: "other" }).expect(400);
    expect(mismatch.body.fields).toMatchObject({ confirmPassword: "validation.passwordsMismatch" });
    await agent.put("/api/account/password").send({ currentPassword: account.password, password: "short", confirmPassword: "short" }).expect(400);
    expect((await accountRow(user.id)).password).toBe(passwordBefore);
    expect(await sessionAccount(phone.get("/api/auth/user"))).not.toBeNull();

    await agent.put("/api/account/password").send({ currentPassword: account.password, password: "brand-new-pass", confirmPassword: "brand-new-pass" }).expect(204);
    expect(await sessionAccount(agent.get("/api/auth/user"))).not.toBeNull();
    expect(await sessionAccount(phone.get("/api/auth/user"))).toBeNull();
    await signIn(account.username, account.password).expect(401);
    await signIn(account.username, "brand-new-pass").expect(200);
    const unspent = await db().select().from(accountTokens).where(and(eq(accountTokens.userId, user.id), eq(accountTokens.purpose, "reset-password")));
    expect(unspent.length).toBeGreaterThan(0);
    expect(unspent.every((token) => token.usedAt !== null)).toBe(true);
  });
});

describe("changes confirmed by the current password are limited per account", () => {
  it("answers 429 once the account has tried too often, right or wrong, and the next attempt changes nothing", async () => {
    const limited = await createTestApp({ RATE_LIMIT_PASSWORD_CONFIRM_PER_ACCOUNT: "2" });
    try {
      const { agent, account } = await signedInAgent(limited.app);
      for (let attempt = 0; attempt < 2; attempt += 1) {
        await agent.put("/api/account/password").send({ currentPassword: "guess-guess", password: "brand-new-pass", confirmPassword: "brand-new-pass" }).expect(400);
      }
      const refused = await agent.put("/api/account/password").send({ currentPassword: account.password, password: "brand-new-pass", confirmPassword: "brand-new-pass" }).expect(429);
      expect(refused.body.code).toBe("rate_limited");
      await request(limited.app).post("/api/auth/login").send({ username: account.username, password: account.password }).expect(200);
    } finally {
      await limited.close();
    }
  });
});

describe("the account's signed-in browsers", () => {
  it("lists them (this one first, with what each browser said it was), signs out one, then every other", async () => {
    const { agent, account } = await signedInAgent(testApp.app);
    const laptop = await anotherBrowser(account.username, account.password, "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0");
    const phone = await anotherBrowser(account.username, account.password, "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0) Safari/604.1");
    const stranger = await signedInAgent(testApp.app);

    const listed = (await agent.get("/api/account/sessions").expect(200)).body.sessions as Array<{ id: string; current: boolean; userAgent: string | null; signedInAt: string | null; lastActiveAt: string }>;
    expect(listed).toHaveLength(3);
    expect(listed[0]!.current).toBe(true);
    expect(listed.map((session) => session.userAgent)).toEqual(expect.arrayContaining([expect.stringContaining("Firefox"), expect.stringContaining("iPhone")]));
    for (const session of listed) {
      expect(session.id).toMatch(/^[0-9a-f]{32}$/);
      expect(Date.parse(session.signedInAt!)).toBeGreaterThan(Date.now() - 60_000);
      expect(Date.parse(session.lastActiveAt)).toBeGreaterThan(Date.now() - 60_000);
    }
    const laptopId = listed.find((session) => session.userAgent?.includes("Firefox"))!.id;
    const strangerIds = ((await stranger.agent.get("/api/account/sessions")).body.sessions as Array<{ id: string }>).map((session) => session.id);

    expect((await agent.delete(`/api/account/sessions/${listed[0]!.id}`).expect(409)).body.code).toBe("current_session");
    await agent.delete(`/api/account/sessions/${strangerIds[0]}`).expect(404);
    await agent.delete("/api/account/sessions/not-a-session").expect(400);
    expect(await sessionAccount(stranger.agent.get("/api/auth/user"))).not.toBeNull();

    await agent.delete(`/api/account/sessions/${laptopId}`).expect(204);
    expect(await sessionAccount(laptop.get("/api/auth/user"))).toBeNull();
    expect(await sessionAccount(phone.get("/api/auth/user"))).not.toBeNull();

    expect((await agent.post("/api/account/sessions/sign-out-others").expect(200)).body).toEqual({ signedOut: 1 });
    expect(await sessionAccount(phone.get("/api/auth/user"))).toBeNull();
    expect(await sessionAccount(agent.get("/api/auth/user"))).not.toBeNull();
    expect((await agent.get("/api/account/sessions")).body.sessions).toHaveLength(1);
  });
});

describe("PUT /api/account/notifications", () => {
  it("turns the payment mail off and on, and refuses what is not a yes or no", async () => {
    const { agent, user } = await signedInAgent(testApp.app);
    expect((await agent.get("/api/auth/user")).body.notifyPaymentCompleted).toBe(true);
    expect((await agent.put("/api/account/notifications").send({ paymentCompleted: false }).expect(200)).body.notifyPaymentCompleted).toBe(false);
    expect((await accountRow(user.id)).notifyPaymentCompleted).toBe(false);
    await agent.put("/api/account/notifications").send({ paymentCompleted: "no" }).expect(400);
    await agent.put("/api/account/notifications").send({}).expect(400);
    expect((await accountRow(user.id)).notifyPaymentCompleted).toBe(false);
  });
});

describe("PUT /api/account/e-reader-email (docs/product.md#send-to-e-reader)", () => {
  it("sets the address books are mailed to, shows it on the account, and clears it with an empty value or null", async () => {
    const { agent, user } = await signedInAgent(testApp.app);
    expect((await agent.get("/api/auth/user")).body.eReaderEmail).toBeNull();
    const set = await agent.put("/api/account/e-reader-email").send({ eReaderEmail: "ana_42@kindle.com" }).expect(200);
    expect(set.body).toMatchObject({ id: user.id, eReaderEmail: "ana_42@kindle.com" });
    expect((await agent.get("/api/auth/user")).body.eReaderEmail).toBe("ana_42@kindle.com");
    expect((await agent.put("/api/account/e-reader-email").send({ eReaderEmail: "" }).expect(200)).body.eReaderEmail).toBeNull();
    await agent.put("/api/account/e-reader-email").send({ eReaderEmail: "ana@pbsync.com" }).expect(200);
    await agent.put("/api/account/e-reader-email").send({ eReaderEmail: null }).expect(200);
    expect((await accountRow(user.id)).eReaderEmail).toBeNull();
  });

  it("refuses what is not an e-mail address by the account e-mail's rules with a 400 naming the field, changing nothing", async () => {
    const { agent, user } = await signedInAgent(testApp.app);
    await agent.put("/api/account/e-reader-email").send({ eReaderEmail: "ana@kindle.com" }).expect(200);
    for (const [eReaderEmail, key] of [
      ["ana.kindle.com", "validation.emailInvalid"],
      ["ana@kindle", "validation.emailInvalid"],
      ["Ana <ana@kindle.com>", "validation.emailInvalid"],
      [`${"a".repeat(250)}@kindle.com`, "validation.emailMax"],
    ] as const) {
      const refused = await agent.put("/api/account/e-reader-email").send({ eReaderEmail }).expect(400);
      expect(refused.body).toMatchObject({ code: "validation_failed", fields: { eReaderEmail: key } });
    }
    for (const body of [{}, { eReaderEmail: 42 }, { eReaderEmail: ["ana@kindle.com"] }]) {
      const refused = await agent.put("/api/account/e-reader-email").send(body).expect(400);
      expect(Object.keys(refused.body.fields as object)).toEqual(["eReaderEmail"]);
    }
    expect((await accountRow(user.id)).eReaderEmail).toBe("ana@kindle.com");
    await request(testApp.app).put("/api/account/e-reader-email").send({ eReaderEmail: "ana@kindle.com" }).expect(401);
  });
});

/** An author with one book, read and rated by a reader (whose download was counted), and one payment owed. */
async function authorWithHistory({ withWallet }: { withWallet: boolean }) {
  const author = await signedInAgent(testApp.app);
  const wallet = withWallet ? await connectProvenWallet(author.agent) : null;
  const bookId = (await sendBookForm(author.agent.post("/api/books"), { title: "Libro para exportar", coverImage: null }).expect(201)).body.id as number;
  await author.agent.post("/api/e-reader-keys").send({ name: "Kobo" }).expect(201);
  await author.agent.put("/api/account/e-reader-email").send({ eReaderEmail: "author@kindle.com" }).expect(200);
  const reader = await signedInAgent(testApp.app);
  await reader.agent.post(`/api/books/${bookId}/download`).set("X-Forwarded-For", "198.51.100.7").expect(200);
  await reader.agent.post("/rate").send({ bookId, userId: reader.user.id, rating: 4 }).expect(201);
  await db().insert(payments).values({ bookId, authorId: author.user.id, amount: "1.00", idempotencyKey: `settings-owed-${bookId}` });
  return { author, reader, bookId, wallet };
}

describe("GET /api/account/export", () => {
  it("hands over the profile, books, ratings, books taken, counted downloads and payments as a JSON file, without any secret", async () => {
    const { author, reader, bookId } = await authorWithHistory({ withWallet: true });
    const response = await author.agent.get("/api/account/export").expect(200);
    expect(response.headers["content-disposition"]).toMatch(/^attachment; filename="?plume-.+-\d{4}-\d{2}-\d{2}\.json"?$/);
    expect(response.headers["cache-control"]).toBe("no-store");
    const data = JSON.parse(response.text) as Record<string, unknown>;
    expect(data).toMatchObject({
      format: "plume-account-export",
      version: 1,
      profile: { id: author.user.id, username: author.account.username, email: author.account.email, walletAddress: expect.stringMatching(/^0x/), eReaderEmail: "author@kindle.com" },
      books: [{ id: bookId, title: "Libro para exportar", downloadCount: 1, ratingCount: 1, deletedAt: null }],
      countedDownloadsOfMyBooks: [{ bookId, channel: "download" }],
      payments: [{ bookId, amount: "1.00", status: "pending" }],
      eReaderKeys: [{ name: "Kobo", revokedAt: null }],
      ratingsGiven: [],
    });
    expect(response.text).not.toMatch(/scrypt|keyHash|key_hash|password/i);
    // Who read the book is the reader's data, not the author's.
    expect(response.text).not.toContain(reader.user.id);
    expect(response.text).not.toContain("198.51.100.7");

    const readerExport = JSON.parse((await reader.agent.get("/api/account/export").expect(200)).text) as Record<string, unknown>;
    expect(readerExport).toMatchObject({ ratingsGiven: [{ bookId, rating: 4 }], booksTaken: [{ bookId, bookTitle: "Libro para exportar", channel: "download" }] });
  });
});

describe("deleting the account", () => {
  it("first tells what it would do: books withdrawn, payments owed and the wallet they would go to", async () => {
    const { author, wallet } = await authorWithHistory({ withWallet: true });
    const preview = (await author.agent.get("/api/account/deletion-preview").expect(200)).body;
    expect(preview).toEqual({ books: 1, owedPayments: 1, owedAmount: "1.00", walletAddress: wallet });
  });

  it("with a wrong password changes nothing", async () => {
    const { author, bookId } = await authorWithHistory({ withWallet: false });
    const refused = await author.agent.delete("/api/account").send({ currentPassword: "wrong-wrong" }).expect(400);
    expect(refused.body.code).toBe("wrong_password");
    await author.agent.delete("/api/account").send({}).expect(400);
    expect(await sessionAccount(author.agent.get("/api/auth/user"))).not.toBeNull();
    expect(await accountRow(author.user.id)).toMatchObject({ deletedAt: null, email: author.account.email });
    await request(testApp.app).get(`/api/books/${bookId}`).expect(200);
  });

  it("withdraws the books and removes their files, deletes ratings, keys and sessions, keeps payments without personal data, and frees the username", async () => {
    const { author, reader, bookId, wallet } = await authorWithHistory({ withWallet: true });
    const [book] = await db().select().from(books).where(eq(books.id, bookId));
    const otherBrowser = await anotherBrowser(author.account.username, author.account.password, "Mozilla/5.0 (Android)");
    // The author had also rated and read someone else's book.
    const rated = (await sendBookForm(reader.agent.post("/api/books"), { title: "Otro libro", coverImage: null }).expect(201)).body.id as number;
    await author.agent.post(`/api/books/${rated}/read`).expect(200);
    await author.agent.put(`/api/books/${rated}/read/position`).send({ page: 1 }).expect(204);
    await author.agent.post("/rate").send({ bookId: rated, userId: author.user.id, rating: 2 }).expect(201);
    await testApp.coversDone();

    const deleted = await author.agent.delete("/api/account").send({ currentPassword: author.account.password }).expect(204);
    expect(String(deleted.headers["set-cookie"])).toMatch(/Expires=Thu, 01 Jan 1970/);

    expect(await sessionAccount(author.agent.get("/api/auth/user"))).toBeNull();
    expect(await sessionAccount(otherBrowser.get("/api/auth/user"))).toBeNull();
    await signIn(author.account.username, author.account.password).expect(401);
    await signIn(author.account.email, author.account.password).expect(401);
    await request(testApp.app).get(`/api/books/${bookId}`).expect(404);
    await request(testApp.app).get(`/api/authors/${author.user.id}`).expect(404);
    expect(existsSync(join(testApp.uploadsDir, "books", book!.filePath))).toBe(false);

    const row = await accountRow(author.user.id);
    expect(row).toMatchObject({ email: null, eReaderEmail: null, firstName: null, lastName: null, emailVerifiedAt: null, walletAddress: wallet, deletedAt: expect.any(Date) });
    expect(row.username).not.toContain(author.account.username);
    expect(await db().select().from(reviews).where(eq(reviews.userId, author.user.id))).toEqual([]);
    expect((await db().select().from(books).where(eq(books.id, rated)))[0]).toMatchObject({ reviewCount: 0, rating: "0.00" });
    expect(await db().select().from(readingPositions).where(eq(readingPositions.userId, author.user.id))).toEqual([]);
    expect(await db().select().from(eReaderKeys).where(eq(eReaderKeys.userId, author.user.id))).toEqual([]);
    expect((await db().select().from(downloads).where(eq(downloads.userId, author.user.id))).every((row) => row.ipAddress === null)).toBe(true);
    // The payment still owed goes to the proven wallet, kept on the closed account for it.
    expect(await db().select().from(payments).where(eq(payments.authorId, author.user.id))).toEqual([expect.objectContaining({ status: "pending" })]);
    // The reader's download of the withdrawn book still explains its count.
    expect(await db().select().from(downloads).where(eq(downloads.bookId, bookId))).toHaveLength(1);

    await request(testApp.app).post("/api/auth/register").send({ ...newAccount(), username: author.account.username, email: author.account.email }).expect(201);
  });

  it("forfeits the payments still owed when no wallet was ever connected, and keeps no wallet", async () => {
    const { author } = await authorWithHistory({ withWallet: false });
    expect((await author.agent.get("/api/account/deletion-preview")).body).toMatchObject({ owedPayments: 1, walletAddress: null });
    await author.agent.delete("/api/account").send({ currentPassword: author.account.password }).expect(204);
    expect(await db().select().from(payments).where(eq(payments.authorId, author.user.id))).toEqual([
      expect.objectContaining({ status: "failed", lastError: FORFEITED_REASON }),
    ]);
    expect((await accountRow(author.user.id)).walletAddress).toBeNull();
  });
});
