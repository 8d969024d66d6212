import { join } from "node:path";
import { count, eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_TEXTS } from "../../shared/locales/all-texts.ts";
import { filesUnder, fixture, sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { mailsTo } from "../../test/helpers/mail-files.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { proseBook, textDocx, textPdf } from "../../test/helpers/text-books.ts";
import { bookFingerprintBands, bookFingerprints, books, notices } from "../db/schema.ts";
import { type FingerprintOutcome, fillFingerprints } from "./fingerprints-fill.ts";
import { BAND_COUNT } from "./text-fingerprints.ts";

type Agent = Awaited<ReturnType<typeof signedInAgent>>;
let testApp: TestApp;
let admin: Agent;
let original: Agent;
let copier: Agent;

beforeAll(async () => {
  testApp = await createTestApp({ COPY_CHECKS: "true" });
  admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL });
  await testApp.proveEmail(TEST_ADMIN_EMAIL);
  original = await signedInAgent(testApp.app, { firstName: "Olga", lastName: "Original" });
  copier = await signedInAgent(testApp.app, { firstName: "Carl", lastName: "Copier" });
});
afterAll(async () => {
  await testApp?.close();
});

const upload = (agent: Agent, title: string, file: string | { buffer: Buffer; name: string }) =>
  sendBookForm(agent.agent.post("/api/books"), { title, file, coverImage: null });

const storedBooks = () => filesUnder(join(testApp.uploadsDir, "books"));
const rowCount = async () => (await testApp.database.db.select({ n: count() }).from(books))[0]!.n;

/** A generated book of its own (its seed), as a PDF and as the DOCX of the same paragraphs. */
function generated(seed: number) {
  const paragraphs = proseBook(seed, { chapters: 3, paragraphsPerChapter: 4 }).flat();
  return { pdf: { buffer: textPdf(paragraphs), name: `book-${seed}.pdf` }, docx: { buffer: textDocx(paragraphs), name: `book-${seed}.docx` }, paragraphs };
}

describe("an exact copy of another account's book", () => {
  it("is refused with 409 duplicate_file, leaving no file and no row", async () => {
    const book = generated(101);
    await upload(original, "The original", book.pdf).expect(201);
    const [filesBefore, rowsBefore] = [storedBooks(), await rowCount()];
    const refused = await upload(copier, "Not mine at all", book.pdf).expect(409);
    expect(refused.body).toMatchObject({ code: "duplicate_file", fields: { file: "upload.fileDuplicate" } });
    expect(ALL_TEXTS.en.upload.fileDuplicate).toContain("another account");
    expect(storedBooks()).toEqual(filesBefore);
    expect(await rowCount()).toBe(rowsBefore);
    // Nothing left in the temporary folder either, once the response has closed.
    await expect.poll(() => filesUnder(join(testApp.uploadsDir, "tmp"))).toEqual([]);
  });

  it("is refused when the original was removed by moderation: a removed book's file does not come back", async () => {
    const book = generated(102);
    const id = (await upload(original, "Soon removed", book.pdf).expect(201)).body.id as number;
    await admin.agent
      .post(`/api/admin/books/${id}/moderation`)
      .send({ action: "remove", ground: "law-copyright", basis: "notice", facts: "The rights holder showed this book is theirs." })
      .expect(201);
    expect((await upload(copier, "Back again", book.pdf).expect(409)).body.code).toBe("duplicate_file");
  });

  it("is refused to its own author too, with a code and message of its own naming their book", async () => {
    const book = generated(103);
    const id = (await upload(original, "Mine once", book.pdf).expect(201)).body.id as number;
    const refused = await upload(original, "Mine twice", book.pdf).expect(409);
    expect(refused.body.code).toBe("duplicate_own_file");
    expect(refused.body.message).toContain(`book ${id}`);
  });

  it("is accepted once the original's author deleted their book", async () => {
    const book = generated(104);
    const id = (await upload(original, "Withdrawn", book.pdf).expect(201)).body.id as number;
    await original.agent.delete(`/api/books/${id}`).expect(204);
    const taken = await upload(copier, "Taken up", book.pdf).expect(201);
    expect(taken.body.moderationState ?? null).toBeNull();
  });
});

