import { isScreenPath, SCREEN_PATHS } from "@shared/screens";
import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { Route, Router, Switch } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { App } from "@/App";
import appSource from "@/App.tsx?raw";
import { pageNavigation } from "@/lib/login-redirect";
import { createQueryClient } from "@/lib/query-client";
import { ada, anonymousResponse, jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

/** The server as the shell sees it: a session (or none) and a working logout. */
function mockServer(signedIn: boolean) {
  return mockFetch((url, init) => {
    if (url === "/api/auth/user") return signedIn ? jsonResponse(200, ada) : anonymousResponse();
    if (url === "/api/auth/logout" && init?.method === "POST") {
      signedIn = false;
      return new Response(null, { status: 204 });
    }
    return jsonResponse(404, { message: "Not found.", code: "not_found" });
  });
}

function renderApp(path: string) {
  vi.stubGlobal("scrollTo", vi.fn());
  return renderWithApp(<App />, { path, withToaster: false });
}

describe("App shell", () => {
  it("shows the landing page and the visitor's navigation to an anonymous visitor", async () => {
    mockServer(false);
    renderApp("/");

    expect(await screen.findByRole("link", { name: "Log in" })).toHaveAttribute("href", "/login");
    // The landing page comes as a chunk of its own (docs/decisions/0028).
    expect(await screen.findByRole("heading", { level: 1 })).toHaveTextContent("Share your books with the world");
    expect(screen.getByRole("link", { name: "Sign up" })).toHaveAttribute("href", "/register");
    expect(screen.getByRole("link", { name: "Catalog" })).toBeInTheDocument();
    expect(screen.getByLabelText("Language")).toHaveValue("en");
    expect(screen.queryByTestId("user-menu")).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Skip to main content" })).toHaveAttribute("href", "#main-content");
  });

  it("moves the focus to the new screen's content when a link changes the screen", async () => {
    mockServer(false);
    const { user } = renderApp("/");
    const catalogLink = await screen.findByRole("link", { name: "Catalog" });
    expect(document.activeElement).not.toBe(screen.getByRole("main"));

    await user.click(catalogLink);
    expect(await screen.findByRole("heading", { level: 1, name: "Catalog" })).toBeInTheDocument();
    expect(document.activeElement).toBe(screen.getByRole("main"));
  });

  it("welcomes a signed-in user by first name and offers their links", async () => {
    mockServer(true);
    renderApp("/");

    expect(await screen.findByTestId("welcome")).toHaveTextContent("Welcome back, Ada");
    const navigation = screen.getByRole("navigation", { name: "Main" });
    expect(within(navigation).getByRole("link", { name: "Upload a book" })).toHaveAttribute("href", "/upload");
    expect(within(navigation).getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/dashboard");
    expect(screen.queryByRole("link", { name: "Log in" })).not.toBeInTheDocument();
  });

  it("switches the whole interface to the chosen language", async () => {
    mockServer(false);
    const { user } = renderApp("/catalog");

    await user.selectOptions(await screen.findByTestId("language-select"), "es");

    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Catálogo");
    expect(document.documentElement.lang).toBe("es");
    expect(document.title).toBe("Catálogo · Plume");
  });

  it("opens the user menu from the keyboard and closes it with Escape", async () => {
    mockServer(true);
    const { user } = renderApp("/");
    const trigger = await screen.findByTestId("user-menu");

    expect(trigger).toHaveTextContent("A");
    expect(trigger).toHaveAttribute("aria-expanded", "false");
    trigger.focus();
    await user.keyboard("{Enter}");
    expect(trigger).toHaveAttribute("aria-expanded", "true");
    // The list comes with the first opening (docs/decisions/0047), right after its button.
    await screen.findByTestId("logout");

    // The menu's first item is the reader's books (docs/product.md#shelves), then the dashboard.
    await user.tab();
    expect(screen.getAllByRole("link", { name: "My books" }).at(-1)).toHaveFocus();
    await user.keyboard("{Escape}");
    expect(trigger).toHaveAttribute("aria-expanded", "false");
    expect(trigger).toHaveFocus();
  });

  it("logs out from the user menu and returns to the landing page", async () => {
    const fetchMock = mockServer(true);
    const { user, history } = renderApp("/dashboard");

    await user.click(await screen.findByTestId("user-menu"));
    await user.click(await screen.findByTestId("logout"));

    expect(await screen.findByRole("link", { name: "Log in" })).toBeInTheDocument();
    // The landing page comes as a chunk of its own (docs/decisions/0028).
    expect(await screen.findByRole("heading", { level: 1 })).toHaveTextContent("Share your books with the world");
    expect(history.at(-1)).toBe("/");
    expect(fetchMock).toHaveBeenCalledWith("/api/auth/logout", expect.objectContaining({ method: "POST" }));
  });

  it("signs out from the home page without asking for a sign-in: the author's own figures are not fetched again", async () => {
    let signedIn = true;
    const privateCallsSignedOut: string[] = [];
    mockFetch((url, init) => {
      if (url === "/api/auth/user") return signedIn ? jsonResponse(200, ada) : anonymousResponse();
      if (url === "/api/auth/logout" && init?.method === "POST") {
        signedIn = false;
        return new Response(null, { status: 204 });
      }
      if (url === `/api/authors/${ada.id}/stats`) {
        if (!signedIn) privateCallsSignedOut.push(url);
        return signedIn ? jsonResponse(200, { totalBooks: 0, totalDownloads: 0, totalEarnings: 0 }) : jsonResponse(401, { message: "Please log in.", code: "unauthorized" });
      }
      if (url.startsWith(`/api/authors/${ada.id}/books`)) return jsonResponse(200, []);
      return jsonResponse(404, { message: "Not found.", code: "not_found" });
    });
    const leave = vi.spyOn(pageNavigation, "assign").mockImplementation(() => {});
    const { user } = renderApp("/");
    await screen.findByTestId("welcome");

    await user.click(await screen.findByTestId("user-menu"));
    await user.click(await screen.findByTestId("logout"));

    expect(await screen.findByRole("heading", { level: 1 })).toHaveTextContent("Share your books with the world");
    // Past the delay a login redirect waits before it leaves (lib/login-redirect.ts).
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(privateCallsSignedOut).toEqual([]);
    expect(leave).not.toHaveBeenCalled();
    expect(screen.queryByText("Please log in")).not.toBeInTheDocument();
  });

  it("gives a phone one menu button that holds the links, the language and the account actions", async () => {
    mockServer(true);
    const { user } = renderApp("/catalog");
    const menuButton = await screen.findByTestId("site-menu-button");
    expect(menuButton).toHaveAccessibleName("Menu");
    expect(screen.getByRole("link", { name: "Search books" })).toHaveAttribute("href", "/catalog");
    expect(menuButton).toHaveAttribute("aria-expanded", "false");

    await user.click(menuButton);
    const menu = await screen.findByTestId("site-menu");
    expect(menuButton).toHaveAttribute("aria-expanded", "true");
    expect(menuButton).toHaveAttribute("aria-controls", menu.id);
    // The focus moves into the menu, to its first link.
    expect(within(menu).getByRole("link", { name: "Catalog" })).toHaveFocus();
    expect(within(menu).getByRole("link", { name: "Catalog" })).toHaveAttribute("aria-current", "page");
    for (const [name, href] of [["Upload a book", "/upload"], ["Dashboard", "/dashboard"], ["Settings", "/settings"]]) {
      expect(within(menu).getByRole("link", { name })).toHaveAttribute("href", href);
    }
    expect(within(menu).getByLabelText("Language")).toHaveValue("en");
    expect(within(menu).queryByTestId("wallet-button")).not.toBeInTheDocument();
    expect(within(menu).getByTestId("site-menu-logout")).toHaveTextContent("Log out");

    // Escape closes it and gives the focus back to its button.
    await user.keyboard("{Escape}");
    expect(screen.queryByTestId("site-menu")).not.toBeInTheDocument();
    expect(menuButton).toHaveAttribute("aria-expanded", "false");
    expect(menuButton).toHaveFocus();
  });

  it("puts the cursor in the catalog's search box when a phone's search button opens the catalog, once", async () => {
    mockServer(false);
    vi.stubGlobal("scrollTo", vi.fn());
    // The browser's own history, which carries the search button's state (the in-memory one drops it).
    window.history.replaceState(null, "", "/");
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <App />
      </QueryClientProvider>,
    );
    await user.click(await screen.findByRole("link", { name: "Search books" }));
    const searchBox = await screen.findByRole("searchbox");
    await vi.waitFor(() => expect(searchBox).toHaveFocus());
    // Served once: coming back to this entry (a reload, back and forward) leaves the focus alone.
    expect(window.history.state).toMatchObject({ focusCatalogSearch: false });
    window.history.replaceState(null, "", "/");
  });

  it("closes the phone menu when one of its links changes the screen, and on a click outside it", async () => {
    mockServer(false);
    const { user, history } = renderApp("/catalog");
    const menuButton = await screen.findByTestId("site-menu-button");

    await user.click(menuButton);
    const menu = await screen.findByTestId("site-menu");
    // A visitor finds the sign-in links there.
    expect(within(menu).getByRole("link", { name: "Sign up" })).toHaveAttribute("href", "/register");
    await user.click(within(menu).getByRole("link", { name: "Log in" }));
    expect(history.at(-1)).toBe("/login");
    expect(screen.queryByTestId("site-menu")).not.toBeInTheDocument();
    expect(menuButton).toHaveAttribute("aria-expanded", "false");

    await user.click(menuButton);
    await screen.findByTestId("site-menu");
    await user.click(screen.getByRole("main"));
    expect(screen.queryByTestId("site-menu")).not.toBeInTheDocument();
  });

  it("links every screen to the info pages, signed in too: how it works, the author guide, terms, privacy, contact, transparency", async () => {
    mockServer(true);
    renderApp("/catalog");
    const footer = await screen.findByRole("navigation", { name: "Footer" });
    expect(within(footer).getAllByRole("link").map((link) => [link.textContent, link.getAttribute("href")])).toEqual([
      ["How Plume works", "/help"],
      ["Author guide", "/author-guide"],
      ["Terms of use", "/terms"],
      ["Privacy policy", "/privacy"],
      ["Contact us", "/contact"],
      ["Transparency report", "/transparency"],
    ]);
  });

  it("keeps wallet actions out of the header, signed in or not: they belong to an author's dashboard", async () => {
    mockServer(true);
    renderApp("/");
    expect(await screen.findByTestId("user-menu")).toBeInTheDocument();
    expect(screen.queryByTestId("wallet-button")).not.toBeInTheDocument();
    cleanup();
    mockServer(false);
    renderApp("/");
    expect(await screen.findByRole("link", { name: "Log in" })).toBeInTheDocument();
    expect(screen.queryByTestId("wallet-button")).not.toBeInTheDocument();
  });

  it("sends a signed-in user away from the login screen", async () => {
    mockServer(true);
    const { history } = renderApp("/login");
    expect(await screen.findByTestId("welcome")).toBeInTheDocument();
    expect(history.at(-1)).toBe("/");
  });

  it("tells an anonymous visitor of a protected page to log in, then sends them to /api/login", async () => {
    mockServer(false);
    const leave = vi.spyOn(pageNavigation, "assign").mockImplementation(() => {});
    renderApp("/dashboard?tab=author");

    expect(await screen.findByText("Please log in")).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("You need to be logged in to see this page.");
    expect(screen.getByText("Taking you to the login page…")).toBeInTheDocument();
    expect(leave).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(leave).toHaveBeenCalledWith("/api/login?next=%2Fdashboard%3Ftab%3Dauthor"));
  });

  it("shows the invalid-id message for a book id that is not a number", async () => {
    mockServer(true);
    renderApp("/edit-book/abc");
    expect(await screen.findByText("This book ID is not valid.")).toBeInTheDocument();
  });

  it.each(["/no/such/page", "/catalog/extra", "/books/1/read/x"])("answers the unknown path %s with 404 Page Not Found", async (path) => {
    mockServer(false);
    renderApp(path);
    expect(await screen.findByRole("heading", { name: "404 Page Not Found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to the home page" })).toHaveAttribute("href", "/");
  });
});

