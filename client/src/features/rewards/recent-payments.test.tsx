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

    expect(steps(item!)).toEqual(["owed: done", "sent: current", "finalized: upcoming"]);
    expect(within(item!).getAllByText("Not yet")).toHaveLength(2);
    expect(within(item!).getByText("Sent").closest("li")).toHaveAttribute("aria-current", "step");
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
