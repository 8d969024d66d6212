import { eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminPage, BookDiagnostics, PaymentDiagnostics } from "../../shared/admin.ts";
import type { AuthorPayment } from "../../shared/wallet.ts";
import { localChainSettings } from "../chain/chain-connection.ts";
import { type LocalChain, startLocalChain } from "../chain/local-chain.ts";
import { PmeChain } from "../chain/pme-chain.ts";
import type { ChainSettings } from "../config.ts";
import { notices, payments } from "../db/schema.ts";
import type { NoticeGroup } from "../../shared/notices.ts";
import { copyrightStrikesOf } from "../moderation/appeals-repository.ts";
import { sendBookForm } from "../../test/helpers/book-fixtures.ts";
import { freePort } from "../../test/helpers/free-port.ts";
import { mailsTo } from "../../test/helpers/mail-files.ts";
import { TEST_ADMIN_EMAIL, type TestApp, createTestApp, signedInAgent } from "../../test/helpers/test-app.ts";
import { connectProvenWallet } from "../../test/helpers/wallet-proof.ts";
import { hasPayoutWork, listDue, storeSignedBatch } from "./payments-repository.ts";
import { PayoutWorker } from "./payout-worker.ts";

/*
 * Payouts held with a reason (docs/decisions/0090, docs/product.md#rewards): a book hidden, or with an
 * open copyright or illegal-content notice, keeps its owed payments from the payout worker; the hold's
 * end lets them go out once; a removal cancels what was not sent, and cannot call back what was.
 */

type Agent = Awaited<ReturnType<typeof signedInAgent>>;
let chain: LocalChain;
let settings: ChainSettings;
let testApp: TestApp;
let admin: Agent;
let readers: Agent[];
let nextAddress = 1;

beforeAll(async () => {
  chain = await startLocalChain(await freePort());
  settings = localChainSettings(chain);
  testApp = await createTestApp({ TRUST_PROXY: "loopback", RATE_LIMIT_NOTICES_PER_IP: "100" });
  admin = await signedInAgent(testApp.app, { email: TEST_ADMIN_EMAIL });
  await testApp.proveEmail(TEST_ADMIN_EMAIL);
  readers = await Promise.all(Array.from({ length: 20 }, () => signedInAgent(testApp.app)));
}, 120_000);
afterAll(async () => {
  await testApp?.close();
  await chain?.stop();
});

const FACTS = "A notice says this book is a copy of a published novel.";
const db = () => testApp.database.db;
const paymentsOf = (authorId: string) => db().select().from(payments).where(eq(payments.authorId, authorId));
const noticeRow = async (id: number) => (await db().select().from(notices).where(eq(notices.id, id)))[0]!;
/** The newest mail to the author: the statement of reasons of the last decision. */
const lastStatementTo = async (author: Agent) => (await mailsTo(testApp.mailDir, author.account.email!))[0]!;

/** An author with a wallet whose new book has just reached milestone 1: one payment owed and due. */
async function bookOwedOneMilestone(title = "El faro robado") {
  const author = await signedInAgent(testApp.app, { firstName: "Irene", lastName: "Copista" });
  await connectProvenWallet(author.agent);
  const bookId = (await sendBookForm(author.agent.post("/api/books"), { title, coverImage: null }).expect(201)).body.id as number;
  await Promise.all(readers.map((reader, index) => reader.agent.post(`/api/books/${bookId}/download`).set("X-Forwarded-For", `203.0.113.${index + 1}`).expect(200)));
  const [payment] = await paymentsOf(author.user.id);
  expect(payment).toMatchObject({ status: "pending", payoutStage: "queued" });
  return { author, bookId, paymentId: payment!.id };
}

const decide = (bookId: number, body: object) => admin.agent.post(`/api/admin/books/${bookId}/moderation`).send(body);
const hide = (bookId: number) => decide(bookId, { action: "hide", ground: "terms-not-own-work", basis: "notice", facts: FACTS }).expect(201);
const restore = (bookId: number) => decide(bookId, { action: "restore", basis: "notice", facts: "The author showed the contract with the publisher." }).expect(201);
const remove = (bookId: number) => decide(bookId, { action: "remove", ground: "law-copyright", basis: "notice", facts: FACTS }).expect(201);

function report(bookId: number, category: "copyright" | "illegal" | "spam") {
  const copyright = category === "copyright" ? { originalWork: "El faro, novela, 2019", rightsHolder: "Editorial Marea", sworn: true } : {};
  return request(testApp.app)
    .post("/api/notices")
    .set("X-Forwarded-For", `198.51.100.${nextAddress++}`)
    .send({
      category,
      bookId,
      url: `https://plume.example/books/${bookId}`,
      explanation: "Every chapter of this book is copied from a novel published in 2019.",
      name: "Ana Lectora",
      email: `ana.${nextAddress}@example.test`,
      goodFaith: true,
      ...copyright,
    })
    .expect(201)
    .then((response) => response.body.id as number);
}

