import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import i18n from "@/lib/i18n";
import { LoginPage } from "@/features/accounts/login-page";
import { ada, jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp, shownAlerts } from "@client-test/render";

describe("LoginPage", () => {
  it("shows the translated rule under each field and does not call the server", async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, ada));
    const { user } = renderWithApp(<LoginPage />, { path: "/login" });

    await user.type(screen.getByLabelText("Username or email"), "ad");
    await user.type(screen.getByLabelText("Password"), "12345");
    await user.click(screen.getByTestId("login-submit"));

    const username = screen.getByLabelText("Username or email");
    expect(username).toHaveAttribute("aria-invalid", "true");
    expect(username).toHaveAccessibleDescription("Username must be at least 3 characters");
    expect(screen.getByLabelText("Password")).toHaveAccessibleDescription("Password must be at least 6 characters");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the rules in the reader's language", async () => {
    await i18n.changeLanguage("es");
    mockFetch(() => jsonResponse(200, ada));
    const { user } = renderWithApp(<LoginPage />, { path: "/login" });

    await user.type(screen.getByLabelText("Usuario o email"), "ad");
    await user.click(screen.getByTestId("login-submit"));

    expect(await screen.findByText("El usuario debe tener al menos 3 caracteres")).toBeInTheDocument();
    expect(screen.getByText("La contraseña debe tener al menos 6 caracteres")).toBeInTheDocument();
  });

  it("disables the button with a pending label while the request runs", async () => {
    const fetchMock = mockFetch(() => new Promise<Response>(() => {}));
    const { user } = renderWithApp(<LoginPage />, { path: "/login" });

    await user.type(screen.getByLabelText("Username or email"), "  ada  ");
    await user.type(screen.getByLabelText("Password"), "secret1");
    await user.click(screen.getByTestId("login-submit"));

    const button = await screen.findByTestId("login-submit");
    expect(button).toBeDisabled();
    expect(button).toHaveTextContent("Logging in…");
    expect(fetchMock).toHaveBeenCalledWith(
      "/api/auth/login",
      expect.objectContaining({ method: "POST", body: JSON.stringify({ username: "ada", password: "secret1" }) }),
    );
  });

  it("reports wrong credentials once, in the form, and in no toast", async () => {
    mockFetch(() => jsonResponse(401, { message: "Invalid username, e-mail or password.", code: "invalid_credentials" }));
    const { user, history } = renderWithApp(<LoginPage />, { path: "/login" });

    await user.type(screen.getByLabelText("Username or email"), "ada");
    await user.type(screen.getByLabelText("Password"), "wrong-password");
    await user.click(screen.getByTestId("login-submit"));

    await waitFor(() => expect(shownAlerts()).toEqual(["Invalid username, email or password."]));
    expect(screen.queryByText("Error")).not.toBeInTheDocument();
    expect(screen.getByTestId("login-submit")).toBeEnabled();
    expect(history).toEqual(["/login"]);
  });

  it.each([
    ["en", 429, "rate_limited", "Too many attempts. Please wait a moment and try again."],
    ["es", 429, "rate_limited", "Demasiados intentos. Espera un momento y vuelve a intentarlo."],
    ["fr", 429, "rate_limited", "Trop de tentatives. Patientez un instant avant de réessayer."],
    ["fr", 503, "server_busy", "Le serveur est occupé. Réessayez dans quelques secondes."],
  ])("tells a sign-in refused by the server's limits in the reader's language (%s, %i)", async (language, status, code, text) => {
    await i18n.changeLanguage(language);
    mockFetch(() => jsonResponse(status, { message: "Too many failed sign-ins for this account. Try again in 15 minutes.", code }));
    const { user } = renderWithApp(<LoginPage />, { path: "/login" });

    await user.type(screen.getByLabelText(i18n.t("auth.login.username")), "ada");
    await user.type(screen.getByLabelText(i18n.t("auth.login.password")), "secret1");
    await user.click(screen.getByTestId("login-submit"));

    expect(await screen.findAllByText(text)).not.toHaveLength(0);
    expect(screen.getByTestId("login-submit")).toBeEnabled();
  });

  it("signs in, welcomes the user and returns to the page in ?next=", async () => {
    mockFetch(() => jsonResponse(200, ada));
    const { user, history, queryClient } = renderWithApp(<LoginPage />, { path: "/login?next=%2Fdashboard%3Ftab%3Dauthor" });

    await user.type(screen.getByLabelText("Username or email"), "ada@example.test");
    await user.type(screen.getByLabelText("Password"), "secret1");
    await user.click(screen.getByTestId("login-submit"));

    expect(await screen.findByText("Welcome back!")).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("You are signed in as Ada Lovelace.");
    expect(history.at(-1)).toBe("/dashboard?tab=author");
    expect(queryClient.getQueryData(["/api/auth/user"])).toEqual(ada);
  });

  it("never follows a ?next= that leaves the site", async () => {
    mockFetch(() => jsonResponse(200, ada));
    const { user, history } = renderWithApp(<LoginPage />, { path: "/login?next=%2F%2Fevil.test%2Fsteal" });

    await user.type(screen.getByLabelText("Username or email"), "ada");
    await user.type(screen.getByLabelText("Password"), "secret1");
    await user.click(screen.getByTestId("login-submit"));

    await screen.findByText("Welcome back!");
    expect(history.at(-1)).toBe("/");
  });
});
