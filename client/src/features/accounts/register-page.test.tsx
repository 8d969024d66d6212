import { screen } from "@testing-library/react";
import type { UserEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { RegisterPage } from "@/features/accounts/register-page";
import { ada, jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp, shownAlerts } from "@client-test/render";

async function fillIn(user: UserEvent, { confirmPassword = "secret1", email = "" } = {}) {
  await user.type(screen.getByLabelText("First name"), "Ada");
  await user.type(screen.getByLabelText("Last name"), "Lovelace");
  await user.type(screen.getByLabelText("Username"), "ada");
  if (email) await user.type(screen.getByLabelText(/^Email/), email);
  await user.type(screen.getByLabelText("Password"), "secret1");
  await user.type(screen.getByLabelText("Confirm password"), confirmPassword);
}

describe("RegisterPage", () => {
  it("says so when the passwords do not match, without calling the server", async () => {
    const fetchMock = mockFetch(() => jsonResponse(201, ada));
    const { user } = renderWithApp(<RegisterPage />, { path: "/register" });

    await fillIn(user, { confirmPassword: "secret2" });
    await user.click(screen.getByTestId("register-submit"));

    expect(screen.getByLabelText("Confirm password")).toHaveAccessibleDescription("Passwords do not match");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("marks the optional e-mail field and hints the password rule", () => {
    renderWithApp(<RegisterPage />, { path: "/register" });
    expect(screen.getByLabelText("Email (optional)")).not.toBeRequired();
    expect(screen.getByLabelText("Password")).toHaveAccessibleDescription("Minimum 6 characters.");
  });

  it("puts the server's 'username taken' under the username field, and nowhere else", async () => {
    mockFetch(() =>
      jsonResponse(409, {
        message: "This username is already taken.",
        code: "username_taken",
        fields: { username: "errors.username_taken" },
      }),
    );
    const { user, history } = renderWithApp(<RegisterPage />, { path: "/register" });

    await fillIn(user);
    await user.click(screen.getByTestId("register-submit"));

    const username = screen.getByLabelText("Username");
    expect(await screen.findByText("This username is already taken", { selector: "p[id]" })).toBeInTheDocument();
    expect(username).toHaveAttribute("aria-invalid", "true");
    expect(username).toHaveAccessibleDescription("This username is already taken");
    expect(username).toHaveFocus();
    // The toaster's alert region stays empty: the field says it.
    expect(shownAlerts()).toEqual([]);
    expect(history).toEqual(["/register"]);
  });

  it("creates the account, leaving out an empty e-mail, and greets the new author", async () => {
    const fetchMock = mockFetch(() => jsonResponse(201, ada));
    const { user, history } = renderWithApp(<RegisterPage />, { path: "/register" });

    await fillIn(user);
    await user.click(screen.getByTestId("register-submit"));

    expect(await screen.findByText("Account created")).toBeInTheDocument();
    // The same words whether the address was free or another account's (docs/decisions/0054).
    expect(screen.getByText(/We sent a message to ada@example\.test: open it while signed in to confirm the address\./)).toBeInTheDocument();
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      firstName: "Ada",
      lastName: "Lovelace",
      username: "ada",
      password: "secret1",
      confirmPassword: "secret1",
    });
    expect(history.at(-1)).toBe("/");
  });
});
