import type { AccountDeletionPreview, AccountSession } from "@shared/account-settings";
import type { ApiErrorBody } from "@shared/api-error";
import type { CurrentUser } from "@shared/auth";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { App } from "@/App";
import { formatDateTime } from "@/features/settings/sessions-section";
import { CURRENT_USER_QUERY_KEY } from "@/features/accounts";
import i18n from "@/lib/i18n";
import { pageNavigation } from "@/lib/login-redirect";
import { SettingsPage } from "@/features/settings/settings-page";
import { ada, anonymousResponse, jsonResponse, mockFetch } from "@client-test/fixtures";
import { localChainConfig } from "@client-test/fake-ethereum";
import { renderWithApp, shownAlerts } from "@client-test/render";

const CHROME_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const FIREFOX_ON_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI_ON_IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

const session = (id: string, overrides: Partial<AccountSession> = {}): AccountSession => ({
  id: id.repeat(32).slice(0, 32),
  current: false,
  signedInAt: "2026-11-20T09:15:00.000Z",
  lastActiveAt: "2026-11-25T18:40:00.000Z",
  userAgent: CHROME_ON_WINDOWS,
  ...overrides,
});

const refusal = (status: number, code: string, fields?: Record<string, string>) => (): Response =>
  jsonResponse(status, { message: `Refused: ${code}.`, code, ...(fields ? { fields } : {}) } satisfies ApiErrorBody);

interface AccountServer {
  user?: CurrentUser;
  sessions?: AccountSession[];
  preview?: AccountDeletionPreview;
  /** An answer that replaces the server's own for one "METHOD url". */
  refuse?: Record<string, () => Response>;
}

/** The /api/account routes in memory: what the screen sends, and the account as the server keeps it. */
function fakeAccountServer({ user: startUser = ada, sessions: startSessions, preview = { books: 0, owedPayments: 0, owedAmount: "0.00", walletAddress: null }, refuse = {} }: AccountServer = {}) {
  let user = startUser;
  let sessions = startSessions ?? [session("a", { current: true, userAgent: FIREFOX_ON_LINUX }), session("b"), session("c", { userAgent: SAFARI_ON_IPHONE, signedInAt: null })];
  const body = (init: RequestInit | undefined) => JSON.parse(String(init?.body)) as Record<string, unknown>;
  const fetchMock = mockFetch((url, init) => {
    const method = init?.method ?? "GET";
    const refused = refuse[`${method} ${url}`];
    if (refused) return refused();
    if (url === "/api/auth/user") return jsonResponse(200, user);
    if (url === "/api/e-reader-keys") return jsonResponse(200, []);
    if (url === "/api/config") return jsonResponse(200, localChainConfig);
    if (url === "/api/account/e-reader-email" && method === "PUT") {
      user = { ...user, eReaderEmail: (body(init).eReaderEmail as string | null) ?? null };
      return jsonResponse(200, user);
    }
    if (url === "/api/auth/language" && method === "PUT") return new Response(null, { status: 204 });
    if (url === "/api/account/profile" && method === "PATCH") {
      user = { ...user, ...body(init) };
      return jsonResponse(200, user);
    }
    if (url === "/api/account/email" && method === "PUT") {
      user = { ...user, email: String(body(init).email), emailVerified: false };
      return jsonResponse(200, user);
    }
    if (url === "/api/account/password" && method === "PUT") {
      sessions = sessions.filter((listed) => listed.current);
      return new Response(null, { status: 204 });
    }
    if (url === "/api/account/explicit-books" && method === "PUT") {
      user = { ...user, showExplicit: Boolean(body(init).showExplicit) };
      return jsonResponse(200, user);
    }
    if (url === "/api/account/notifications" && method === "PUT") {
      user = { ...user, notifyPaymentCompleted: Boolean(body(init).paymentCompleted) };
      return jsonResponse(200, user);
    }
    if (url === "/api/account/sessions") return jsonResponse(200, { sessions });
    if (url === "/api/account/sessions/sign-out-others" && method === "POST") {
      const signedOut = sessions.filter((listed) => !listed.current).length;
      sessions = sessions.filter((listed) => listed.current);
      return jsonResponse(200, { signedOut });
    }
    const ended = sessions.find((listed) => url === `/api/account/sessions/${listed.id}`);
    if (ended && method === "DELETE") {
      sessions = sessions.filter((listed) => listed !== ended);
      return new Response(null, { status: 204 });
    }
    if (url === "/api/account/deletion-preview") return jsonResponse(200, preview);
    if (url === "/api/account" && method === "DELETE") return new Response(null, { status: 204 });
    return jsonResponse(404, { message: "Not found.", code: "not_found" });
  });
  const callsTo = (method: string, url: string) => fetchMock.mock.calls.filter(([calledUrl, init]) => calledUrl === url && (init?.method ?? "GET") === method);
  const sentTo = (method: string, url: string) => callsTo(method, url).map(([, init]) => body(init));
  return { fetchMock, callsTo, sentTo };
}

