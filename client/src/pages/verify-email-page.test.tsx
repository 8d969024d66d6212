import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { VerifyEmailPage } from "@/pages/verify-email-page";
import { ada, anonymousResponse, jsonResponse, mockFetch } from "@/test/fixtures";
import { renderWithApp } from "@/test/render";

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
    expect(await screen.findByText("A new link is on its way to ada@example.test.")).toBeInTheDocument();
  });

  it("sends a visitor with an expired link to sign in first", async () => {
    mockFetch((url) => (url === "/api/auth/verify-email" ? jsonResponse(410, { message: "expired", code: "verify_link_expired" }) : anonymousResponse()));
    renderWithApp(<VerifyEmailPage />, { path: `/verify-email?token=${TOKEN}` });
    expect(await screen.findByRole("link", { name: "Sign in to get a new link" })).toHaveAttribute("href", "/login?next=%2Fdashboard");
  });

  it("tells a used link from an invalid one, and never sends a malformed token", async () => {
    mockFetch((url) => (url === "/api/auth/verify-email" ? jsonResponse(410, { message: "used", code: "verify_link_used" }) : anonymousResponse()));
    const { unmount } = renderWithApp(<VerifyEmailPage />, { path: `/verify-email?token=${TOKEN}` });
    expect(await screen.findByRole("heading", { name: "This link has already been used" })).toBeInTheDocument();
    unmount();

    const fetchMock = mockFetch(() => anonymousResponse());
    renderWithApp(<VerifyEmailPage />, { path: "/verify-email?token=cut" });
    expect(await screen.findByRole("heading", { name: "This link is not valid" })).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => String(url) === "/api/auth/verify-email")).toHaveLength(0);
  });
});
