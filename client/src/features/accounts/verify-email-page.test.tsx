import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { VerifyEmailPage } from "@/features/accounts/verify-email-page";
import { ada, anonymousResponse, jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

const TOKEN = "A".repeat(43);
const unverified = { ...ada, emailVerified: false };

describe("VerifyEmailPage", () => {
  it("spends the link once and says the address is verified", async () => {
    const fetchMock = mockFetch((url) =>
      url === "/api/auth/verify-email" ? jsonResponse(200, { email: "ada@example.test", verifiedAt: "2026-11-26T00:00:00.000Z" }) : jsonResponse(200, ada),
    );
    renderWithApp(<VerifyEmailPage />, { path: `/verify-email?token=${TOKEN}` });

    expect(await screen.findByRole("heading", { name: "Your e-mail address is verified" })).toBeInTheDocument();
    expect(screen.getByText(/ada@example\.test is now proven to be yours/)).toBeInTheDocument();
    expect(await screen.findByTestId("verify-email-dashboard")).toHaveTextContent("Go to my dashboard");
    const spends = fetchMock.mock.calls.filter(([url]) => String(url) === "/api/auth/verify-email");
    expect(spends).toHaveLength(1);
    expect(spends[0]![1]).toMatchObject({ method: "POST", body: JSON.stringify({ token: TOKEN }) });
  });

  it("offers a new link to a signed-in account whose link expired, and says where it went", async () => {
    mockFetch((url) => {
      if (url === "/api/auth/verify-email") return jsonResponse(410, { message: "expired", code: "verify_link_expired" });
      if (url === "/api/auth/verify-email/resend") return jsonResponse(202, { sentTo: "ada@example.test" });
      return jsonResponse(200, unverified);
    });
    const { user } = renderWithApp(<VerifyEmailPage />, { path: `/verify-email?token=${TOKEN}` });

    expect(await screen.findByRole("heading", { name: "This link has expired" })).toBeInTheDocument();
    await user.click(await screen.findByTestId("resend-verification"));
    expect(await screen.findByText("A new message is on its way to ada@example.test: open it while signed in to confirm the address.")).toBeInTheDocument();
  });

  // docs/decisions/0054: a link proves an address only in the session of the account it was made for.
  it("spends nothing for a visitor who is signed out, and sends them to sign in and back to the link", async () => {
    const fetchMock = mockFetch(() => anonymousResponse());
    renderWithApp(<VerifyEmailPage />, { path: `/verify-email?token=${TOKEN}` });
    expect(await screen.findByRole("heading", { name: "Sign in to confirm your address" })).toBeInTheDocument();
    expect(screen.getByTestId("verify-email-sign-in")).toHaveAttribute("href", `/login?next=${encodeURIComponent(`/verify-email?token=${TOKEN}`)}`);
    expect(fetchMock.mock.calls.filter(([url]) => String(url) === "/api/auth/verify-email")).toHaveLength(0);
  });

  it("says a link opened in another account's session confirmed nothing, and signs out on the way to sign in", async () => {
    const fetchMock = mockFetch((url) => {
      if (url === "/api/auth/verify-email") return jsonResponse(403, { message: "other", code: "verify_other_account" });
      if (url === "/api/auth/logout") return new Response(null, { status: 204 });
      return jsonResponse(200, ada);
    });
    const { user, history } = renderWithApp(<VerifyEmailPage />, { path: `/verify-email?token=${TOKEN}` });
    expect(await screen.findByRole("heading", { name: "This link is for another account" })).toBeInTheDocument();
    await user.click(await screen.findByTestId("verify-email-sign-out-and-in"));
    await vi.waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url) === "/api/auth/logout")).toBe(true));
    await vi.waitFor(() => expect(history.at(-1)).toBe(`/login?next=${encodeURIComponent(`/verify-email?token=${TOKEN}`)}`));
  });

  it("asks to sign in again when the session ended before the link was spent", async () => {
    mockFetch((url) => (url === "/api/auth/verify-email" ? jsonResponse(401, { message: "sign in", code: "verify_sign_in_required" }) : jsonResponse(200, unverified)));
    renderWithApp(<VerifyEmailPage />, { path: `/verify-email?token=${TOKEN}` });
    expect(await screen.findByRole("heading", { name: "Sign in to confirm your address" })).toBeInTheDocument();
  });

  it("tells a used link from an invalid one, and never sends a malformed token", async () => {
    mockFetch((url) => (url === "/api/auth/verify-email" ? jsonResponse(410, { message: "used", code: "verify_link_used" }) : jsonResponse(200, ada)));
    const { unmount } = renderWithApp(<VerifyEmailPage />, { path: `/verify-email?token=${TOKEN}` });
    expect(await screen.findByRole("heading", { name: "This link has already been used" })).toBeInTheDocument();
    unmount();

    const fetchMock = mockFetch(() => jsonResponse(200, ada));
    renderWithApp(<VerifyEmailPage />, { path: "/verify-email?token=cut" });
    expect(await screen.findByRole("heading", { name: "This link is not valid" })).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => String(url) === "/api/auth/verify-email")).toHaveLength(0);
  });
});