function renderSettings() {
  const view = renderWithApp(<SettingsPage />, { path: "/settings" });
  return { ...view, ready: screen.findByRole("heading", { level: 1, name: i18n.t("settings.title") }) };
}

const section = (name: string | RegExp) => screen.getByRole("region", { name });

describe("SettingsPage: its sections", () => {
  it("folds the list of its sections at the top for a phone, each a link to its place, closing once one is chosen", async () => {
    fakeAccountServer();
    const { ready, user } = renderSettings();
    await ready;
    const folded = screen.getByTestId("settings-sections-phone");
    const summary = within(folded).getByText(/^Go to a section \(\d+\)$/);
    await user.click(summary);
    expect(folded).toHaveAttribute("open");
    const email = within(folded).getByRole("link", { name: "Email address" });
    expect(email).toHaveAttribute("href", "#email");
    // The jump itself is the browser's (jsdom scrolls nothing): only the list's closing is the page's.
    email.addEventListener("click", (event) => event.preventDefault());
    await user.click(email);
    expect(folded).not.toHaveAttribute("open");
  });
});

describe("SettingsPage: profile", () => {
  it("saves the names and username, and the whole app shows the saved account", async () => {
    const server = fakeAccountServer();
    const { user, queryClient, ready } = renderSettings();
    await ready;
    const profile = section("Profile");
    expect(within(profile).getByLabelText("First name")).toHaveValue("Ada");
    expect(within(profile).getByLabelText("Username")).toHaveValue("ada");

    await user.clear(within(profile).getByLabelText("Last name"));
    await user.type(within(profile).getByLabelText("Last name"), "King");
    await user.clear(within(profile).getByLabelText("Username"));
    await user.type(within(profile).getByLabelText("Username"), "ada.king");
    await user.click(within(profile).getByTestId("profile-submit"));

    expect(await within(profile).findByTestId("profile-saved")).toHaveTextContent("Your profile is saved.");
    expect(server.sentTo("PATCH", "/api/account/profile")).toEqual([{ firstName: "Ada", lastName: "King", username: "ada.king" }]);
    expect(queryClient.getQueryData<CurrentUser>(CURRENT_USER_QUERY_KEY)).toMatchObject({ lastName: "King", username: "ada.king" });
    // Once the form is changed again, it no longer says it is saved.
    await user.type(within(profile).getByLabelText("First name"), "x");
    expect(within(profile).getByTestId("profile-saved")).toBeEmptyDOMElement();
  });

  it("puts a taken username under the username field, and nothing else", async () => {
    fakeAccountServer({ refuse: { "PATCH /api/account/profile": refusal(409, "username_taken", { username: "errors.username_taken" }) } });
    const { user, ready } = renderSettings();
    await ready;
    const profile = section("Profile");
    await user.clear(within(profile).getByLabelText("Username"));
    await user.type(within(profile).getByLabelText("Username"), "grace");
    await user.click(within(profile).getByTestId("profile-submit"));

    const username = within(profile).getByLabelText("Username");
    await waitFor(() => expect(username).toHaveAccessibleDescription(expect.stringContaining("This username is already taken")));
    expect(username).toHaveFocus();
    expect(shownAlerts()).toEqual([]);
    expect(within(profile).getByTestId("profile-saved")).toBeEmptyDOMElement();
  });

  it("checks the names with the shared rules before sending anything", async () => {
    const server = fakeAccountServer();
    const { user, ready } = renderSettings();
    await ready;
    const profile = section("Profile");
    await user.clear(within(profile).getByLabelText("First name"));
    await user.click(within(profile).getByTestId("profile-submit"));
    expect(await within(profile).findByText("First name is required")).toBeInTheDocument();
    expect(server.callsTo("PATCH", "/api/account/profile")).toEqual([]);
  });
});

