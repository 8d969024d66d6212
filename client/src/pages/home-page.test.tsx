import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { HomePage } from "@/pages/home-page";
import { bookBy, makeBooks } from "@/test/catalog-fixtures";
import { ada, jsonResponse, mockFetch } from "@/test/fixtures";
import { renderWithApp } from "@/test/render";

function mockServer() {
  return mockFetch((url) => {
    if (url === "/api/auth/user") return jsonResponse(200, ada);
    if (url === `/api/authors/${ada.id}/books`) return jsonResponse(200, [bookBy(ada), bookBy(ada), bookBy(ada)]);
    if (url === `/api/authors/${ada.id}/stats`) return jsonResponse(200, { totalDownloads: 1250, monthlyDownloads: [] });
    if (url.startsWith("/api/books?")) return jsonResponse(200, makeBooks(6));
    if (url.startsWith("/api/reviews?")) return jsonResponse(200, { userRating: 0 });
    return jsonResponse(404, { message: "Not found.", code: "not_found" });
  });
}

describe("HomePage", () => {
  it("welcomes the author with their book count and downloads, and offers the next steps", async () => {
    mockServer();
    renderWithApp(<HomePage />);

    expect(await screen.findByTestId("welcome")).toHaveTextContent("Welcome back, Ada");
    await vi.waitFor(() => expect(screen.getByTestId("home-book-count")).toHaveTextContent("3"));
    await vi.waitFor(() => expect(screen.getByTestId("home-downloads")).toHaveTextContent("1.3K"));
    expect(screen.getByRole("link", { name: "Upload a new book" })).toHaveAttribute("href", "/upload");
    expect(screen.getByRole("link", { name: "View dashboard" })).toHaveAttribute("href", "/dashboard");
  });

  it("lists the 6 most downloaded books as compact cards", async () => {
    const fetchMock = mockServer();
    renderWithApp(<HomePage />);

    const popular = await screen.findByRole("region", { name: "Popular books" });
    expect(await within(popular).findAllByTestId("book-card")).toHaveLength(6);
    expect(fetchMock).toHaveBeenCalledWith("/api/books?limit=6&offset=0&sort=downloads", expect.anything());
  });
});
