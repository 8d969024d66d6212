import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { MyBooksPage } from "@/features/shelves/my-books-page";
import { ReaderShelvesPage } from "@/features/shelves/reader-shelves-page";
import { makeBook } from "@client-test/catalog-fixtures";
import { ada, jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";
import { Route } from "wouter";

const uno = makeBook({ id: 1, title: "Uno" });
const dos = makeBook({ id: 2, title: "Dos" });
const page = <T,>(items: T[], total = items.length, pageNumber = 1) => ({ items, total, page: pageNumber, pageSize: 24 });

function mockServer(routes: Record<string, unknown>, user = ada) {
  return mockFetch((url) => {
    if (url === "/api/auth/user") return jsonResponse(200, user);
    if (url.startsWith("/api/reviews?")) return jsonResponse(200, { userRating: 0 });
    if (url === "/api/shelves") return jsonResponse(200, { shelves: { "2": "want" } });
    if (url in routes) return jsonResponse(200, routes[url]);
    return jsonResponse(404, { message: "Not found.", code: "not_found" });
  });
}

describe("MyBooksPage", () => {
  it("lists the books taken with how, then each shelf in its tab, and pages with Show more", async () => {
    const user = userEvent.setup();
    mockServer({
      "/api/my-books/taken?page=1": page([{ book: uno, channels: ["download", "send"], lastTakenAt: "2026-11-20T10:00:00.000Z" }], 25),
      "/api/my-books/taken?page=2": page([{ book: dos, channels: ["read"], lastTakenAt: "2026-11-19T10:00:00.000Z" }], 25, 2),
      "/api/my-books/shelves/want?page=1": page([{ book: dos, shelf: "want", shelvedAt: "2026-11-21T10:00:00.000Z" }]),
      "/api/my-books/shelves/read?page=1": page([]),
    });
    const { history } = renderWithApp(<MyBooksPage />, { path: "/my-books" });
    expect(await screen.findByRole("heading", { level: 1, name: "My books" })).toBeInTheDocument();
    const how = await screen.findByTestId("taken-how");
    expect(how).toHaveTextContent("Downloaded");
    expect(how).toHaveTextContent("Sent to e-reader");
    expect(screen.getByTestId("my-books-count")).toHaveTextContent("25 books");
    await user.click(screen.getByRole("button", { name: "Show more" }));
    await waitFor(() => expect(screen.getAllByTestId("book-card")).toHaveLength(2));
    expect(screen.queryByRole("button", { name: "Show more" })).toBeNull();

    await user.click(screen.getByRole("tab", { name: "Want to read" }));
    expect(history.at(-1)).toBe("/my-books?shelf=want");
    const panel = await screen.findByRole("tabpanel");
    expect(await within(panel).findByRole("heading", { name: "Dos" })).toBeInTheDocument();
    await user.click(screen.getByRole("tab", { name: "Read" }));
    expect(await screen.findByText("No book on this shelf yet: mark a book as read at its end.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Make your shelves public in the settings" })).toHaveAttribute("href", "/settings#public-shelves");
  });

  it("opens on the tab its address names, and on the books taken for one it does not know", async () => {
    mockServer({
      "/api/my-books/shelves/read?page=1": page([]),
      "/api/my-books/taken?page=1": page([{ book: uno, channels: ["read"], lastTakenAt: "2026-11-20T10:00:00.000Z" }]),
    });
    const { unmount } = renderWithApp(<MyBooksPage />, { path: "/my-books?shelf=read" });
    expect(await screen.findByRole("tab", { name: "Read", selected: true })).toBeInTheDocument();
    expect(await screen.findByText("No book on this shelf yet: mark a book as read at its end.")).toBeInTheDocument();
    unmount();
    renderWithApp(<MyBooksPage />, { path: "/my-books?shelf=nope" });
    expect(await screen.findByRole("tab", { name: "Taken", selected: true })).toBeInTheDocument();
  });
});

describe("ReaderShelvesPage", () => {
  const renderAt = (path: string) =>
    renderWithApp(
      <Route path="/readers/:username">
        <ReaderShelvesPage />
      </Route>,
      { path },
    );

  it("shows the reader's username and three shelves with their counts, nothing else", async () => {
    mockServer({
      "/api/readers/ana_lee": { username: "ana_lee", shelves: { want: { books: [], total: 0 }, reading: { books: [uno], total: 1 }, read: { books: [dos], total: 30 } } },
    });
    renderAt("/readers/ana_lee");
    expect(await screen.findByRole("heading", { level: 1, name: "ana_lee’s shelves" })).toBeInTheDocument();
    expect(within(screen.getByTestId("public-shelf-reading")).getByRole("heading", { name: "Uno" })).toBeInTheDocument();
    expect(screen.getByTestId("public-shelf-want")).toHaveTextContent("No book on this shelf.");
    expect(screen.getByTestId("public-shelf-read")).toHaveTextContent("And 29 more books.");
    expect(document.title).toContain("ana_lee’s shelves");
  });

  it("is the 404 screen when the shelves are not public", async () => {
    mockServer({});
    renderAt("/readers/nobody");
    expect(await screen.findByRole("heading", { level: 1, name: "404 Page Not Found" })).toBeInTheDocument();
  });
});