describe("SettingsPage: language", () => {
  it("switches the interface and the account's mail language together", async () => {
    const server = fakeAccountServer();
    const { user, ready } = renderSettings();
    await ready;
    expect(section("Language")).toHaveTextContent("Plume's screens and the mail we send you are in this language.");

    await user.selectOptions(screen.getByLabelText("Interface language"), "fr");

    expect(await screen.findByRole("heading", { level: 1, name: "Paramètres" })).toBeInTheDocument();
    expect(screen.getByLabelText("Langue de l’interface")).toHaveValue("fr");
    await waitFor(() => expect(server.sentTo("PUT", "/api/auth/language")).toEqual([{ language: "fr" }]));
  });
});

describe("SettingsPage: e-mail", () => {
  it("shows the current address as verified", async () => {
    fakeAccountServer();
    const { ready } = renderSettings();
    await ready;
    const current = within(section("Email address")).getByTestId("current-email");
    expect(current).toHaveTextContent("ada@example.test");
    expect(current).toHaveTextContent("Verified");
    expect(within(current).queryByTestId("resend-verification")).not.toBeInTheDocument();
  });

  it("changes the address, then says a link went to it and shows it unverified with a way to send the link again", async () => {
    const server = fakeAccountServer();
    const { user, ready } = renderSettings();
    await ready;
    const email = section("Email address");
    await user.type(within(email).getByLabelText("New email address"), "ada@new.example");
    await user.type(within(email).getByLabelText("Current password"), "secret1");
    await user.click(within(email).getByTestId("email-submit"));

    expect(await within(email).findByTestId("email-sent")).toHaveTextContent("We sent a message to ada@new.example: open it while signed in to confirm the address. Until then, the address is not verified.");
    expect(server.sentTo("PUT", "/api/account/email")).toEqual([{ email: "ada@new.example", currentPassword: "secret1" }]);
    const current = within(email).getByTestId("current-email");
    expect(current).toHaveTextContent("ada@new.example");
    expect(current).toHaveTextContent("Not verified");
    expect(within(current).getByTestId("resend-verification")).toHaveTextContent("Send the link again");
    expect(within(email).getByLabelText("Current password")).toHaveValue("");
  });

  it("puts a wrong password under the password field", async () => {
    const server = fakeAccountServer({ refuse: { "PUT /api/account/email": refusal(400, "wrong_password", { currentPassword: "errors.wrong_password" }) } });
    const { user, ready } = renderSettings();
    await ready;
    const email = section("Email address");
    await user.type(within(email).getByLabelText("New email address"), "ada@new.example");
    await user.type(within(email).getByLabelText("Current password"), "wrong-one");
    await user.click(within(email).getByTestId("email-submit"));
    await waitFor(() => expect(within(email).getByLabelText("Current password")).toHaveAccessibleDescription("That is not your current password."));
    expect(within(email).getByTestId("current-email")).toHaveTextContent("ada@example.test");
    expect(server.callsTo("PUT", "/api/account/email")).toHaveLength(1);
    expect(shownAlerts()).toEqual([]);
  });

  it("says when the new address is the current one", async () => {
    fakeAccountServer({ refuse: { "PUT /api/account/email": refusal(400, "email_unchanged", { email: "errors.email_unchanged" }) } });
    const { user, ready } = renderSettings();
    await ready;
    const email = section("Email address");
    await user.type(within(email).getByLabelText("New email address"), "ada@example.test");
    await user.type(within(email).getByLabelText("Current password"), "secret1");
    await user.click(within(email).getByTestId("email-submit"));
    await waitFor(() => expect(within(email).getByLabelText("New email address")).toHaveAccessibleDescription("This is already your email address."));
    expect(within(email).getByTestId("email-sent")).toBeEmptyDOMElement();
  });

  it("offers to add an address to an account without one", async () => {
    fakeAccountServer({ user: { ...ada, email: null, emailVerified: false } });
    const { ready } = renderSettings();
    await ready;
    const email = section("Email address");
    expect(email).toHaveTextContent("Your account has no email address.");
    expect(within(email).getByLabelText("Email address")).toBeInTheDocument();
    expect(within(email).getByTestId("email-submit")).toHaveTextContent("Add email");
    expect(within(email).queryByTestId("resend-verification")).not.toBeInTheDocument();
  });
});

