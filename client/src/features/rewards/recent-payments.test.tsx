import type { AuthorPayment } from "@shared/wallet";
import type { UseQueryResult } from "@tanstack/react-query";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { RecentPayments } from "@/features/rewards/recent-payments";
import i18n from "@/lib/i18n";
import { renderWithApp } from "@client-test/render";

const HASH = `0x${"cd".repeat(32)}`;
const TRIGGERED = "2025-03-01T10:00:00.000Z";
const SENT = "2025-03-01T10:00:40.000Z";
const COMPLETED = "2025-03-01T10:01:05.000Z";

function payment(overrides: Partial<AuthorPayment> = {}): AuthorPayment {
  return {
    id: 1,
    amount: "1.00",
    status: "completed",
    triggeredAt: TRIGGERED,
    sentAt: SENT,
    completedAt: COMPLETED,
    transactionHash: HASH,
    bookId: 7,
    bookTitle: "The Lighthouse",
    kind: "milestone",
    milestone: 1,
    waiting: null,
    failureReason: null,
    cancellation: null,
    ...overrides,
  };
}

const pending = (waiting: AuthorPayment["waiting"], overrides: Partial<AuthorPayment> = {}) =>
  payment({ status: "pending", sentAt: null, completedAt: null, transactionHash: null, waiting, ...overrides });

/** The component reads only these fields of the query. */
function loaded(data: AuthorPayment[]): UseQueryResult<AuthorPayment[]> {
  return { data, isPending: false, isError: false } as UseQueryResult<AuthorPayment[]>;
}

const dateTime = (iso: string, language = "en") => new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));

function renderPayments(payments: AuthorPayment[], explorerUrl: string | null = "https://polygonscan.com") {
  renderWithApp(<RecentPayments payments={loaded(payments)} explorerUrl={explorerUrl} />);
  return screen.getAllByTestId("payment-item");
}

/** Each step of an item's timeline as "name: state", in order. */
function steps(item: HTMLElement): string[] {
  return within(within(item).getByRole("list", { name: "Progress of this payment" }))
    .getAllByRole("listitem")
    .map((step) => `${step.dataset.step}: ${step.dataset.state}`);
}

