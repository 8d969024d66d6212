import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import i18n from "@/lib/i18n";
import { ForgotPasswordPage } from "@/features/accounts/forgot-password-page";
import { LoginPage } from "@/features/accounts/login-page";
import { ResetPasswordPage } from "@/features/accounts/reset-password-page";
import { jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

const TOKEN = "Q".repeat(43);
const accepted = () => jsonResponse(202, { message: "If this address is the verified e-mail of an account, a link to choose a new password is on its way." });

describe("ForgotPasswordPage", () => {
  it("is linked from the login screen", async () => {
    renderWithApp(<LoginPage />, { path: "/login" });
    expect(await screen.findByRole("link", { name: "Forgot password?" })).toHaveAttribute("href", "/forgot-password");
  });

  it("checks the address before calling the server", async () => {
    const fetchMock = mockFetch(accepted);
    const { user } = renderWithApp(<ForgotPasswordPage />, { path: "/forgot-password" });
    await user.type(screen.getByLabelText("Email"), "not-an-address");
    await user.click(screen.getByTestId("forgot-password-submit"));
    expect(screen.getByLabelText("Email")).toHaveAttribute("aria-invalid", "true");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("sends the address and says the same thing whatever the answer holds, with what to do without a mail", async () => {
    const fetchMock = mockFetch(accepted);
    const { user } = renderWithApp(<ForgotPasswordPage />, { path: "/forgot-password" });
    await user.type(screen.getByLabelText("Email"), " ana@example.test ");
    await user.click(screen.getByTestId("forgot-password-submit"));

    expect(await screen.findByRole("heading", { name: "Check your e-mail" })).toBeInTheDocument();
    expect(screen.getByText(/If ana@example\.test is the verified address of a Plume account/)).toBeInTheDocument();
    expect(screen.getByTestId("forgot-password-sent")).toHaveTextContent("ask the administrator for a reset link");
    expect(fetchMock).toHaveBeenCalledWith("/api/auth/forgot-password", expect.objectContaining({ method: "POST", body: JSON.stringify({ email: "ana@example.test" }) }));
  });

  it("tells a refusal by the limits in the reader's language", async () => {
    await i18n.changeLanguage("fr");
    mockFetch(() => jsonResponse(429, { message: "Too many password reset requests for this address. Try again in 60 minutes.", code: "rate_limited" }));
    const { user } = renderWithApp(<ForgotPasswordPage />, { path: "/forgot-password" });
    expect(screen.getByRole("heading", { name: "Mot de passe oublié ?" })).toBeInTheDocument();
    await user.type(screen.getByLabelText("E-mail"), "ana@example.test");
    await user.click(screen.getByTestId("forgot-password-submit"));
    expect(await screen.findAllByText("Trop de tentatives. Patientez un instant avant de réessayer.")).not.toHaveLength(0);
  });
});

describe("ResetPasswordPage", () => {
  it("refuses a link without a token before anything is typed, and offers a new one", () => {
    renderWithApp(<ResetPasswordPage />, { path: "/reset-password?token=short" });
    expect(screen.getByText("This reset link is not valid. Ask for a new one.")).toHaveAttribute("role", "alert");
    expect(screen.getByRole("link", { name: "Ask for a new link" })).toHaveAttribute("href", "/forgot-password");
    expect(screen.queryByLabelText("New password")).not.toBeInTheDocument();
  });

  it("checks the password rules and the confirmation before calling the server", async () => {
    const fetchMock = mockFetch(() => new Response(null, { status: 204 }));
    const { user } = renderWithApp(<ResetPasswordPage />, { path: `/reset-password?token=${TOKEN}` });
    await user.type(await screen.findByLabelText("New password"), "abc");
    await user.type(screen.getByLabelText("Confirm new password"), "abd");
    await user.click(screen.getByTestId("reset-password-submit"));
    expect(screen.getByLabelText("New password")).toHaveAccessibleDescription(/Password must be at least 6 characters/);
    // Only the link's check, as the page opened.
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual([`/api/auth/reset-password/check?token=${TOKEN}`]);
  });

  it("says a used link is used as the page opens, before showing any field", async () => {
    mockFetch((url) => (url.startsWith("/api/auth/reset-password/check") ? jsonResponse(410, { message: "used", code: "reset_link_used" }) : jsonResponse(404, {})));
    renderWithApp(<ResetPasswordPage />, { path: `/reset-password?token=${TOKEN}` });
    expect(screen.getByText("Checking your link…")).toHaveAttribute("role", "status");
    expect(screen.queryByLabelText("New password")).not.toBeInTheDocument();
    expect(await screen.findByText("This reset link has already been used. Ask for a new one.")).toHaveAttribute("role", "alert");
    expect(screen.queryByLabelText("New password")).not.toBeInTheDocument();
  });

  it("sets the new password with the link's token, then sends to the login screen", async () => {
    const fetchMock = mockFetch(() => new Response(null, { status: 204 }));
    const { user } = renderWithApp(<ResetPasswordPage />, { path: `/reset-password?token=${TOKEN}` });
    await user.type(await screen.findByLabelText("New password"), "brand-new-pass");
    await user.type(screen.getByLabelText("Confirm new password"), "brand-new-pass");
    await user.click(screen.getByTestId("reset-password-submit"));

    expect(await screen.findByRole("heading", { name: "Your password has been changed" })).toBeInTheDocument();
    expect(screen.getByTestId("reset-password-login")).toHaveAttribute("href", "/login");
    // One way to the sign-in, not two.
    expect(screen.getAllByRole("link", { name: /log in/i })).toHaveLength(1);
    expect(fetchMock).toHaveBeenCalledWith(
      "/api/auth/reset-password",
      expect.objectContaining({ method: "POST", body: JSON.stringify({ token: TOKEN, password: "brand-new-pass", confirmPassword: "brand-new-pass" }) }),
    );
  });

  it.each([
    ["en", 410, "reset_link_expired", "This reset link has expired. Ask for a new one."],
    ["es", 410, "reset_link_used", "Este enlace ya se usó. Pide uno nuevo."],
    ["fr", 400, "reset_link_invalid", "Ce lien n’est pas valide. Demandez-en un nouveau."],
  ])("says why the server refused the link, in the reader's language (%s, %s)", async (language, status, code, text) => {
    await i18n.changeLanguage(language);
    // The link looked usable as the page opened; the form's answer refuses it.
    mockFetch((url) => (url.startsWith("/api/auth/reset-password/check") ? new Response(null, { status: 204 }) : jsonResponse(status, { message: "refused", code })));
    const { user } = renderWithApp(<ResetPasswordPage />, { path: `/reset-password?token=${TOKEN}` });
    await user.type(await screen.findByLabelText(i18n.t("passwordReset.reset.password")), "brand-new-pass");
    await user.type(screen.getByLabelText(i18n.t("passwordReset.reset.confirmPassword")), "brand-new-pass");
    await user.click(screen.getByTestId("reset-password-submit"));
    expect(await screen.findByText(text)).toHaveAttribute("role", "alert");
    expect(screen.getByRole("link", { name: i18n.t("passwordReset.reset.askAgain") })).toHaveAttribute("href", "/forgot-password");
  });
});