describe("SettingsPage: password", () => {
  it("changes the password, says every other device was signed out, and shows the list without them", async () => {
    const server = fakeAccountServer();
    const { user, ready } = renderSettings();
    await ready;
    expect(await screen.findAllByTestId("account-session")).toHaveLength(3);
    const password = section("Password");
    await user.type(within(password).getByLabelText("Current password"), "secret1");
    await user.type(within(password).getByLabelText("New password"), "better-secret");
    await user.type(within(password).getByLabelText("Confirm the new password"), "better-secret");
    await user.click(within(password).getByTestId("password-submit"));

    expect(await within(password).findByTestId("password-changed")).toHaveTextContent("Password changed. Every other device was signed out.");
    expect(server.sentTo("PUT", "/api/account/password")).toEqual([{ currentPassword: "secret1", password: "better-secret", confirmPassword: "better-secret" }]);
    await waitFor(() => expect(screen.getAllByTestId("account-session")).toHaveLength(1));
    expect(section("Signed-in devices")).toHaveTextContent("You are signed in on this device only.");
    expect(within(password).getByLabelText("New password")).toHaveValue("");
  });

  it("checks the new password twice before sending anything", async () => {
    const server = fakeAccountServer();
    const { user, ready } = renderSettings();
    await ready;
    const password = section("Password");
    await user.type(within(password).getByLabelText("Current password"), "secret1");
    await user.type(within(password).getByLabelText("New password"), "better-secret");
    await user.type(within(password).getByLabelText("Confirm the new password"), "better-secrt");
    await user.click(within(password).getByTestId("password-submit"));
    expect(await within(password).findByText("Passwords do not match")).toBeInTheDocument();
    expect(server.callsTo("PUT", "/api/account/password")).toEqual([]);
  });

  it("puts a wrong current password under its field, and says when there were too many tries", async () => {
    fakeAccountServer({ refuse: { "PUT /api/account/password": refusal(400, "wrong_password", { currentPassword: "errors.wrong_password" }) } });
    const { user, ready } = renderSettings();
    await ready;
    const password = section("Password");
    await user.type(within(password).getByLabelText("Current password"), "nope-nope");
    await user.type(within(password).getByLabelText("New password"), "better-secret");
    await user.type(within(password).getByLabelText("Confirm the new password"), "better-secret");
    await user.click(within(password).getByTestId("password-submit"));
    const current = within(password).getByLabelText("Current password");
    await waitFor(() => expect(current).toHaveAccessibleDescription("That is not your current password."));
    expect(current).toHaveFocus();
    expect(within(password).getByTestId("password-changed")).toBeEmptyDOMElement();

    fakeAccountServer({ refuse: { "PUT /api/account/password": refusal(429, "rate_limited") } });
    await user.click(within(password).getByTestId("password-submit"));
    expect(await within(password).findByRole("alert")).toHaveTextContent("Too many attempts. Please wait a moment and try again.");
  });
});