/** One round of a worker process that then stops, as a server's would be. */
async function round(pmeChain: PmeChain = new PmeChain(settings)): Promise<number> {
  const worker = new PayoutWorker(db(), pmeChain);
  try {
    return await worker.tick();
  } finally {
    await worker.stop();
  }
}

async function timelineOf(author: Agent, paymentId: number): Promise<AuthorPayment> {
  const listed = (await author.agent.get(`/api/authors/${author.user.id}/payments`).expect(200)).body as AuthorPayment[];
  return listed.find((payment) => payment.id === paymentId)!;
}

/** A chain whose broadcasts are lost: a signed transaction stays in flight, as after a crash just before sending. */
class LostBroadcastChain extends PmeChain {
  override broadcast(): never {
    throw new Error("connection lost before broadcast");
  }
}

describe("payments held while their book is under review", () => {
  it("keeps a hidden book's due payment from a worker round, says why, and sends it once after the restore", async () => {
    const { author, bookId, paymentId } = await bookOwedOneMilestone();
    const hidden = (await hide(bookId)).body as { id: number };
    // The statement of reasons says what becomes of the payments (EU Digital Services Act, Art. 17).
    expect((await lastStatementTo(author)).text).toContain("is held, never sent, while the review lasts");

    expect(await round()).toBe(0);
    expect((await paymentsOf(author.user.id))[0]).toMatchObject({ status: "pending", payoutStage: "queued", payoutTransactionId: null, attempts: 0 });
    const held = await timelineOf(author, paymentId);
    expect(held.waiting).toEqual({ reason: "under-review", since: expect.any(String), because: { kind: "decision", decisionId: hidden.id, action: "hide", facts: FACTS } });

    const diagnostics = (await admin.agent.get("/api/admin/payment-diagnostics").expect(200)).body as PaymentDiagnostics;
    expect(diagnostics.queue.held.map((payment) => payment.id)).toContain(paymentId);
    expect(diagnostics.queue.pending.map((payment) => payment.id)).not.toContain(paymentId);
    expect(((await admin.agent.get("/api/admin/books").expect(200)).body as AdminPage<BookDiagnostics>).items.find((book) => book.bookId === bookId)).toMatchObject({ moderationState: "hidden", paidAmount: "0", cancelledAmount: "0" });
    // It waits for a review, not for the payouts: the SLA's oldest owed payment leaves it out.
    expect((await admin.agent.get("/api/admin/payout-sla").expect(200)).body).toMatchObject({ oldestOwedAt: null });

    await restore(bookId);
    expect(await round()).toBe(1);
    expect(await round()).toBe(0);
    const [sent] = await paymentsOf(author.user.id);
    expect(sent).toMatchObject({ status: "completed", attempts: 1 });
    expect((await timelineOf(author, paymentId)).waiting).toBeNull();
  });

  it("holds an account's books while it is suspended, and lets them go out once it is reinstated", async () => {
    const { author, paymentId } = await bookOwedOneMilestone("Cuentos del puerto");
    const suspension = await admin.agent
      .post(`/api/admin/users/${author.user.id}/moderation`)
      .send({ action: "suspend", ground: "terms-not-own-work", basis: "own-initiative", facts: FACTS })
      .expect(201);
    expect(await round()).toBe(0);
    const payment = (await db().select().from(payments).where(eq(payments.id, paymentId)))[0]!;
    expect(payment).toMatchObject({ status: "pending", payoutStage: "queued" });
    const listed = (await admin.agent.get(`/api/authors/${author.user.id}/payments`).expect(200)).body as AuthorPayment[];
    expect(listed[0]!.waiting).toMatchObject({ reason: "under-review", because: { kind: "decision", decisionId: suspension.body.id, action: "suspend" } });

    await admin.agent.post(`/api/admin/users/${author.user.id}/moderation`).send({ action: "reinstate", basis: "own-initiative", facts: "The account showed its rights." }).expect(201);
    expect(await round()).toBe(1);
    expect((await db().select().from(payments).where(eq(payments.id, paymentId)))[0]!.status).toBe("completed");
  });

  it("holds a book with an open copyright notice, never for a spam one, and releases it once the notice is dismissed", async () => {
    const { author, bookId, paymentId } = await bookOwedOneMilestone("Mareas");
    const spam = await report(bookId, "spam");
    const copyright = await report(bookId, "copyright");
    // Still listed and downloadable: only the payment waits.
    await request(testApp.app).get(`/api/books/${bookId}`).expect(200);

    expect(await round()).toBe(0);
    const held = await timelineOf(author, paymentId);
    expect(held.waiting).toMatchObject({ reason: "under-review", because: { kind: "notice", category: "copyright" } });

    await admin.agent.post(`/api/admin/notices/${copyright}/dismiss`).send({ facts: "The rights holder's own site credits this author." }).expect(200);
    // The spam notice stays open and holds nothing.
    expect(spam).toBeGreaterThan(0);
    expect(await round()).toBe(1);
    expect((await paymentsOf(author.user.id))[0]).toMatchObject({ status: "completed", attempts: 1 });
  });

  it("holds on an illegal-content notice until the book is restored after review", async () => {
    const { author, bookId } = await bookOwedOneMilestone("Noches");
    await report(bookId, "illegal");
    await hide(bookId);
    expect(await round()).toBe(0);
    await restore(bookId);
    expect(await round()).toBe(1);
    expect((await paymentsOf(author.user.id))[0]!.status).toBe("completed");
  });

  it("leaves an idle round idle when the only payments owed are held", async () => {
    const { bookId } = await bookOwedOneMilestone("En espera");
    await hide(bookId);
    // Every other test's payment is settled or held: nothing in the database is work.
    expect(await hasPayoutWork(db(), new Date())).toBe(false);
    expect(await listDue(db(), 100, new Date())).toEqual([]);
    await restore(bookId);
    expect(await hasPayoutWork(db(), new Date())).toBe(true);
    expect(await round()).toBe(1);
  });

  it("stores no batch with a payment whose book came to hold it after the round listed it", async () => {
    const { author, bookId, paymentId } = await bookOwedOneMilestone("Carrera");
    const [due] = await listDue(db(), 100, new Date());
    expect(due!.id).toBe(paymentId);
    await hide(bookId);
    const identity = await new PmeChain(settings).identity();
    expect(await storeSignedBatch(db(), { nonce: 10_000, raw: "0x01", hash: `0x${"ab".repeat(32)}`, payments: [{ paymentId, wallet: due!.wallet }] }, identity)).toBeNull();
    expect((await paymentsOf(author.user.id))[0]).toMatchObject({ status: "pending", payoutStage: "queued", payoutTransactionId: null });
    await restore(bookId);
    expect(await round()).toBe(1);
  });
});

