import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { BookGrid } from "@/features/books/book-grid";
import { BookPageShelf } from "@/features/books/book-page-shelf";
import { makeBook } from "@client-test/catalog-fixtures";
import { ada, anonymousResponse, jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

type Shelves = Record<string, string>;

/** The API as the shelf control sees it: Ada's session (or none) and her shelves, changed by the calls. */
function mockServer({ signedIn = true, shelves = {} as Shelves, refuse = false, places = [] as unknown[] } = {}) {
  const sent: Array<[string, string, unknown]> = [];
  const fetchMock = mockFetch((url, init) => {
    const method = init?.method ?? "GET";
    if (url === "/api/auth/user") return signedIn ? jsonResponse(200, ada) : anonymousResponse();
    if (url.startsWith("/api/reviews?")) return jsonResponse(200, { userRating: 0 });
    if (url === "/api/shelves" && method === "GET") return jsonResponse(200, { shelves });
    const shelving = /^\/api\/shelves\/(\d+)$/.exec(url);
    if (shelving) {
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      sent.push([method, url, body]);
      if (refuse) return jsonResponse(404, { message: "This book does not exist.", code: "not_found" });
      if (method === "DELETE") {
        delete shelves[shelving[1]!];
        return new Response(null, { status: 204 });
      }
      shelves[shelving[1]!] = body.shelf;
      return jsonResponse(200, { bookId: Number(shelving[1]), shelf: body.shelf });
    }
    if (url.startsWith("/api/my-books/continue-reading")) return jsonResponse(200, { items: places });
    return jsonResponse(404, { message: "Not found.", code: "not_found" });
  });
  const mapReads = () => fetchMock.mock.calls.filter(([url, init]) => String(url) === "/api/shelves" && (init?.method ?? "GET") === "GET").length;
  return { sent, mapReads };
}

const books = [makeBook({ id: 1, title: "Uno" }), makeBook({ id: 2, title: "Dos" }), makeBook({ id: 3, title: "Tres" })];

describe("ShelfControl on cards", () => {
  it("reads the reader's shelves once for every card, and shows each card's shelf", async () => {
    const server = mockServer({ shelves: { "2": "reading" } });
    renderWithApp(<BookGrid books={books} variant="compact" columnsClassName="" />, { path: "/catalog" });
    await waitFor(() => expect(screen.getAllByTestId("shelf-control")).toHaveLength(3));
    await waitFor(() => expect(screen.getAllByTestId("shelf-control")[1]).toHaveAttribute("data-shelf", "reading"));
    expect(screen.getAllByTestId("shelf-control")[1]).toHaveTextContent("Reading");
    expect(within(screen.getAllByTestId("shelf-control")[0]!).getByRole("button", { name: "Want to read: Uno" })).toBeEnabled();
    expect(server.mapReads()).toBe(1);
  });

  it("gives a visitor's cards no shelf control and asks for no shelves", async () => {
    const server = mockServer({ signedIn: false });
    renderWithApp(<BookGrid books={books} variant="compact" columnsClassName="" />, { path: "/catalog" });
    await screen.findAllByTestId("book-card");
    await waitFor(() => expect(screen.getAllByRole("button", { name: /Log in to download/ }).length).toBeGreaterThan(0));
    expect(screen.queryByTestId("shelf-control")).toBeNull();
    expect(server.mapReads()).toBe(0);
  });

  it("puts a book on Want to read in one click, moves it through the menu and takes it off", async () => {
    const user = userEvent.setup();
    const server = mockServer();
    renderWithApp(<BookGrid books={[books[0]!]} variant="compact" columnsClassName="" />, { path: "/catalog" });
    await user.click(await screen.findByRole("button", { name: "Want to read: Uno" }));
    await waitFor(() => expect(screen.getByTestId("shelf-control")).toHaveAttribute("data-shelf", "want"));
    expect(await screen.findByText("Added to Want to read.")).toBeInTheDocument();

    const opener = screen.getByTestId("shelf-button");
    await user.click(opener);
    expect(opener).toHaveAttribute("aria-expanded", "true");
    const menu = screen.getByRole("list", { name: "Other shelves for Uno" });
    expect(within(menu).getByRole("button", { name: "Want to read" })).toHaveAttribute("aria-pressed", "true");
    await user.click(within(menu).getByRole("button", { name: "Read" }));
    await waitFor(() => expect(screen.getByTestId("shelf-control")).toHaveAttribute("data-shelf", "read"));
    expect(opener).toHaveFocus();

    await user.click(opener);
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("list", { name: "Other shelves for Uno" })).toBeNull();
    await user.click(opener);
    await user.click(screen.getByRole("button", { name: "Remove from my shelves" }));
    await waitFor(() => expect(screen.getByTestId("shelf-control")).toHaveAttribute("data-shelf", ""));
    expect(server.sent).toEqual([
      ["PUT", "/api/shelves/1", { shelf: "want" }],
      ["PUT", "/api/shelves/1", { shelf: "read" }],
      ["DELETE", "/api/shelves/1", undefined],
    ]);
  });

  it("puts the shelf back and says so when the server refuses", async () => {
    const user = userEvent.setup();
    mockServer({ refuse: true });
    renderWithApp(<BookGrid books={[books[0]!]} variant="compact" columnsClassName="" />, { path: "/catalog" });
    await user.click(await screen.findByRole("button", { name: "Want to read: Uno" }));
    expect(await screen.findByText("We could not change your shelves. Please try again.")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId("shelf-control")).toHaveAttribute("data-shelf", ""));
  });
});

describe("BookPageShelf", () => {
  it("shows the shelf and Continue reading at the page, or an EPUB's percentage", async () => {
    mockServer({ places: [{ book: books[0], page: 18, percentage: 0.4, format: "pdf", updatedAt: "2026-11-29T00:00:00.000Z" }] });
    const { unmount } = renderWithApp(<BookPageShelf book={books[0]!} />, { path: "/books/1" });
    const link = await screen.findByRole("link", { name: "Continue reading (page 18)" });
    expect(link).toHaveAttribute("href", "/books/1/read");
    expect(screen.getByTestId("shelf-control")).toBeInTheDocument();
    unmount();
    mockServer({ places: [{ book: books[0], page: 3, percentage: 0.34, format: "epub", updatedAt: "2026-11-29T00:00:00.000Z" }] });
    renderWithApp(<BookPageShelf book={books[0]!} />, { path: "/books/1" });
    expect(await screen.findByRole("link", { name: "Continue reading (34%)" })).toBeInTheDocument();
  });

  it("offers a visitor to log in and come back", async () => {
    mockServer({ signedIn: false });
    renderWithApp(<BookPageShelf book={books[0]!} />, { path: "/books/1-uno" });
    const link = await screen.findByRole("link", { name: "Log in to add it to your shelves" });
    expect(link.getAttribute("href")).toContain("/login?next=");
  });
});
