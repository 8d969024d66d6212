import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { BookEndPanel } from "@/features/reader/book-end-panel";
import { ada, jsonResponse, mockFetch } from "@client-test/fixtures";
import { authorId, makeBook } from "@client-test/catalog-fixtures";
import { renderWithApp } from "@client-test/render";

describe("BookEndPanel", () => {
  it("marks the book as read, offers the next volume and the author's follow, and keeps room for more actions", async () => {
    const user = userEvent.setup();
    const shelves: Record<string, string> = { "5": "reading" };
    const sent: unknown[] = [];
    mockFetch((url, init) => {
      if (url === "/api/auth/user") return jsonResponse(200, ada);
      if (url === "/api/shelves") return jsonResponse(200, { shelves });
      if (url === "/api/books/5") return jsonResponse(200, makeBook({ id: 5, title: "Cinco" }));
      if (url === "/api/books/5/placement") return jsonResponse(200, { series: { id: 3, title: "Ciclo", volume: 1, volumes: 2 }, next: { id: 6, title: "Seis", volume: 2 }, tags: [] });
      if (url === `/api/authors/${authorId}/follow`) return jsonResponse(200, { following: false, followerCount: null });
      if (url === "/api/shelves/5" && init?.method === "PUT") {
        sent.push(JSON.parse(String(init.body)));
        shelves["5"] = "read";
        return jsonResponse(200, { bookId: 5, shelf: "read" });
      }
      return jsonResponse(404, { message: "Not found.", code: "not_found" });
    });
    const onClose = vi.fn();
    renderWithApp(
      <BookEndPanel book={{ id: 5, title: "Cinco" }} onClose={onClose}>
        <button type="button">Follow the author</button>
      </BookEndPanel>,
      { path: "/books/5/read" },
    );
    expect(screen.getByRole("complementary", { name: "You reached the end" })).toBeInTheDocument();
    const actions = screen.getByRole("group", { name: "You reached the end" });
    expect(actions).toContainElement(screen.getByRole("button", { name: "Follow the author" }));
    // What a finished book leads to: the next volume of its series, and its author to follow.
    expect(await screen.findByTestId("next-in-series")).toHaveAttribute("href", "/books/6-seis");
    expect(actions).toContainElement(await screen.findByTestId("follow-button"));
    await user.click(await screen.findByRole("button", { name: "Mark as read" }));
    expect(await screen.findByText("On your Read shelf")).toBeInTheDocument();
    expect(sent).toEqual([{ shelf: "read" }]);
    expect(screen.getByRole("link", { name: "Back to the book’s page" })).toHaveAttribute("href", "/books/5-cinco");
    await user.click(screen.getByTestId("book-end-close"));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});
