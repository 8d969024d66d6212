import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { Route } from "wouter";
import { adminPage, adminUsers, bookDiagnostics, callsTo, DIAGNOSTICS_URL, mockAdminApi, paymentDiagnostics } from "@client-test/admin-fixtures";
import { AdminPage } from "@/features/admin/admin-page";
import { AdminPanel } from "@/features/admin/admin-panel";
import i18n from "@/lib/i18n";
import { jsonResponse } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

/** The admin screen as the app's router shows it (shared/screens.ts). */
const AdminRoute = () => (
  <Route path="/admin/:section?">
    <AdminPage />
  </Route>
);

/** Untranslated keys would read like "admin.users.heading". */
function expectNoRawKeys() {
  expect(screen.getByTestId("admin-panel").textContent).not.toMatch(/\badmin\.\w/);
}

describe("AdminPanel", () => {
  it("shows the totals in the reader's number format and a row per user", async () => {
    mockAdminApi();
    renderWithApp(<AdminPanel section="users" />);

    const totals = await screen.findByTestId("admin-totals");
    expect(within(totals).getByTestId("admin-total-users")).toHaveTextContent("1,234");
    expect(within(totals).getByTestId("admin-total-books")).toHaveTextContent("3");
    expect(within(totals).getByTestId("admin-active-users")).toHaveTextContent("2");
    expect(within(totals).getByText("Active users in the last 30 days")).toBeInTheDocument();

    const rows = await screen.findAllByTestId("admin-user");
    expect(rows.map((row) => row.dataset.userId)).toEqual(["user-ada", "user-jose"]);
    const [ada] = rows;
    expect(within(ada!).getByRole("cell", { name: "Ada" })).toBeInTheDocument();
    expect(within(ada!).getByRole("cell", { name: "Lovelace" })).toBeInTheDocument();
    expect(within(ada!).getByRole("cell", { name: "ada" })).toBeInTheDocument();
    expect(within(ada!).getByRole("cell", { name: "2" })).toBeInTheDocument();
    expect(within(ada!).getByRole("cell", { name: "1,562" })).toBeInTheDocument();
    // What each account's books keep of the quota every account has (docs/product.md#storage).
    expect(within(ada!).getByRole("cell", { name: "120 MB of 1 GB" })).toBeInTheDocument();
    expect(within(rows[1]!).getByRole("cell", { name: "0 MB of 1 GB" })).toBeInTheDocument();
    expect(screen.getAllByRole("columnheader").map((header) => header.textContent)).toEqual(
      expect.arrayContaining(["First name", "Last name", "Username", "Books", "Counted downloads", "Storage"]),
    );
    expectNoRawKeys();
  });

  it("expands a user's books with a disclosure button", async () => {
    mockAdminApi();
    const { user } = renderWithApp(<AdminPanel section="users" />);

    const ada = (await screen.findAllByTestId("admin-user"))[0]!;
    const toggle = within(ada).getByRole("button", { name: "Show books" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(toggle).toHaveAccessibleDescription("ada");
    const books = document.getElementById(toggle.getAttribute("aria-controls")!)!;
    expect(books).not.toBeVisible();

    await user.click(toggle);

    expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(toggle).toHaveTextContent("Hide books");
    expect(books).toBeVisible();
    const [notes, sketch] = within(books).getAllByRole("listitem");
    expect(notes).toHaveTextContent("Notes on the Analytical Engine");
    expect(notes).toHaveTextContent("ID#7");
    expect(notes).toHaveTextContent("Counted downloads42");
    expect(notes).toHaveTextContent("Tokens earned3.00 PME");
    expect(sketch).toHaveTextContent("Counted downloads1,500");

    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(books).not.toBeVisible();
  });

  it("says when a user has no books", async () => {
    mockAdminApi();
    const { user } = renderWithApp(<AdminPanel section="users" />);

    const jose = (await screen.findAllByTestId("admin-user"))[1]!;
    await user.click(within(jose).getByRole("button", { name: "Show books" }));

    expect(within(jose).getByText("No published books.")).toBeVisible();
  });

  it("asks the server for the users a search names once the typing pauses, and keeps the search in the address", async () => {
    const fetchMock = mockAdminApi({
      users: (url) => {
        const q = new URL(url, "http://plume.test").searchParams.get("q") ?? "";
        return jsonResponse(200, adminPage(adminUsers.filter((account) => account.lastName?.toLowerCase().startsWith(q.split(" ")[1] ?? ""))));
      },
    });
    const { user, history } = renderWithApp(<AdminPanel section="users" />, { path: "/admin/users" });
    await screen.findAllByTestId("admin-user");

    await user.type(screen.getByLabelText("Search by name, username or e-mail"), "jose mar");
    await vi.waitFor(() => expect(screen.getAllByTestId("admin-user").map((row) => row.dataset.userId)).toEqual(["user-jose"]));
    expect(history.at(-1)).toBe("/admin/users?q=jose+mar");
    // One request for the whole search, not one a letter.
    expect(fetchMock.mock.calls.map(([input]) => String(input)).filter((url) => url.startsWith("/api/admin/users"))).toEqual(["/api/admin/users", "/api/admin/users?q=jose+mar"]);

    await user.clear(screen.getByLabelText("Search by name, username or e-mail"));
    await user.type(screen.getByLabelText("Search by name, username or e-mail"), "x nobody");
    expect(await screen.findByText("No user matches “x nobody”.")).toBeInTheDocument();
  });

  it("pages through the users, saying where it is, with the page in the address", async () => {
    const fetchMock = mockAdminApi({
      users: (url) => {
        const page = Number(new URL(url, "http://plume.test").searchParams.get("page") ?? "1");
        return jsonResponse(200, adminPage(page === 1 ? adminUsers : [adminUsers[1]!], 60, page));
      },
    });
    const { user, history } = renderWithApp(<AdminPanel section="users" />, { path: "/admin/users" });
    const pager = await screen.findByRole("navigation", { name: "Pages" });
    expect(pager).toHaveTextContent("Page 1 of 3 · 60 accounts");
    expect(within(pager).getByRole("button", { name: "Previous page" })).toBeDisabled();

    await user.click(within(pager).getByRole("button", { name: "Next page" }));
    await vi.waitFor(() => expect(screen.getByRole("navigation", { name: "Pages" })).toHaveTextContent("Page 2 of 3 · 60 accounts"));
    expect(history.at(-1)).toBe("/admin/users?page=2");
    expect(callsTo(fetchMock, "/api/admin/users?page=2")).toBe(1);
  });

  it("shows by default the books that need attention, and all of them on asking", async () => {
    const fetchMock = mockAdminApi({
      books: (url) =>
        jsonResponse(200, url.includes("show=all") ? adminPage([bookDiagnostics(), bookDiagnostics({ bookId: 8 })]) : adminPage([])),
    });
    const { user, history } = renderWithApp(<AdminPanel section="books" />, { path: "/admin/books" });
    expect(await screen.findByText(/No book needs your attention/)).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Needs attention" })).toBeChecked();

    await user.click(screen.getByRole("radio", { name: "All books" }));
    expect(await screen.findAllByTestId("diagnostic-row")).toHaveLength(2);
    expect(history.at(-1)).toBe("/admin/books?show=all");
    expect(callsTo(fetchMock, "/api/admin/books?show=all")).toBe(1);
  });

  it("speaks the reader's language, numbers included", async () => {
    await i18n.changeLanguage("fr");
    mockAdminApi();
    renderWithApp(<AdminPanel section="users" />);

    // The French thousands separator is a narrow no-break space, which toHaveTextContent would flatten.
    expect((await screen.findByTestId("admin-total-users")).textContent).toBe(new Intl.NumberFormat("fr").format(1234));
    expect(screen.getByRole("heading", { name: "Utilisateurs" })).toBeInTheDocument();
    expect((await screen.findAllByTestId("admin-user"))[0]).toHaveTextContent("120 Mo sur 1 Go");
    expectNoRawKeys();
  });

  it("shows placeholders while loading", async () => {
    mockAdminApi();
    renderWithApp(<AdminPanel />);

    // The overview, the payout times and the diagnostics: three calls, three placeholders.
    expect(screen.getAllByRole("status").filter((region) => region.textContent === "Loading…")).toHaveLength(3);
    expect(await screen.findByTestId("admin-totals")).toBeInTheDocument();
  });

  it("tells anyone but the admin that the panel is for the admin only", async () => {
    const forbidden = () => jsonResponse(403, { message: "Only the admin can do this.", code: "forbidden" });
    mockAdminApi({ overview: forbidden, diagnostics: forbidden });
    renderWithApp(<AdminPanel />);

    expect(await screen.findByText("Admin only")).toBeInTheDocument();
    expect(within(screen.getByTestId("admin-panel")).getByRole("alert")).toHaveTextContent("This panel is for the admin account.");
    expect(screen.queryByTestId("admin-totals")).not.toBeInTheDocument();
    expect(screen.queryByTestId("admin-diagnostics")).not.toBeInTheDocument();
  });

  it("reports a section that failed to load, keeps the other, and retries", async () => {
    let diagnosticsAnswer = () => jsonResponse(500, { message: "Something went wrong.", code: "internal_error" });
    const fetchMock = mockAdminApi({ diagnostics: () => diagnosticsAnswer() });
    const { user } = renderWithApp(<AdminPanel />);

    const failure = await within(screen.getByTestId("admin-panel")).findByRole("alert");
    expect(failure).toHaveTextContent("The payment diagnostics could not be loaded.");
    expect(screen.getByTestId("admin-totals")).toBeInTheDocument();

    diagnosticsAnswer = () => jsonResponse(200, paymentDiagnostics());
    await user.click(within(failure).getByRole("button", { name: "Try again" }));

    expect(await screen.findByTestId("payout-queue")).toBeInTheDocument();
    expect(callsTo(fetchMock, DIAGNOSTICS_URL)).toBe(2);
  });

  it("has a tab per part at its own address, and goes to another tab by its link", async () => {
    mockAdminApi();
    const { user, history } = renderWithApp(<AdminRoute />, { path: "/admin/users" });

    const tabs = screen.getByRole("navigation", { name: "Admin sections" });
    expect(within(tabs).getAllByRole("link").map((link) => [link.textContent, link.getAttribute("href")])).toEqual([
      ["Overview", "/admin"],
      ["Moderation", "/admin/moderation"],
      ["Users", "/admin/users"],
      ["Books", "/admin/books"],
      ["Payments", "/admin/payments"],
    ]);
    expect(within(tabs).getByRole("link", { name: "Users" })).toHaveAttribute("aria-current", "page");
    expect(screen.getByRole("heading", { level: 1, name: "Users" })).toBeInTheDocument();
    expect(await screen.findAllByTestId("admin-user")).toHaveLength(2);
    expect(screen.queryByTestId("admin-diagnostics")).not.toBeInTheDocument();

    await user.click(within(tabs).getByRole("link", { name: "Books" }));
    expect(history.at(-1)).toBe("/admin/books");
    expect(await screen.findByTestId("admin-diagnostics")).toBeInTheDocument();
    expect(screen.queryByTestId("admin-users")).not.toBeInTheDocument();
  });

  it("answers an unknown tab with the not-found screen", () => {
    mockAdminApi();
    renderWithApp(<AdminRoute />, { path: "/admin/secrets" });
    expect(screen.getByRole("heading", { level: 1, name: "404 Page Not Found" })).toBeInTheDocument();
  });
});
