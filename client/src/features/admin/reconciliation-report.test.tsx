import type { Reconciliation } from "@shared/admin";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { mockAdminApi, paymentDiagnostics } from "@client-test/admin-fixtures";
import { AdminPanel } from "@/features/admin/admin-panel";
import { jsonResponse } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

const transferHash = `0x${"ab".repeat(32)}`;
const recipient = `0x${"12".repeat(20)}`;

function renderReconciliation(reconciliation: Reconciliation) {
  mockAdminApi({ diagnostics: () => jsonResponse(200, paymentDiagnostics({ reconciliation })) });
  renderWithApp(<AdminPanel section="payments" />);
  return screen.findByTestId("reconciliation");
}

describe("Reconciliation", () => {
  it("compares the chain with the ledger and lists every difference", async () => {
    const section = await renderReconciliation({
      available: true,
      sentOnChain: "3.000000000000000001",
      completedInLedger: "2.0",
      transfersWithoutPayment: [{ transactionHash: transferHash, to: recipient, amount: "1.000000000000000001" }],
      paymentsWithoutTransfer: [{ paymentId: 5, transactionHash: null }],
      completedOnEarlierChain: [3, 4],
    });

    // Exact to the last of the 18 decimals: a float would round this away.
    expect(within(section).getByTestId("sent-on-chain")).toHaveTextContent("3.000000000000000001 PME");
    expect(within(section).getByTestId("completed-in-ledger")).toHaveTextContent("2.00 PME");
    expect(section).toHaveTextContent("The ledger and the chain differ");
    expect(section).not.toHaveTextContent("The ledger and the chain agree.");

    const transfers = within(section).getByTestId("transfers-without-payment");
    expect(within(transfers).getByRole("heading", { name: "Transfers without a payment" })).toBeInTheDocument();
    expect(transfers).toHaveTextContent(transferHash);
    expect(transfers).toHaveTextContent(recipient);
    expect(transfers).toHaveTextContent("1.000000000000000001 PME");

    const payments = within(section).getByTestId("payments-without-transfer");
    expect(payments).toHaveTextContent("#5");
    expect(payments).toHaveTextContent("No transaction hash");

    const earlier = within(section).getByTestId("completed-on-earlier-chain");
    expect(within(earlier).getAllByRole("listitem").map((item) => item.textContent)).toEqual(["Payment #3", "Payment #4"]);
  });

  it("gives the all-clear when the ledger and the chain agree", async () => {
    const section = await renderReconciliation({
      available: true,
      sentOnChain: "2.0",
      completedInLedger: "2.0",
      transfersWithoutPayment: [],
      paymentsWithoutTransfer: [],
      completedOnEarlierChain: [],
    });

    expect(section).toHaveTextContent("The ledger and the chain agree.");
    expect(within(section).queryByRole("list")).not.toBeInTheDocument();
  });

  it("keeps the all-clear when the only payments it cannot compare come from an earlier local chain", async () => {
    const section = await renderReconciliation({
      available: true,
      sentOnChain: "0.0",
      completedInLedger: "0.0",
      transfersWithoutPayment: [],
      paymentsWithoutTransfer: [],
      completedOnEarlierChain: [1],
    });

    expect(section).toHaveTextContent("The ledger and the chain agree.");
    expect(within(section).getByTestId("completed-on-earlier-chain")).toHaveTextContent("Payment #1");
  });

  it("explains why it could not compare", async () => {
    const section = await renderReconciliation({ available: false, reason: "The chain could not be read: connection refused" });

    expect(section).toHaveTextContent("Reconciliation unavailable");
    expect(within(section).getByTestId("reconciliation-reason")).toHaveTextContent("The chain could not be read: connection refused");
    expect(within(section).queryByTestId("sent-on-chain")).not.toBeInTheDocument();
  });
});
