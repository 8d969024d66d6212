import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { DIAGNOSTICS_URL, OVERVIEW_URL, USERS_URL, adminOverview, adminPage, adminUsers, paymentDiagnostics } from "@client-test/admin-fixtures";
import { AdminPanel } from "@/features/admin/admin-panel";
import i18n from "@/lib/i18n";
import { jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

const LINK = `http://localhost/reset-password?token=${"Q".repeat(43)}`;

function mockApi(resetLink: () => Response = () => jsonResponse(201, { url: LINK, expiresAt: "2026-11-26T15:30:00.000Z" })) {
  return mockFetch((url, init) => {
    if (url === OVERVIEW_URL) return jsonResponse(200, adminOverview);
    if (url === DIAGNOSTICS_URL) return jsonResponse(200, paymentDiagnostics());
    if (url === USERS_URL) return jsonResponse(200, adminPage(adminUsers));
    if (url === "/api/admin/users/user-ada/reset-link" && init?.method === "POST") return resetLink();
    return jsonResponse(404, { message: "Not found.", code: "not_found" });
  });
}
const resetCalls = (fetchMock: ReturnType<typeof mockFetch>) => fetchMock.mock.calls.filter(([url]) => String(url).endsWith("/reset-link")).length;

describe("the admin's reset link", () => {
  it("asks first, and a cancel makes no link", async () => {
    const fetchMock = mockApi();
    const { user } = renderWithApp(<AdminPanel section="users" />);
    const ada = (await screen.findAllByTestId("admin-user"))[0]!;
    const button = within(ada).getByRole("button", { name: "Reset link" });
    expect(button).toHaveAccessibleDescription("ada");
    await user.click(button);
    const dialog = screen.getByRole("alertdialog", { name: "Make a password reset link for Ada Lovelace?" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(resetCalls(fetchMock)).toBe(0);
  });

  it("shows the link once, to copy, then forgets it", async () => {
    const fetchMock = mockApi();
    const { user } = renderWithApp(<AdminPanel section="users" />);
    const ada = (await screen.findAllByTestId("admin-user"))[0]!;
    await user.click(within(ada).getByRole("button", { name: "Reset link" }));
    await user.click(screen.getByTestId("admin-reset-link-confirm"));

    const dialog = await screen.findByRole("dialog", { name: "Reset link for Ada Lovelace" });
    expect(within(dialog).getByTestId("admin-reset-link-url")).toHaveTextContent(LINK);
    expect(dialog).toHaveAccessibleDescription(/works once and expires at/);
    await user.click(within(dialog).getByRole("button", { name: "Copy" }));
    expect(await navigator.clipboard.readText()).toBe(LINK);
    expect(within(dialog).getByRole("button", { name: "Copied" })).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.queryByText(LINK)).not.toBeInTheDocument();
    expect(resetCalls(fetchMock)).toBe(1);
  });

  it("says in the admin's language when the link could not be made", async () => {
    await i18n.changeLanguage("es");
    mockApi(() => jsonResponse(404, { message: "There is no such account.", code: "not_found" }));
    const { user } = renderWithApp(<AdminPanel section="users" />);
    const ada = (await screen.findAllByTestId("admin-user"))[0]!;
    await user.click(within(ada).getByRole("button", { name: "Enlace de contraseña" }));
    await user.click(screen.getByTestId("admin-reset-link-confirm"));
    expect(await screen.findByText(/No se pudo crear el enlace/)).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });
});