describe("SettingsPage: signed-in devices", () => {
  it("names each device, this one first with its badge, with when it signed in and was last active", async () => {
    fakeAccountServer({ sessions: [session("b"), session("a", { current: true, userAgent: FIREFOX_ON_LINUX }), session("c", { userAgent: SAFARI_ON_IPHONE, signedInAt: null }), session("d", { userAgent: null })] });
    const { ready } = renderSettings();
    await ready;
    const rows = await screen.findAllByTestId("account-session");
    expect(rows.map((row) => row.querySelector("p")?.textContent)).toEqual(["Firefox on LinuxThis device", "Chrome on Windows", "Safari on iPhone", "Unknown browser"]);
    const [current, chrome, safari] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(current).toHaveTextContent(`Signed in ${formatDateTime("2026-11-20T09:15:00.000Z", "en")}`);
    expect(chrome).toHaveTextContent(`Last active ${formatDateTime("2026-11-25T18:40:00.000Z", "en")}`);
    expect(safari).not.toHaveTextContent("Signed in");
    expect(within(current).queryByRole("button")).not.toBeInTheDocument();
    expect(within(chrome).getByRole("button", { name: "Sign out: Chrome on Windows" })).toBeInTheDocument();
  });

  it("signs out one other device, then every other one", async () => {
    const server = fakeAccountServer({
      sessions: [session("a", { current: true }), session("b", { userAgent: FIREFOX_ON_LINUX }), session("c", { userAgent: SAFARI_ON_IPHONE }), session("d", { userAgent: null })],
    });
    const { user, ready } = renderSettings();
    await ready;
    const devices = section("Signed-in devices");
    await user.click(await within(devices).findByRole("button", { name: "Sign out: Firefox on Linux" }));

    expect(await within(devices).findByTestId("sessions-saved")).toHaveTextContent("That device is signed out.");
    expect(server.callsTo("DELETE", `/api/account/sessions/${"b".repeat(32)}`)).toHaveLength(1);
    await waitFor(() => expect(within(devices).getAllByTestId("account-session")).toHaveLength(3));

    await user.click(within(devices).getByTestId("sign-out-others"));
    await waitFor(() => expect(within(devices).getByTestId("sessions-saved")).toHaveTextContent("2 other devices were signed out."));
    expect(server.callsTo("POST", "/api/account/sessions/sign-out-others")).toHaveLength(1);
    await waitFor(() => expect(within(devices).getAllByTestId("account-session")).toHaveLength(1));
    expect(within(devices).queryByTestId("sign-out-others")).not.toBeInTheDocument();
  });

  it("says why a device could not be signed out, once", async () => {
    fakeAccountServer({ refuse: { [`DELETE /api/account/sessions/${"b".repeat(32)}`]: refusal(400, "current_session") } });
    const { user, ready } = renderSettings();
    await ready;
    const devices = section("Signed-in devices");
    await user.click(await within(devices).findByRole("button", { name: "Sign out: Chrome on Windows" }));
    expect(await within(devices).findByRole("alert")).toHaveTextContent("This is the device you are using: log out from the menu instead.");
    expect(shownAlerts()).toHaveLength(1);
  });
});