describe("a reported book its author deletes (docs/decisions/0112)", () => {
  it("keeps its notices open and its payment held, shows it deleted in the queue, and can only be removed, which cancels the payment and counts as a strike", async () => {
    const { author, bookId, paymentId } = await bookOwedOneMilestone("Borrado a tiempo");
    const notice = await report(bookId, "copyright");
    await author.agent.delete(`/api/books/${bookId}`).expect(204);

    // Deleting settles nothing: the payment waits for the admin as it did, and the notice is still theirs to decide.
    expect(await round()).toBe(0);
    expect((await timelineOf(author, paymentId)).waiting).toMatchObject({ reason: "under-review", because: { kind: "notice", category: "copyright" } });
    const queue = (await admin.agent.get("/api/admin/notices").expect(200)).body as NoticeGroup[];
    const group = queue.find((entry) => entry.subject.kind === "book" && entry.subject.bookId === bookId)!;
    expect(group.subject).toMatchObject({ kind: "book", title: "Borrado a tiempo", moderationState: null, deletedAt: expect.any(String) });
    expect(group.notices.map((entry) => entry.id)).toEqual([notice]);

    // It is in no list to hide it from or bring back to.
    for (const body of [
      { action: "hide", ground: "terms-not-own-work", basis: "notice", facts: FACTS },
      { action: "restore", basis: "notice", facts: "The author showed the contract with the publisher." },
    ]) {
      expect((await decide(bookId, body).expect(409)).body).toMatchObject({ code: "book_deleted", message: expect.stringContaining("deleted") });
    }
    const removal = (await remove(bookId)).body as { id: number };
    expect((await paymentsOf(author.user.id))[0]).toMatchObject({ status: "cancelled", cancelledByDecisionId: removal.id });
    expect((await admin.agent.get("/api/admin/notices").expect(200)).body as NoticeGroup[]).not.toContainEqual(expect.objectContaining({ subject: expect.objectContaining({ bookId }) }));
    const [told] = await mailsTo(testApp.mailDir, (await noticeRow(notice)).reporterEmail!);
    expect(told!.subject).toContain("Borrado a tiempo");
    expect(await copyrightStrikesOf(db(), author.user.id)).toEqual([{ bookId, title: "Borrado a tiempo" }]);
    // Once removed, there is nothing left to decide about it.
    expect((await decide(bookId, { action: "remove", ground: "law-copyright", basis: "notice", facts: FACTS }).expect(409)).body.code).toBe("moderation_conflict");
  });
});

