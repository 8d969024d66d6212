import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { EmailVerificationNotice } from "@/features/accounts/email-verification-notice";
import { ada, jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

describe("EmailVerificationNotice", () => {
  it("tells an account with an unproven address so, and sends the link again", async () => {
    const fetchMock = mockFetch(() => jsonResponse(202, { sentTo: "ada@example.test" }));
    const { user } = renderWithApp(<EmailVerificationNotice user={{ ...ada, emailVerified: false }} />);

    expect(screen.getByRole("heading", { name: "Your e-mail address is not verified yet" })).toBeInTheDocument();
    expect(screen.getByText(/We sent a message to ada@example\.test: open it while signed in to this account/)).toBeInTheDocument();
    await user.click(screen.getByTestId("resend-verification"));
    expect(await screen.findByText("A new message is on its way to ada@example.test: open it while signed in to confirm the address.")).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith("/api/auth/verify-email/resend", expect.objectContaining({ method: "POST" }));
  });

  it("says why no link went out when the hour's links are used up", async () => {
    mockFetch(() => jsonResponse(429, { message: "Too many verification links asked for.", code: "rate_limited" }));
    const { user } = renderWithApp(<EmailVerificationNotice user={{ ...ada, emailVerified: false }} />);
    await user.click(screen.getByTestId("resend-verification"));
    expect(await screen.findByText(/^You asked for several links within the hour\./)).toHaveAttribute("role", "alert");
  });

  it("is not shown for a verified address", () => {
    renderWithApp(<EmailVerificationNotice user={ada} />);
    expect(screen.queryByTestId("email-verification-notice")).toBeNull();
    expect(screen.queryByTestId("add-email-notice")).toBeNull();
  });

  it("asks an account without an address to add one, in settings", () => {
    renderWithApp(<EmailVerificationNotice user={{ ...ada, email: null, emailVerified: false }} />);
    expect(screen.queryByTestId("email-verification-notice")).toBeNull();
    expect(screen.getByRole("heading", { name: "Add an e-mail address" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Add an address" })).toHaveAttribute("href", "/settings#email");
  });
});
