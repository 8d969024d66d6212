import type { PayoutSla } from "@shared/wallet";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { callsTo, mockAdminApi, payoutSla, SLA_URL } from "@client-test/admin-fixtures";
import { AdminPanel } from "@/features/admin/admin-panel";
import i18n from "@/lib/i18n";
import { jsonResponse } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

async function renderSla(sla: PayoutSla) {
  mockAdminApi({ sla: () => jsonResponse(200, sla) });
  renderWithApp(<AdminPanel />);
  return screen.findByTestId("payout-sla");
}

/** A figure's text, its no-break spaces (between a number and its unit) written as plain ones. */
const figure = (section: HTMLElement, testId: string) => within(section).getByTestId(testId).textContent?.replace(/\u00a0/g, " ");

describe("Payout times", () => {
  it("shows the median and 99th percentile from owed to finalized, the payouts completed and the oldest owed payment", async () => {
    const section = await renderSla(payoutSla({ p50Seconds: 42, p99Seconds: 4800, completed: 1234, oldestOwedAt: "2025-03-01T08:00:00.000Z", oldestOwedAgeSeconds: 103_680 }));

    expect(within(section).getByRole("heading", { name: "Payout times" })).toBeInTheDocument();
    expect(figure(section, "sla-p50")).toBe("42 s");
    expect(figure(section, "sla-p99")).toBe("1 h 20 min");
    expect(figure(section, "sla-completed")).toBe("1,234");
    expect(figure(section, "sla-oldest-owed")).toBe("1.2 days");
    expect(within(section).getByText("Payments completed in 30 days")).toBeInTheDocument();
    const owedSince = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" }).format(new Date("2025-03-01T08:00:00.000Z"));
    expect(section).toHaveTextContent(`The oldest payment still owed has been owed since ${owedSince}.`);
  });

  it.each([
    [0, "0 s"],
    [59.4, "59 s"],
    [60, "1 min"],
    [180, "3 min"],
    [3599, "1 h"],
    [3600, "1 h"],
    [7260, "2 h 1 min"],
    [59.6, "1 min"],
    [86_399, "1 day"],
    [86_400, "1 day"],
    [1_209_600, "14 days"],
  ])("says %s seconds as a person would: %s", async (seconds, shown) => {
    const section = await renderSla(payoutSla({ p50Seconds: seconds }));
    expect(figure(section, "sla-p50")).toBe(shown);
  });

  it("says there are no times to measure without a completed payment, and no owed payment when none is", async () => {
    const section = await renderSla(payoutSla({ completed: 0, p50Seconds: null, p99Seconds: null, oldestOwedAt: null, oldestOwedAgeSeconds: null }));

    expect(figure(section, "sla-p50")).toBe("—");
    expect(figure(section, "sla-p99")).toBe("—");
    expect(figure(section, "sla-completed")).toBe("0");
    expect(figure(section, "sla-oldest-owed")).toBe("None");
    expect(section).toHaveTextContent("No payment was completed in the last 30 days, so there are no times to measure yet.");
    expect(section).not.toHaveTextContent("has been owed since");
  });

  it("reports its own failure with a retry, and leaves the other sections be", async () => {
    let answer = () => jsonResponse(500, { message: "Something went wrong.", code: "internal_error" });
    const fetchMock = mockAdminApi({ sla: () => answer() });
    const { user } = renderWithApp(<AdminPanel />);

    // Within the panel: the toaster has an alert region of its own.
    const failure = await within(screen.getByTestId("admin-panel")).findByRole("alert");
    expect(failure).toHaveTextContent("The payout times could not be loaded.");
    expect(await screen.findByTestId("payout-queue")).toBeInTheDocument();

    answer = () => jsonResponse(200, payoutSla());
    await user.click(within(failure).getByRole("button", { name: "Try again" }));
    expect(await screen.findByTestId("payout-sla")).toBeInTheDocument();
    expect(callsTo(fetchMock, SLA_URL)).toBe(2);
  });

  it.each([
    ["es", "1 h 20 min", "1,2 días"],
    ["fr", "1 h 20 min", "1,2 jour"],
  ] as const)("speaks %s, durations included", async (language, p99, oldest) => {
    await i18n.changeLanguage(language);
    const section = await renderSla(payoutSla());

    expect(within(section).getByRole("heading", { name: i18n.t("admin.sla.heading") })).toBeInTheDocument();
    expect(figure(section, "sla-p99")).toBe(p99);
    expect(figure(section, "sla-oldest-owed")).toBe(oldest);
  });
});
