import type { AuthorPayment } from "@shared/wallet";
import { defaultScheduler, focusManager, notifyManager } from "@tanstack/react-query";
import { act, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PAYMENT_POLL_FIRST_MS, PAYMENT_POLL_MAX_MS, paymentsRefetchDelay, useAuthorPayments } from "@/features/rewards/use-author-payments";
import { jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

const NOW = Date.parse("2026-11-26T12:00:00.000Z");
const AUTHOR = "5f0c6e2a-7d1b-4a59-9a55-2f4f0f3c1b11";

function payment(id: number, overrides: Partial<AuthorPayment> = {}): AuthorPayment {
  return {
    id,
    amount: "1.00",
    status: "completed",
    triggeredAt: "2026-11-26T11:59:00.000Z",
    sentAt: "2026-11-26T11:59:10.000Z",
    completedAt: "2026-11-26T11:59:30.000Z",
    transactionHash: `0x${"ab".repeat(32)}`,
    bookId: 7,
    bookTitle: "The Lighthouse",
    kind: "milestone",
    milestone: id,
    waiting: null,
    failureReason: null,
    cancellation: null,
    ...overrides,
  };
}

const pending = (id: number, waiting: AuthorPayment["waiting"]) =>
  payment(id, { status: "pending", sentAt: null, completedAt: null, transactionHash: null, waiting });

describe("paymentsRefetchDelay", () => {
  it("never reads again while no payment shown is pending", () => {
    expect(paymentsRefetchDelay(undefined, 0, NOW)).toBe(false);
    expect(paymentsRefetchDelay([], 0, NOW)).toBe(false);
    expect(paymentsRefetchDelay([payment(1), payment(2, { status: "failed", waiting: null })], 0, NOW)).toBe(false);
  });

  it("leaves a payment that waits for a wallet alone: connecting one refreshes the payments", () => {
    expect(paymentsRefetchDelay([pending(1, { reason: "no-wallet" })], 0, NOW)).toBe(false);
  });

  it("reads a payment on its way again after a second, then twice as long after each unchanged read, up to 30 s", () => {
    const onItsWay = [pending(1, { reason: "sending" })];
    expect([0, 1, 2, 3, 4, 5, 12].map((unchanged) => paymentsRefetchDelay(onItsWay, unchanged, NOW))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, PAYMENT_POLL_MAX_MS, PAYMENT_POLL_MAX_MS,
    ]);
    expect(paymentsRefetchDelay([payment(2), pending(1, { reason: "finality" })], 0, NOW)).toBe(PAYMENT_POLL_FIRST_MS);
  });

  it("reads a held or postponed payment again when its wait ends, and backs off once that time has passed", () => {
    const held = [pending(1, { reason: "hold", until: new Date(NOW + 3_600_000).toISOString() })];
    expect(paymentsRefetchDelay(held, 0, NOW)).toBe(3_600_000);
    const retryPassed = [pending(1, { reason: "retry", until: new Date(NOW - 5_000).toISOString() })];
    expect(paymentsRefetchDelay(retryPassed, 0, NOW)).toBe(PAYMENT_POLL_FIRST_MS);
    expect(paymentsRefetchDelay(retryPassed, 3, NOW)).toBe(8_000);
    // The soonest of several waits wins.
    expect(paymentsRefetchDelay([...held, pending(2, { reason: "sending" })], 0, NOW)).toBe(PAYMENT_POLL_FIRST_MS);
  });

  it("reads a payment held under review every 30 s: only the admin's decision ends the hold", () => {
    const underReview = [pending(1, { reason: "under-review", since: new Date(NOW).toISOString(), because: { kind: "notice", category: "copyright" } })];
    expect(paymentsRefetchDelay(underReview, 0, NOW)).toBe(PAYMENT_POLL_MAX_MS);
    expect(paymentsRefetchDelay([...underReview, pending(2, { reason: "sending" })], 0, NOW)).toBe(PAYMENT_POLL_FIRST_MS);
  });

  it("looks only at the five payments the dashboard shows", () => {
    const shown = [1, 2, 3, 4, 5].map((id) => payment(id));
    expect(paymentsRefetchDelay([...shown, pending(6, { reason: "sending" })], 0, NOW)).toBe(false);
  });
});

function Statuses() {
  const { data } = useAuthorPayments(AUTHOR);
  return <p data-testid="statuses">{data?.map(({ status }) => status).join(",")}</p>;
}

/** The server's answers to GET /api/authors/:id/payments, one per read; the last one repeats. */
function mockPayments(answers: AuthorPayment[][]) {
  let reads = 0;
  const fetchMock = mockFetch((url) => {
    if (url !== `/api/authors/${AUTHOR}/payments`) return jsonResponse(404, { message: "Not found.", code: "not_found" });
    return jsonResponse(200, answers[Math.min(reads++, answers.length - 1)]);
  });
  return { reads: () => fetchMock.mock.calls.length };
}

/** Moves the fake clock on, then lets the reads it started finish. */
async function elapse(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
  await act(async () => {
    for (let turn = 0; turn < 20; turn++) await Promise.resolve();
  });
}

describe("useAuthorPayments", () => {
  beforeEach(() => {
    // Timers and the clock only: reading a Response's body needs Node's own scheduling.
    vi.useFakeTimers({ now: NOW, toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    // Updates reach the screen at once rather than on a zero-delay timer of the fake clock.
    notifyManager.setScheduler((callback) => callback());
  });
  afterEach(() => {
    focusManager.setFocused(undefined);
    notifyManager.setScheduler(defaultScheduler);
    vi.useRealTimers();
  });

  it("reads a payment on its way until it completes, backing off while nothing changes, then stops", async () => {
    const sending = [pending(1, { reason: "sending" })];
    const finality = [{ ...pending(1, { reason: "finality" }), sentAt: "2026-11-26T12:00:01.000Z" }];
    const server = mockPayments([sending, sending, sending, finality, [payment(1)]]);
    renderWithApp(<Statuses />);
    await elapse(0);
    expect(screen.getByTestId("statuses")).toHaveTextContent("pending");
    expect(server.reads()).toBe(1);

    // Unchanged reads come after 1 s, then 2 s, then 4 s.
    await elapse(999);
    expect(server.reads()).toBe(1);
    await elapse(1);
    expect(server.reads()).toBe(2);
    await elapse(2_000);
    expect(server.reads()).toBe(3);
    await elapse(3_999);
    expect(server.reads()).toBe(3);
    await elapse(1);
    expect(server.reads()).toBe(4);
    // A change (sent, now awaiting finality) starts again from 1 s.
    await elapse(1_000);
    expect(server.reads()).toBe(5);
    expect(screen.getByTestId("statuses")).toHaveTextContent("completed");

    // Nothing pending: no more reads, however long the screen stays open.
    await elapse(10 * 60_000);
    expect(server.reads()).toBe(5);
  });

  it("does not read while nothing shown can move", async () => {
    const server = mockPayments([[payment(2), pending(1, { reason: "no-wallet" })]]);
    renderWithApp(<Statuses />);
    await elapse(10 * 60_000);
    expect(server.reads()).toBe(1);
  });

  it("does not read while the tab is hidden, and goes on once it shows again", async () => {
    const server = mockPayments([[pending(1, { reason: "sending" })]]);
    renderWithApp(<Statuses />);
    await elapse(0);
    focusManager.setFocused(false);
    await elapse(5 * 60_000);
    expect(server.reads()).toBe(1);

    focusManager.setFocused(true);
    await elapse(PAYMENT_POLL_MAX_MS);
    expect(server.reads()).toBeGreaterThan(1);
  });
});