describe("SettingsPage: e-reader keys, notifications and data", () => {
  it("holds the e-reader keys that used to be on the dashboard, where /settings#e-readers leads", async () => {
    fakeAccountServer();
    const { ready } = renderSettings();
    await ready;
    const eReaders = document.getElementById("e-readers");
    expect(eReaders).toContainElement(screen.getByRole("region", { name: "Keys for your devices" }));
    expect(await within(eReaders!).findByText("You have no keys yet.")).toBeInTheDocument();
  });

  it("scrolls to the section the address names once the devices above it are listed", async () => {
    window.history.replaceState(null, "", "/settings#e-readers");
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    try {
      fakeAccountServer();
      const { ready } = renderSettings();
      await ready;
      await waitFor(() => expect(scrolled).toEqual([document.getElementById("e-readers")]));
      expect(screen.getAllByTestId("account-session")).toHaveLength(3);
    } finally {
      window.history.replaceState(null, "", "/");
      delete (Element.prototype as Partial<Element>).scrollIntoView;
    }
  });

  it("turns the payment mail off and on, saving at each change", async () => {
    const server = fakeAccountServer();
    const { user, ready } = renderSettings();
    await ready;
    const notifications = section("Notifications");
    const checkbox = within(notifications).getByRole("checkbox", { name: "Mail me when a payment is sent to my wallet" });
    expect(checkbox).toBeChecked();

    await user.click(checkbox);
    expect(await within(notifications).findByText("Saved: you will not get payment mails.")).toBeInTheDocument();
    expect(checkbox).not.toBeChecked();
    await user.click(checkbox);
    expect(await within(notifications).findByText("Saved: you will get a mail for each payment.")).toBeInTheDocument();
    expect(checkbox).toBeChecked();
    expect(server.sentTo("PUT", "/api/account/notifications")).toEqual([{ paymentCompleted: false }, { paymentCompleted: true }]);
  });

  it("shows explicit books once the reader chooses them, off until then", async () => {
    const server = fakeAccountServer();
    const { user, ready } = renderSettings();
    await ready;
    const explicit = section("Explicit books");
    const checkbox = within(explicit).getByRole("checkbox", { name: "Show books rated explicit" });
    expect(checkbox).not.toBeChecked();
    expect(checkbox).toHaveAccessibleDescription(/explicit books are left out of the catalog/);

    await user.click(checkbox);
    expect(await within(explicit).findByText("Saved: explicit books are shown to you.")).toBeInTheDocument();
    expect(checkbox).toBeChecked();
    await user.click(checkbox);
    expect(await within(explicit).findByText("Saved: explicit books are hidden from you.")).toBeInTheDocument();
    expect(server.sentTo("PUT", "/api/account/explicit-books")).toEqual([{ showExplicit: true }, { showExplicit: false }]);
  });

  it("puts the box back and says so when the choice could not be saved", async () => {
    fakeAccountServer({ refuse: { "PUT /api/account/notifications": refusal(500, "internal_error") } });
    const { user, ready } = renderSettings();
    await ready;
    const checkbox = screen.getByRole("checkbox", { name: "Mail me when a payment is sent to my wallet" });
    await user.click(checkbox);
    expect(await within(section("Notifications")).findByRole("alert")).toHaveTextContent("Something went wrong on our side.");
    expect(checkbox).toBeChecked();
  });

  it("downloads the data export as a plain link the browser saves", async () => {
    fakeAccountServer();
    const { ready } = renderSettings();
    await ready;
    const link = within(section("Your data")).getByRole("link", { name: "Download my data" });
    expect(link).toHaveAttribute("href", "/api/account/export");
    expect(link).toHaveAttribute("download");
  });
});

