import type { SuspiciousBurst } from "@shared/admin";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { mockAdminApi, paymentDiagnostics, suspiciousBurst } from "@client-test/admin-fixtures";
import { AdminPanel } from "@/features/admin/admin-panel";
import i18n from "@/lib/i18n";
import { jsonResponse } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

const atOneInstant = "2025-03-02T08:30:00.000Z";
const bursts: SuspiciousBurst[] = [
  suspiciousBurst(),
  suspiciousBurst({ kind: "shared_address", book: null, ipAddress: "2001:db8::1", downloads: 6, counted: 0, accounts: 6 }),
  suspiciousBurst({ kind: "book_spike", ipAddress: null, downloads: 24, counted: 21, accounts: 22, windowStart: atOneInstant, windowEnd: atOneInstant }),
  suspiciousBurst({ kind: "deleted_accounts", book: null, ipAddress: null, addressLabel: "a1b2c3d4e5", downloads: 21, counted: 3, accounts: 21 }),
];

async function renderSuspiciousActivity(suspiciousActivity: SuspiciousBurst[]) {
  mockAdminApi({ diagnostics: () => jsonResponse(200, paymentDiagnostics({ suspiciousActivity })) });
  renderWithApp(<AdminPanel />);
  return screen.findByTestId("suspicious-activity");
}

const dateTime = (language: string, iso: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));

describe("Suspicious activity", () => {
  it("lists each burst in a table named by its heading, with the address in full and every figure", async () => {
    const section = await renderSuspiciousActivity(bursts);

    const table = within(section).getByRole("table", { name: "Suspicious activity" });
    expect(within(table).getAllByRole("columnheader").map((header) => header.textContent)).toEqual([
      "Signal",
      "Book",
      "IP address",
      "Downloads",
      "Counted",
      "Not counted",
      "Accounts",
      "Period",
    ]);
    const [addressBurst, sharedAddress, spike, deletedAccounts] = within(table).getAllByTestId("suspicious-burst");

    expect(addressBurst).toHaveAttribute("data-kind", "address_book_burst");
    expect(within(addressBurst!).getByText("One book, one address")).toBeInTheDocument();
    expect(within(addressBurst!).getByText("Notes on the Analytical Engine")).toBeInTheDocument();
    expect(addressBurst).toHaveTextContent("#7");
    expect(within(addressBurst!).getByRole("cell", { name: "192.0.2.10" })).toBeInTheDocument();
    expect(within(addressBurst!).getByRole("cell", { name: "1,250" })).toBeInTheDocument();
    expect(within(addressBurst!).getByRole("cell", { name: "3" })).toBeInTheDocument();
    expect(within(addressBurst!).getByRole("cell", { name: "1,247" })).toBeInTheDocument();
    expect(within(addressBurst!).getByRole("cell", { name: "12" })).toBeInTheDocument();
    const [from, to] = within(addressBurst!).getAllByText((_, element) => element?.tagName === "TIME");
    expect(from).toHaveAttribute("dateTime", "2025-03-01T10:00:00.000Z");
    expect(from).toHaveTextContent(dateTime("en", "2025-03-01T10:00:00.000Z"));
    expect(to).toHaveAttribute("dateTime", "2025-03-01T10:45:00.000Z");
    expect(to).toHaveTextContent(dateTime("en", "2025-03-01T10:45:00.000Z"));

    expect(within(sharedAddress!).getByText("Many accounts, one address")).toBeInTheDocument();
    expect(within(sharedAddress!).getByRole("cell", { name: "All books" })).toBeInTheDocument();
    expect(within(sharedAddress!).getByRole("cell", { name: "2001:db8::1" })).toBeInTheDocument();

    expect(within(spike!).getByText("Spike of counted downloads")).toBeInTheDocument();
    expect(within(spike!).getByRole("cell", { name: "All addresses" })).toBeInTheDocument();
    expect(within(spike!).getByRole("cell", { name: dateTime("en", atOneInstant) })).toBeInTheDocument();

    // The accounts were deleted: the address is named by a label of its hash, never in clear.
    expect(within(deletedAccounts!).getByText("Deleted accounts, one address")).toBeInTheDocument();
    expect(within(deletedAccounts!).getByText("Hidden address a1b2c3d4e5")).toBeInTheDocument();
    expect(deletedAccounts).toHaveTextContent("never in clear");
    expect(within(deletedAccounts!).getByRole("cell", { name: "All books" })).toBeInTheDocument();
    expect(section).not.toHaveTextContent("No suspicious activity");
  });

  it("says so when the last 7 days were calm, and still explains what would be flagged", async () => {
    const section = await renderSuspiciousActivity([]);

    expect(within(section).getByRole("heading", { name: "Suspicious activity" })).toBeInTheDocument();
    expect(section).toHaveTextContent("No suspicious activity in the last 7 days.");
    expect(within(section).queryByRole("table")).not.toBeInTheDocument();
    const rules = within(section).getByRole("list", { name: "What is flagged" });
    expect(within(rules).getAllByRole("listitem").map((rule) => rule.textContent)).toEqual([
      "One book, one address10 or more downloads of one book from one address within an hour",
      "Many accounts, one address5 or more accounts downloading from one address within a day",
      "Spike of counted downloads20 or more counted downloads of one book within an hour",
      "Deleted accounts, one address3 or more counted downloads from one address by accounts deleted since, within a day",
    ]);
  });

  it.each([
    ["es", "Actividad sospechosa", "Muchas cuentas, una dirección", "No contadas", "No hay actividad sospechosa en los últimos 7 días.", "Dirección oculta a1b2c3d4e5"],
    ["fr", "Activité suspecte", "Plusieurs comptes, une adresse", "Non comptés", "Aucune activité suspecte ces 7 derniers jours.", "Adresse masquée a1b2c3d4e5"],
  ])("speaks %s, numbers and dates included", async (language, heading, kind, notCounted, empty, hiddenAddress) => {
    await i18n.changeLanguage(language);
    const section = await renderSuspiciousActivity(bursts);

    const table = within(section).getByRole("table", { name: heading });
    expect(within(table).getByRole("columnheader", { name: notCounted })).toBeInTheDocument();
    expect(within(table).getByText(kind)).toBeInTheDocument();
    const [addressBurst] = within(table).getAllByTestId("suspicious-burst");
    // French groups thousands with a narrow no-break space, which a text matcher would flatten.
    const downloads = within(addressBurst!).getAllByRole("cell").map((cell) => cell.textContent);
    expect(downloads).toContain(new Intl.NumberFormat(language).format(1250));
    expect(within(addressBurst!).getAllByText((_, element) => element?.tagName === "TIME")[0]!.textContent).toBe(
      dateTime(language, "2025-03-01T10:00:00.000Z"),
    );
    expect(i18n.t("admin.suspicious.empty", { days: 7 })).toBe(empty);
    expect(within(table).getByText(hiddenAddress)).toBeInTheDocument();
  });

  it("is not shown to anyone but the admin", async () => {
    const forbidden = () => jsonResponse(403, { message: "Only the admin can do this.", code: "forbidden" });
    mockAdminApi({ diagnostics: forbidden, overview: forbidden });
    renderWithApp(<AdminPanel />);

    expect(await screen.findByText("Admin only")).toBeInTheDocument();
    expect(screen.queryByTestId("suspicious-activity")).not.toBeInTheDocument();
  });
});