describe("payments cancelled by a removal", () => {
  it("cancels a removed book's unsent payment with the removal's decision, never sends it while the removal stands, and sends it once when a restore lifts the removal", async () => {
    const { author, bookId, paymentId } = await bookOwedOneMilestone("Copia fiel");
    await hide(bookId);
    const removal = (await remove(bookId)).body as { id: number };
    expect((await lastStatementTo(author)).text).toContain("what this book had earned and you had not yet received, 1 PME");

    const [cancelled] = await paymentsOf(author.user.id);
    expect(cancelled).toMatchObject({ status: "cancelled", cancelledByDecisionId: removal.id, payoutStage: "queued", payoutTransactionId: null });
    const timeline = await timelineOf(author, paymentId);
    expect(timeline).toMatchObject({ status: "cancelled", waiting: null, cancellation: { decisionId: removal.id, at: expect.any(String), facts: FACTS } });

    const diagnostics = (await admin.agent.get("/api/admin/payment-diagnostics").expect(200)).body as PaymentDiagnostics;
    expect(diagnostics.queue.cancelled.find((payment) => payment.id === paymentId)).toMatchObject({ cancellation: { decisionId: removal.id, facts: FACTS } });
    expect(((await admin.agent.get("/api/admin/books").expect(200)).body as AdminPage<BookDiagnostics>).items.find((book) => book.bookId === bookId)).toMatchObject({ moderationState: "removed-legal", paidAmount: "0", cancelledAmount: "1.00" });

    expect(await hasPayoutWork(db(), new Date())).toBe(false);
    expect(await round()).toBe(0);
    await restore(bookId);
    expect((await lastStatementTo(author)).text).toContain("the 1 PME that the removal had cancelled are owed to you again");
    expect((await paymentsOf(author.user.id))[0]).toMatchObject({ status: "pending", cancelledByDecisionId: null });
    expect(await round()).toBe(1);
    expect(await round()).toBe(0);
  });

  it("cannot call back a payment already in flight: the removal leaves it, and it completes; the admin sees it paid", async () => {
    const { author, bookId, paymentId } = await bookOwedOneMilestone("Ya enviado");
    // The round signs and stores the batch, then loses its broadcast: the payment is in flight.
    await expect(round(new LostBroadcastChain(settings))).rejects.toThrow("connection lost");
    expect((await paymentsOf(author.user.id))[0]).toMatchObject({ status: "pending", payoutStage: "signed" });

    await remove(bookId);
    // Nothing was cancelled: the statement does not say so.
    expect((await lastStatementTo(author)).text).not.toContain("Payments: cancelled");
    const [inFlight] = await paymentsOf(author.user.id);
    expect(inFlight).toMatchObject({ status: "pending", payoutStage: "signed", cancelledByDecisionId: null });
    expect((await timelineOf(author, paymentId)).waiting).toEqual({ reason: "sending" });

    expect(await round()).toBe(0);
    const [paid] = await paymentsOf(author.user.id);
    expect(paid).toMatchObject({ status: "completed", attempts: 1, cancelledByDecisionId: null });
    expect(((await admin.agent.get("/api/admin/books").expect(200)).body as AdminPage<BookDiagnostics>).items.find((book) => book.bookId === bookId)).toMatchObject({ moderationState: "removed-legal", paidAmount: "1.00", cancelledAmount: "0" });
  });

  it("cancels a payment in flight at the removal that comes back to the queue (signed for a chain that is gone)", async () => {
    const { author, bookId, paymentId } = await bookOwedOneMilestone("Otra cadena");
    const [due] = await listDue(db(), 100, new Date());
    const gone = { chainId: 999_999, genesisHash: `0x${"cd".repeat(32)}`, tokenAddress: `0x${"ef".repeat(20)}` };
    expect(await storeSignedBatch(db(), { nonce: 0, raw: "0x02", hash: `0x${"12".repeat(32)}`, payments: [{ paymentId, wallet: due!.wallet }] }, gone)).not.toBeNull();
    const removal = (await remove(bookId)).body as { id: number };
    expect((await paymentsOf(author.user.id))[0]).toMatchObject({ status: "pending", payoutStage: "signed" });

    expect(await round()).toBe(0);
    expect((await paymentsOf(author.user.id))[0]).toMatchObject({ status: "cancelled", cancelledByDecisionId: removal.id, payoutTransactionId: null });
  });
});