describe("SettingsPage: send to e-reader", () => {
  it("explains a Kindle's address and the sender to approve, saves the address, and removes it", async () => {
    const server = fakeAccountServer();
    const { user, queryClient, ready } = renderSettings();
    await ready;
    const eReader = section("Send to e-reader");
    expect(within(eReader).getByTestId("e-reader-email-current")).toHaveTextContent("No address yet");
    expect(within(eReader).getByText(/ends in @kindle\.com \(or @free\.kindle\.com\)/)).toBeInTheDocument();
    expect(within(eReader).getByText(/Approved Personal Document E-mail List/)).toBeInTheDocument();
    expect(await within(eReader).findByTestId("mail-sender")).toHaveTextContent("no-reply@plume.example");
    expect(within(eReader).getByText(/Kobo e-readers take no books by mail/)).toHaveTextContent("@pbsync.com");
    expect(within(eReader).queryByTestId("e-reader-email-clear")).not.toBeInTheDocument();

    const field = within(eReader).getByLabelText("Your e-reader's e-mail address");
    await user.type(field, "ada_42@kindle.com");
    await user.click(within(eReader).getByTestId("e-reader-email-submit"));
    expect(await within(eReader).findByText("Saved: books are sent to ada_42@kindle.com.")).toBeInTheDocument();
    expect(within(eReader).getByTestId("e-reader-email-current")).toHaveTextContent("Books are sent to ada_42@kindle.com.");
    expect(queryClient.getQueryData<CurrentUser>(CURRENT_USER_QUERY_KEY)).toMatchObject({ eReaderEmail: "ada_42@kindle.com" });

    await user.click(within(eReader).getByTestId("e-reader-email-clear"));
    expect(await within(eReader).findByText("Removed: no book is sent by mail.")).toBeInTheDocument();
    expect(field).toHaveValue("");
    expect(server.sentTo("PUT", "/api/account/e-reader-email")).toEqual([{ eReaderEmail: "ada_42@kindle.com" }, { eReaderEmail: "" }]);
  });

  it("refuses what is not an address in the browser, and shows the server's refusal on the field", async () => {
    const server = fakeAccountServer({ refuse: { "PUT /api/account/e-reader-email": refusal(400, "validation_failed", { eReaderEmail: "validation.emailInvalid" }) } });
    const { user, ready } = renderSettings();
    await ready;
    const eReader = section("Send to e-reader");
    const field = within(eReader).getByLabelText("Your e-reader's e-mail address");
    await user.type(field, "ada.kindle.com");
    await user.click(within(eReader).getByTestId("e-reader-email-submit"));
    expect(await within(eReader).findByText(i18n.t("validation.emailInvalid"))).toBeInTheDocument();
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(server.sentTo("PUT", "/api/account/e-reader-email")).toEqual([]);

    await user.clear(field);
    await user.type(field, "ada@kindle.com");
    await user.click(within(eReader).getByTestId("e-reader-email-submit"));
    await waitFor(() => expect(server.sentTo("PUT", "/api/account/e-reader-email")).toEqual([{ eReaderEmail: "ada@kindle.com" }]));
    expect(await within(eReader).findByText(i18n.t("validation.emailInvalid"))).toBeInTheDocument();
    expect(within(eReader).getByTestId("e-reader-email-saved")).toBeEmptyDOMElement();
  });
});