describe("the same text under another name", () => {
  it("publishes the DOCX of a published PDF hidden: Plume's notice in the admin's queue, the statement of reasons to its author", async () => {
    const pdf = (await upload(original, "El jardín de las mañanas", fixture("book.pdf")).expect(201)).body as { id: number };
    const docx = (await upload(copier, "A garden of mornings", fixture("book.docx")).expect(201)).body as { id: number; moderationState?: string };
    // The answer says so: the upload screen tells the author the book is under review.
    expect(docx.moderationState).toBe("hidden");

    const [row] = await testApp.database.db.select().from(books).where(eq(books.id, docx.id));
    expect(row!.moderationState).toBe("hidden");
    // Gone for the public, as any hidden book.
    await request(testApp.app).get(`/api/books/${docx.id}`).expect(404);

    const queue = (await admin.agent.get("/api/admin/notices").expect(200)).body as Array<{ subject: { bookId?: number }; notices: Array<Record<string, unknown>> }>;
    const group = queue.find((entry) => entry.subject.bookId === docx.id);
    expect(group?.notices).toEqual([
      expect.objectContaining({ source: "automated", category: "copyright", reporterName: null, reporterEmail: null, sworn: false, originalWork: expect.stringContaining(`/books/${pdf.id}`) }),
    ]);

    const decisions = (await copier.agent.get("/api/moderation/decisions").expect(200)).body as Array<Record<string, unknown>>;
    expect(decisions[0]).toMatchObject({ action: "hide", bookId: docx.id, basis: "automated", ground: "terms-not-own-work" });
    expect(decisions[0]!.facts).toContain("“El jardín de las mañanas”");
    const [mail] = await mailsTo(testApp.mailDir, copier.account.email);
    expect(mail?.subject).toContain("A garden of mornings");
    expect(mail?.text).toContain(ALL_TEXTS.en.moderation.bases.automated);

    // The original's author is not touched.
    const [kept] = await testApp.database.db.select().from(books).where(eq(books.id, pdf.id));
    expect(kept!.moderationState).toBeNull();

    // The admin compares, finds it fine and restores it: Plume's notice is settled, with no one to mail.
    await admin.agent
      .post(`/api/admin/books/${docx.id}/moderation`)
      .send({ action: "restore", basis: "automated", facts: "The author showed they hold the rights to both editions." })
      .expect(201);
    const [settled] = await testApp.database.db.select().from(notices).where(eq(notices.bookId, docx.id));
    expect(settled).toMatchObject({ source: "automated", status: "dismissed" });
    await request(testApp.app).get(`/api/books/${docx.id}`).expect(200);
  });

  it("catches a re-saved PDF (other bytes, same text) and a changed title and chapter order", async () => {
    const book = generated(105);
    await upload(original, "Chapters in order", book.pdf).expect(201);
    const reordered = [...book.paragraphs.slice(5), ...book.paragraphs.slice(0, 5)];
    const resaved = await upload(copier, "Chapters shuffled", { buffer: textPdf(reordered, { producer: "Another Writer 2.0", lineWidth: 80 }), name: "shuffled.pdf" }).expect(201);
    const [row] = await testApp.database.db.select().from(books).where(eq(books.id, resaved.body.id as number));
    expect(row!.moderationState).toBe("hidden");
  });

  it("publishes a genuinely different book normally, with its fingerprint and bands kept", async () => {
    await upload(original, "One story", generated(106).pdf).expect(201);
    const other = (await upload(copier, "Another story", generated(107).docx).expect(201)).body as { id: number; moderationState?: string | null };
    const [row] = await testApp.database.db.select().from(books).where(eq(books.id, other.id));
    expect(row!.moderationState).toBeNull();
    expect(row!.fileSha256).toMatch(/^[0-9a-f]{64}$/);
    const [fingerprint] = await testApp.database.db.select().from(bookFingerprints).where(eq(bookFingerprints.bookId, other.id));
    expect(fingerprint!.signature).toHaveLength(128);
    const bands = await testApp.database.db.select().from(bookFingerprintBands).where(eq(bookFingerprintBands.bookId, other.id));
    expect(bands).toHaveLength(BAND_COUNT);
    const automated = await testApp.database.db.select().from(notices).where(eq(notices.bookId, other.id));
    expect(automated).toEqual([]);
  });

  it("does not fingerprint a book of too little text, and publishes it", async () => {
    const short = { buffer: textPdf(["A short poem of a dozen words, no more, about the sea."]), name: "poem.pdf" };
    const id = (await upload(original, "A short poem", short).expect(201)).body.id as number;
    const [fingerprint] = await testApp.database.db.select().from(bookFingerprints).where(eq(bookFingerprints.bookId, id));
    expect(fingerprint).toMatchObject({ signature: null, wordCount: 12 });
    // The same words again from another account: no text to compare, so nothing to hide (its bytes differ).
    const again = { buffer: textPdf(["A short poem of a dozen words, no more, about the sea."], { producer: "Elsewhere" }), name: "poem.pdf" };
    const other = (await upload(copier, "The same poem", again).expect(201)).body.id as number;
    const [row] = await testApp.database.db.select().from(books).where(eq(books.id, other));
    expect(row!.moderationState).toBeNull();
  });
});

