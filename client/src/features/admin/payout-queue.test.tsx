import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { mockAdminApi, paymentDiagnostics, queuedPayment } from "@client-test/admin-fixtures";
import { AdminPanel } from "@/features/admin/admin-panel";
import { jsonResponse } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

const nextAttemptAt = "2025-03-01T10:00:00.000Z";

describe("Payout queue", () => {
  it("lists pending, in-flight and failed payments, and says when a group is empty", async () => {
    mockAdminApi({
      diagnostics: () =>
        jsonResponse(
          200,
          paymentDiagnostics({
            queue: {
              pending: [queuedPayment({ id: 31, waitingForWallet: true }), queuedPayment({ id: 32, bookId: null, amount: "2.50" })],
              inFlight: [queuedPayment({ id: 40, stage: "broadcast", attempts: 2, lastError: "nonce too low" })],
              held: [],
              failed: [],
              cancelled: [],
            },
          }),
        ),
    });
    renderWithApp(<AdminPanel />);

    const queue = await screen.findByTestId("payout-queue");
    const pending = within(queue).getByTestId("payout-queue-pending");
    expect(within(pending).getByRole("heading", { name: "Pending 2" })).toBeInTheDocument();
    const [waiting, noBook] = within(pending).getAllByTestId("queued-payment");
    expect(waiting).toHaveAttribute("data-payment-id", "31");
    expect(within(waiting!).getByRole("cell", { name: "#31" })).toBeInTheDocument();
    // The book and its author by name, not "#7 / #user".
    expect(within(waiting!).getByRole("cell", { name: /^Notes on the Analytical Engine/ })).toHaveTextContent("Ada Lovelace");
    expect(within(waiting!).getByRole("cell", { name: "1.00 PME" })).toBeInTheDocument();
    expect(within(waiting!).getByRole("cell", { name: "0" })).toBeInTheDocument();
    const expectedTime = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" }).format(new Date(nextAttemptAt));
    expect(within(waiting!).getByText(expectedTime)).toHaveAttribute("dateTime", nextAttemptAt);
    expect(within(waiting!).getByText("Waiting for the author's wallet")).toBeInTheDocument();
    expect(within(noBook!).getByRole("cell", { name: /^—/ })).toHaveTextContent("Ada Lovelace");
    expect(within(noBook!).getByRole("cell", { name: "2.50 PME" })).toBeInTheDocument();
    expect(within(noBook!).queryByText("Waiting for the author's wallet")).not.toBeInTheDocument();
    expect(within(pending).queryByRole("columnheader", { name: "Stage" })).not.toBeInTheDocument();

    const inFlight = within(queue).getByTestId("payout-queue-inFlight");
    expect(within(inFlight).getByRole("columnheader", { name: "Stage" })).toBeInTheDocument();
    const [sending] = within(inFlight).getAllByTestId("queued-payment");
    expect(within(sending!).getByRole("cell", { name: "Broadcast" })).toBeInTheDocument();
    expect(within(sending!).getByRole("cell", { name: "2" })).toBeInTheDocument();
    expect(within(sending!).getByText("nonce too low")).toBeInTheDocument();

    const failed = within(queue).getByTestId("payout-queue-failed");
    expect(failed).toHaveTextContent("No failed payments.");
    expect(within(failed).queryByRole("table")).not.toBeInTheDocument();
  });

  it("shows held payments with why they wait, and cancelled ones with the removal that cancelled them", async () => {
    const since = "2025-03-04T09:00:00.000Z";
    mockAdminApi({
      diagnostics: () =>
        jsonResponse(
          200,
          paymentDiagnostics({
            queue: {
              pending: [],
              held: [
                queuedPayment({ id: 50, hold: { since, because: { kind: "decision", decisionId: 12, action: "hide", facts: "A notice says it copies a novel." } } }),
                queuedPayment({ id: 51, hold: { since, because: { kind: "notice", category: "copyright" } } }),
              ],
              inFlight: [],
              failed: [],
              cancelled: [queuedPayment({ id: 52, status: "cancelled", cancellation: { decisionId: 14, at: since, facts: "The rights holder showed the first edition." } })],
            },
          }),
        ),
    });
    renderWithApp(<AdminPanel />);

    const queue = await screen.findByTestId("payout-queue");
    const when = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" }).format(new Date(since));
    const held = within(queue).getByTestId("payout-queue-held");
    expect(within(held).getByRole("heading", { name: "Held 2" })).toBeInTheDocument();
    const [hidden, reported] = within(held).getAllByTestId("queued-payment");
    expect(within(hidden!).getByRole("cell", { name: `Decision #12 since ${when}: A notice says it copies a novel.` })).toBeInTheDocument();
    expect(within(reported!).getByRole("cell", { name: `Open copyright notice since ${when}` })).toBeInTheDocument();

    const cancelled = within(queue).getByTestId("payout-queue-cancelled");
    expect(within(cancelled).getByRole("cell", { name: `Removal #14 on ${when}: The rights holder showed the first edition.` })).toBeInTheDocument();
    // A cancelled payment is never tried again: no attempts nor next try.
    expect(within(cancelled).queryByRole("columnheader", { name: "Attempts" })).toBeNull();
    expect(within(within(queue).getByTestId("payout-queue-held")).getByRole("columnheader", { name: "Attempts" })).toBeInTheDocument();
    expect(within(queue).getByTestId("payout-queue-pending")).toHaveTextContent("No payments waiting to be sent.");
  });

  it("says so when nothing is waiting", async () => {
    mockAdminApi();
    renderWithApp(<AdminPanel />);

    const queue = await screen.findByTestId("payout-queue");
    expect(queue).toHaveTextContent("No payments waiting to be sent.");
    expect(queue).toHaveTextContent("No payments on their way.");
    expect(queue).toHaveTextContent("No failed payments.");
    expect(queue).toHaveTextContent("No payments held by a review.");
    expect(queue).toHaveTextContent("No payments cancelled by a removal.");
  });
});