// The server answers 404 where isScreenPath says no (server/pages/page-heads.ts): it must say so exactly
// where the app's router, which has a route for each of SCREEN_PATHS, finds no screen.
describe("the screens the server knows", () => {
  // The type of App's table holds it to SCREEN_PATHS; a <Route> written beside the table would escape it.
  it("are every route of the app: it has none beside its table and the 404 screen", () => {
    expect(appSource.match(/<Route\b/g)).toHaveLength(2);
  });

  function routerShowsAScreen(path: string): boolean {
    const { hook } = memoryLocation({ path });
    const { container, unmount } = render(
      <Router hook={hook}>
        <Switch>
          {SCREEN_PATHS.map((screenPath) => (
            <Route key={screenPath} path={screenPath}>
              screen
            </Route>
          ))}
          <Route>none</Route>
        </Switch>
      </Router>,
    );
    const shown = container.textContent;
    unmount();
    return shown === "screen";
  }

  it.each([
    ["/", true],
    ["/catalog", true],
    ["/catalog/", true],
    ["/CATALOG", true],
    ["/catalo%67", true],
    ["/edit-book", true],
    ["/edit-book/", true],
    ["/edit-book/12", true],
    ["/books/1-x/read", true],
    ["/books/%E2%9C%93", true],
    ["/books/%2F/read", true],
    ["/authors/x/", true],
    ["/nope", false],
    ["/catalog/extra", false],
    ["/catalog//", false],
    ["//catalog", false],
    ["/books", false],
    ["/books/", false],
    ["/books/1/read/x", false],
    ["/edit-book/1/2", false],
    ["/uploads/../x", false],
    ["/%zz", false],
    ["/catalog%2Fextra", false],
    ["/assets/index.js", false],
  ])("%s is a screen: %s, for the router and for the server alike", (path, isScreen) => {
    expect(routerShowsAScreen(path)).toBe(isScreen);
    expect(isScreenPath(path)).toBe(isScreen);
  });
});