describe("hostile files with the copy checks on", () => {
  it.each([
    ["hostile/executable-renamed.pdf", 415, "file_invalid_type"],
    ["hostile/empty.pdf", 415, "file_invalid_type"],
    ["hostile/docx-zip-bomb.docx", 422, "document_unpacks_too_large"],
    ["hostile/docx-macro-by-content-type.docx", 422, "document_has_macros"],
  ])("%s is still refused with %i %s, before any text is read", async (name, status, code) => {
    const refused = await upload(copier, "Hostile", fixture(name)).expect(status);
    expect(refused.body.code).toBe(code);
  });

  it("answers a PDF whose text cannot be read without a 5xx; published, it keeps no signature", async () => {
    const answer = await upload(copier, "Header only", fixture("hostile/header-only.pdf"));
    expect(answer.status).toBeLessThan(500);
    if (answer.status === 201) {
      const [fingerprint] = await testApp.database.db.select().from(bookFingerprints).where(eq(bookFingerprints.bookId, answer.body.id as number));
      expect(fingerprint).toMatchObject({ signature: null, wordCount: null });
    }
  });
});

describe("npm run fingerprints:fill", () => {
  it("hashes and fingerprints books uploaded while the checks were off; a near copy of an older book gets Plume's notice and stays listed", async () => {
    const unchecked = testApp.anotherProcess({ COPY_CHECKS: "false" });
    try {
      const book = generated(108);
      const [originalThere, copierThere] = await Promise.all([signInTo(unchecked.app, original), signInTo(unchecked.app, copier)]);
      const first = (await sendBookForm(originalThere.post("/api/books"), { title: "Old original", file: book.pdf, coverImage: null }).expect(201)).body.id as number;
      const second = (await sendBookForm(copierThere.post("/api/books"), { title: "Old copy", file: book.docx, coverImage: null }).expect(201)).body.id as number;
      const outcomes = new Map<number, FingerprintOutcome>();
      const tally = await fillFingerprints({ db: testApp.database.db, store: testApp.store, origin: "http://plume.test" }, (id, _title, outcome) => outcomes.set(id, outcome));
      expect(tally).toMatchObject({ fingerprinted: 2, copies: 1, missing: 0 });
      expect(outcomes.get(first)).toMatchObject({ kind: "done", fingerprinted: true, copyOf: null });
      expect(outcomes.get(second)).toMatchObject({ kind: "done", fingerprinted: true, copyOf: { bookId: first } });
      const [row] = await testApp.database.db.select().from(books).where(eq(books.id, second));
      expect(row!.moderationState).toBeNull();
      expect(row!.fileSha256).toMatch(/^[0-9a-f]{64}$/);
      const [notice] = await testApp.database.db.select().from(notices).where(eq(notices.bookId, second));
      expect(notice).toMatchObject({ source: "automated", status: "open", originalWork: expect.stringContaining(`/books/${first}`) });
      // Run again: nothing left to do.
      expect((await fillFingerprints({ db: testApp.database.db, store: testApp.store, origin: "http://plume.test" }, () => {})).seen).toBe(0);
    } finally {
      unchecked.close();
    }
  });
});

/** The account signed in to another process of the app. */
async function signInTo(app: Parameters<typeof request.agent>[0], { account }: Agent) {
  const there = request.agent(app);
  await there.post("/api/auth/login").send({ username: account.username, password: account.password }).expect(200);
  return there;
}