describe("SettingsPage: deleting the account", () => {
  async function openDeletion(preview: AccountDeletionPreview, refuse: AccountServer["refuse"] = {}) {
    const server = fakeAccountServer({ preview, refuse });
    const view = renderSettings();
    await view.ready;
    await view.user.click(screen.getByTestId("delete-account"));
    const dialog = screen.getByRole("alertdialog", { name: i18n.t("settings.delete.dialogTitle") });
    return { ...view, server, dialog, preview: await within(dialog).findByTestId("deletion-preview") };
  }

  it("says the books go, what is deleted and kept, and that owed PME go to the connected wallet", async () => {
    const { preview } = await openDeletion({ books: 3, owedPayments: 2, owedAmount: "2.00", walletAddress: WALLET });
    expect(within(preview).getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "Your 3 books will be withdrawn from the catalog and their files removed.",
      "Your ratings, reading places, e-reader keys and sessions are deleted.",
      "Your payment history and download counts are kept, without your name or email address.",
      `2.00 PME still owed to you will be sent to ${WALLET}.`,
    ]);
  });

  it("warns that owed PME are forfeited without a wallet", async () => {
    const { preview } = await openDeletion({ books: 1, owedPayments: 1, owedAmount: "1.00", walletAddress: null });
    expect(preview).toHaveTextContent("Your book will be withdrawn from the catalog and its files removed.");
    expect(preview).toHaveTextContent("1.00 PME still owed to you will be forfeited — connect a wallet first to receive them.");
  });

  it("says nothing of payments when none is owed", async () => {
    const { preview } = await openDeletion({ books: 0, owedPayments: 0, owedAmount: "0.00", walletAddress: WALLET });
    expect(preview).toHaveTextContent("You have no books to withdraw.");
    expect(preview).not.toHaveTextContent("PME");
  });

  it("tells the preview in French, with French numbers", async () => {
    await i18n.changeLanguage("fr");
    const { preview } = await openDeletion({ books: 2, owedPayments: 3, owedAmount: "12.5", walletAddress: null });
    expect(preview).toHaveTextContent("Vos 2 livres seront retirés du catalogue et leurs fichiers supprimés.");
    expect(preview).toHaveTextContent("Les 12,50 PME qui vous sont encore dus seront perdus : connectez d’abord un portefeuille pour les recevoir.");
  });

  it("keeps the dialog open with the refusal under the field when the password is wrong", async () => {
    const { user, dialog, server } = await openDeletion({ books: 0, owedPayments: 0, owedAmount: "0.00", walletAddress: null }, {
      "DELETE /api/account": refusal(400, "wrong_password", { currentPassword: "errors.wrong_password" }),
    });
    await user.type(within(dialog).getByLabelText("Your password"), "not-it{Enter}");

    await waitFor(() => expect(within(dialog).getByLabelText("Your password")).toHaveAccessibleDescription("That is not your current password."));
    expect(screen.getByRole("alertdialog")).toBeInTheDocument();
    expect(server.sentTo("DELETE", "/api/account")).toEqual([{ currentPassword: "not-it" }]);
  });

  it("asks for the password before sending anything, and cancels without deleting", async () => {
    const { user, dialog, server } = await openDeletion({ books: 0, owedPayments: 0, owedAmount: "0.00", walletAddress: null });
    await user.click(within(dialog).getByTestId("confirm-delete-account"));
    expect(await within(dialog).findByText("This field is required")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(screen.getByTestId("delete-account")).toHaveFocus();
    expect(server.callsTo("DELETE", "/api/account")).toEqual([]);
  });

  it("deletes the account with the right password, signs out and goes home with a word", async () => {
    const { user, dialog, server, queryClient, history } = await openDeletion({ books: 1, owedPayments: 0, owedAmount: "0.00", walletAddress: null });
    await user.type(within(dialog).getByLabelText("Your password"), "secret1");
    await user.click(within(dialog).getByTestId("confirm-delete-account"));

    expect(await screen.findByText("Your account was deleted")).toBeInTheDocument();
    expect(server.sentTo("DELETE", "/api/account")).toEqual([{ currentPassword: "secret1" }]);
    expect(history.at(-1)).toBe("/");
    expect(queryClient.getQueryData(CURRENT_USER_QUERY_KEY)).toBeNull();
  });

  it("refuses a wrong password in Spanish", async () => {
    await i18n.changeLanguage("es");
    const { user, dialog } = await openDeletion({ books: 0, owedPayments: 0, owedAmount: "0.00", walletAddress: null }, {
      "DELETE /api/account": refusal(400, "wrong_password", { currentPassword: "errors.wrong_password" }),
    });
    expect(dialog).toHaveAccessibleName("¿Eliminar tu cuenta?");
    await user.type(within(dialog).getByLabelText("Tu contraseña"), "no-es{Enter}");
    await waitFor(() => expect(within(dialog).getByLabelText("Tu contraseña")).toHaveAccessibleDescription("Esa no es tu contraseña actual."));
  });
});

describe("SettingsPage in the app", () => {
  it("is one click away in the user menu", async () => {
    vi.stubGlobal("scrollTo", vi.fn());
    fakeAccountServer();
    const { user, history } = renderWithApp(<App />, { path: "/dashboard", withToaster: false });
    await user.click(await screen.findByTestId("user-menu"));
    await user.click(await screen.findByRole("link", { name: "Settings" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Settings" })).toBeInTheDocument();
    expect(history.at(-1)).toBe("/settings");
  });

  it("sends an anonymous visitor to sign in, to come back here", async () => {
    vi.stubGlobal("scrollTo", vi.fn());
    mockFetch(() => anonymousResponse());
    const leave = vi.spyOn(pageNavigation, "assign").mockImplementation(() => {});
    renderWithApp(<App />, { path: "/settings", withToaster: false });
    await vi.waitFor(() => expect(leave).toHaveBeenCalledWith("/api/login?next=%2Fsettings"));
  });
});