describe("Recent payments' timelines", () => {
  it("shows a finalized payment's three steps with their times, and its transaction", () => {
    const [item] = renderPayments([payment()]);

    expect(steps(item!)).toEqual(["owed: done", "sent: done", "finalized: done"]);
    const timeline = within(item!).getByTestId("payment-timeline");
    expect(timeline.tagName).toBe("OL");
    for (const [label, iso] of [
      ["Owed", TRIGGERED],
      ["Sent", SENT],
      ["Finalized", COMPLETED],
    ] as const) {
      const step = within(timeline).getByText(label).closest("li")!;
      expect(within(step).getByText(dateTime(iso))).toHaveAttribute("dateTime", iso);
    }
    expect(within(item!).queryByTestId("payment-wait")).not.toBeInTheDocument();
    expect(within(item!).getByTestId("payment-explorer-link")).toHaveAttribute("href", `https://polygonscan.com/tx/${HASH}`);
  });

  it("names the missing wallet first, as the author can end that wait", () => {
    const [item] = renderPayments([pending({ reason: "no-wallet" })]);

    // The step it is at is the author's wallet, not "sent": nothing is on its way yet.
    expect(steps(item!)).toEqual(["owed: done", "wallet: current", "sent: upcoming", "finalized: upcoming"]);
    expect(within(item!).getAllByText("Not yet")).toHaveLength(3);
    expect(within(item!).getByText("Your wallet").closest("li")).toHaveAttribute("aria-current", "step");
    expect(within(item!).getByTestId("payment-wait")).toHaveTextContent("Connect a wallet to receive this payment.");
    expect(within(item!).queryByTestId("payment-explorer-link")).not.toBeInTheDocument();
  });

  it("says until when a payment is held, when it is tried again, and what it waits for once sent", () => {
    const until = "2025-03-02T10:00:00.000Z";
    // A retry due later today shows its time alone; one due another day, its date too.
    const laterToday = new Date();
    laterToday.setHours(23, 59, 0, 0);
    const items = renderPayments([
      pending({ reason: "hold", until }, { id: 1 }),
      pending({ reason: "retry", until: laterToday.toISOString() }, { id: 2 }),
      pending({ reason: "retry", until }, { id: 3 }),
      pending({ reason: "sending" }, { id: 4 }),
      pending({ reason: "finality" }, { id: 5, sentAt: SENT, transactionHash: HASH }),
    ]);
    const sentences = items.map((item) => within(item).getByTestId("payment-wait").textContent);
    const time = new Intl.DateTimeFormat("en", { timeStyle: "short" }).format(laterToday);

    expect(sentences).toEqual([
      `Held until ${dateTime(until)}, then sent automatically.`,
      `The last attempt did not go through. Next attempt at ${time}.`,
      `The last attempt did not go through. Next attempt at ${dateTime(until)}.`,
      "Being sent to your wallet.",
      "Waiting for the block to be final (usually seconds).",
    ]);
    expect(steps(items[4]!)).toEqual(["owed: done", "sent: done", "finalized: current"]);
    // Sent and waiting for finality: the transaction can already be followed.
    expect(within(items[4]!).getByTestId("payment-explorer-link")).toBeInTheDocument();
  });

  it("ends a failed payment on its failure, with the reason when there is one", () => {
    const [reverted, unexplained] = renderPayments([
      payment({ id: 1, status: "failed", completedAt: null, failureReason: "execution reverted: ERC20: transfer amount exceeds balance" }),
      payment({ id: 2, status: "failed", sentAt: null, completedAt: null, transactionHash: null, failureReason: null }),
    ]);

    expect(steps(reverted!)).toEqual(["owed: done", "sent: done", "failed: failed"]);
    expect(within(reverted!).getByTestId("payment-failure")).toHaveTextContent(
      "The transfer did not go through: execution reverted: ERC20: transfer amount exceeds balance",
    );
    expect(within(reverted!).queryByText("Finalized")).not.toBeInTheDocument();
    // Never sent: no "sent" step to wait for.
    expect(steps(unexplained!)).toEqual(["owed: done", "failed: failed"]);
    expect(within(unexplained!).getByTestId("payment-failure")).toHaveTextContent(/^The transfer did not go through\.$/);
  });

  it("says why a held payment waits and when the review began, never that it is on its way", () => {
    const since = "2025-03-04T09:00:00.000Z";
    const [hidden, reported] = renderPayments([
      pending({ reason: "under-review", since, because: { kind: "decision", decisionId: 12, action: "hide", facts: "A notice says this book copies a novel." } }, { id: 1 }),
      pending({ reason: "under-review", since, because: { kind: "notice", category: "copyright" } }, { id: 2 }),
    ]);

    expect(within(hidden!).getByText("Held")).toBeInTheDocument();
    expect(within(hidden!).queryByText("Pending")).not.toBeInTheDocument();
    // Nothing is under way: no step looks current.
    expect(steps(hidden!)).toEqual(["owed: done", "sent: upcoming", "finalized: upcoming"]);
    const wait = within(hidden!).getByTestId("payment-wait");
    expect(wait).toHaveAttribute("data-reason", "under-review");
    expect(wait).toHaveTextContent("Held: under review since Mar 4, 2025, because “A notice says this book copies a novel.”");
    expect(wait).not.toHaveTextContent("Being sent");
    expect(within(wait).getByRole("link", { name: "Read the statement of reasons" })).toHaveAttribute("href", "/dashboard#moderation-decision-12");

    expect(within(reported!).getByTestId("payment-wait")).toHaveTextContent(
      "Held: under review since Mar 4, 2025, because someone reported this book for copyright infringement.",
    );
    // A notice is not a decision: there is no statement to read yet.
    expect(within(reported!).queryByRole("link", { name: "Read the statement of reasons" })).not.toBeInTheDocument();
  });

  it("ends a cancelled payment on its cancellation, with the removal's facts and a link to its statement", () => {
    const at = "2025-03-05T15:30:00.000Z";
    const [item] = renderPayments([
      payment({ status: "cancelled", sentAt: null, completedAt: null, transactionHash: null, cancellation: { decisionId: 14, at, facts: "The rights holder showed the first edition." } }),
    ]);

    expect(within(item!).getByText("Cancelled", { selector: "span.font-semibold" })).toBeInTheDocument();
    expect(steps(item!)).toEqual(["owed: done", "cancelled: failed"]);
    const cancellation = within(item!).getByTestId("payment-cancellation");
    expect(cancellation).toHaveTextContent("Cancelled on Mar 5, 2025: “The rights holder showed the first edition.”");
    expect(within(cancellation).getByRole("link", { name: "Read the statement of reasons" })).toHaveAttribute("href", "/dashboard#moderation-decision-14");
    expect(within(item!).queryByTestId("payment-wait")).not.toBeInTheDocument();
  });

  it.each(["es", "fr"] as const)("tells a held and a cancelled payment in %s", async (language) => {
    await i18n.changeLanguage(language);
    const since = "2025-03-04T09:00:00.000Z";
    const date = new Intl.DateTimeFormat(language, { dateStyle: "medium" }).format(new Date(since));
    const [held, cancelled] = renderPayments([
      pending({ reason: "under-review", since, because: { kind: "notice", category: "illegal" } }, { id: 1 }),
      payment({ id: 2, status: "cancelled", sentAt: null, completedAt: null, transactionHash: null, cancellation: { decisionId: 3, at: since, facts: "Hechos." } }),
    ]);
    expect(within(held!).getByTestId("payment-wait")).toHaveTextContent(i18n.t("payments.underReview.illegal", { date }));
    expect(within(cancelled!).getByTestId("payment-cancellation")).toHaveTextContent(i18n.t("payments.cancelled", { date, facts: "Hechos." }));
    expect(within(cancelled!).getByRole("link", { name: i18n.t("payments.readStatement") })).toBeInTheDocument();
  });

  it.each(["es", "fr"] as const)("speaks %s, dates and times included", async (language) => {
    await i18n.changeLanguage(language);
    const until = "2025-03-02T10:00:00.000Z";
    const [finalized, held] = renderPayments([payment({ id: 1 }), pending({ reason: "hold", until }, { id: 2 })]);

    expect(within(finalized!).getByText(i18n.t("payments.timeline.finalized"))).toBeInTheDocument();
    expect(within(finalized!).getByText(dateTime(COMPLETED, language))).toBeInTheDocument();
    expect(within(held!).getByTestId("payment-wait")).toHaveTextContent(i18n.t("payments.wait.hold", { when: dateTime(until, language) }));
    expect(within(held!).getByRole("list", { name: i18n.t("payments.timeline.label") })).toBeInTheDocument();
  });
});
