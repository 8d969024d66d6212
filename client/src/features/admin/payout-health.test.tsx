import type { PayoutHealth } from "@shared/admin";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { mockAdminApi, paymentDiagnostics, payoutHealth } from "@client-test/admin-fixtures";
import { AdminPanel } from "@/features/admin/admin-panel";
import i18n from "@/lib/i18n";
import { jsonResponse } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

const HOT_WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const dateTime = (iso: string, language = "en") => new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));

function renderWithHealth(health: PayoutHealth | null) {
  mockAdminApi({ diagnostics: () => jsonResponse(200, paymentDiagnostics({ payoutHealth: health })) });
  return renderWithApp(<AdminPanel />);
}

describe("Payout health", () => {
  it("comes first in the admin panel, under its tabs", async () => {
    renderWithHealth(payoutHealth({ state: "low-gas", gasBalance: "0.025" }));
    const banner = await screen.findByTestId("payout-health");
    expect(screen.getByTestId("admin-sections").firstElementChild).toBe(banner);
    expect(screen.getByTestId("admin-sections").previousElementSibling).toBe(screen.getByRole("navigation", { name: "Admin sections" }));
  });

  it.each([
    [
      "low-gas",
      { gasBalance: "0.025", gasMinimum: "1" },
      "The hot wallet has 0.025 POL for gas, below the 1 POL minimum. Send POL to the address below: payouts resume by themselves once it is funded.",
    ],
    [
      "low-pme",
      { tokenBalance: "0.5", tokenMinimum: "1.0" },
      "The hot wallet holds 0.5 PME, below the 1 PME minimum. Send PME to the address below: payouts resume by themselves once it is funded.",
    ],
    [
      "finality-lag",
      { finality: { mode: "finalized-tag", lagBlocks: 412, lagSeconds: 900, maxLagSeconds: 600 } },
      "The chain's finalized block trails the newest by 15 min (412 blocks), more than the 10 min allowed. Payouts resume by themselves once finality catches up; payments already sent are still followed.",
    ],
    [
      "fee-ceiling",
      { feeNeededGwei: "1250.5", maxFeeGwei: "1000" },
      "The chain needs a max fee of 1,250.5 gwei, above the 1,000 gwei ceiling. Payouts resume by themselves once fees come down.",
    ],
    ["fee-ceiling", { feeNeededGwei: null, maxFeeGwei: "1000" }, "The chain needs a max fee above the 1,000 gwei ceiling. Payouts resume by themselves once fees come down."],
  ] as const)("says in one sentence why payouts are paused: %s", async (state, overrides, sentence) => {
    renderWithHealth(payoutHealth({ state, since: "2025-03-01T08:00:00.000Z", checkedAt: "2025-03-01T10:00:00.000Z", ...overrides }));

    const banner = await screen.findByTestId("payout-health");
    expect(banner).toHaveAttribute("data-state", state);
    const alert = within(banner).getByRole("alert");
    expect(alert).toHaveTextContent("Payouts are paused");
    expect(within(banner).getByTestId("payout-health-sentence")).toHaveTextContent(sentence);
    expect(within(banner).getByTestId("hot-wallet-address")).toHaveTextContent(HOT_WALLET);
    expect(banner).toHaveTextContent(`Paused since ${dateTime("2025-03-01T08:00:00.000Z")} · last checked ${dateTime("2025-03-01T10:00:00.000Z")}`);
  });

  it("copies the hot wallet's full address", async () => {
    const { user } = renderWithHealth(payoutHealth({ state: "low-pme", tokenBalance: "0" }));

    await user.click(await screen.findByRole("button", { name: "Copy the hot wallet's address" }));

    expect(await navigator.clipboard.readText()).toBe(HOT_WALLET);
    expect(await screen.findByText("Hot wallet address copied")).toBeInTheDocument();
  });

  it("is one quiet line with the balances, at a glance, while payouts are being sent", async () => {
    renderWithHealth(payoutHealth({ gasBalance: "9999.998458330491605195", tokenBalance: "0.0000123456", checkedAt: "2025-03-01T10:00:00.000Z" }));

    const line = await screen.findByTestId("payout-health");
    expect(line).toHaveAttribute("role", "status");
    expect(line).toHaveAttribute("data-state", "sending");
    expect(line).toHaveTextContent(/^Payouts are being sent/);
    expect(within(line).getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "9,999.9985 POL for gas",
      "0.0000123 PME to pay out",
      "Hot wallet 0x7099…79C8",
      `Checked ${dateTime("2025-03-01T10:00:00.000Z")}`,
    ]);
    expect(within(line).queryByRole("button")).not.toBeInTheDocument();
  });

  it("says the sender has not checked in when there is no report yet", async () => {
    renderWithHealth(null);
    const line = await screen.findByTestId("payout-health");
    expect(line).toHaveAttribute("data-state", "unknown");
    expect(line).toHaveTextContent("The payout sender has not checked in yet");
  });

  it("shows nothing of it before the diagnostics arrive, nor when they fail", async () => {
    mockAdminApi({ diagnostics: () => jsonResponse(500, { message: "Something went wrong.", code: "internal_error" }) });
    renderWithApp(<AdminPanel />);
    expect(screen.queryByTestId("payout-health")).not.toBeInTheDocument();
    expect(await screen.findByText("The payment diagnostics could not be loaded.")).toBeInTheDocument();
    expect(screen.queryByTestId("payout-health")).not.toBeInTheDocument();
  });

  it.each(["es", "fr"] as const)("speaks %s, numbers included", async (language) => {
    await i18n.changeLanguage(language);
    renderWithHealth(payoutHealth({ state: "low-gas", gasBalance: "0.025", gasMinimum: "1" }));

    const sentence = await screen.findByTestId("payout-health-sentence");
    const number = new Intl.NumberFormat(language, { maximumFractionDigits: 18 }).format(0.025);
    // The matcher folds the element's spaces, French no-break ones included, and not those of the text it is given.
    expect(sentence).toHaveTextContent(i18n.t("admin.health.paused.low-gas", { balance: number, minimum: "1" }).replace(/\s+/g, " "));
    expect(screen.getByRole("button", { name: i18n.t("admin.health.copyAddress") })).toBeInTheDocument();
  });
});
