import type { CurrentUser } from "@shared/auth";
import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { HomePage } from "@/features/site/home-page";
import { bookBy, makeBooks } from "@client-test/catalog-fixtures";
import { installEthereum, localChainConfig, READER_ACCOUNT } from "@client-test/fake-ethereum";
import { ada, jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

/** The server of an author with three books and two payments, or of a reader (`asReader`) with neither. */
function mockServer({ user = ada, asReader = false }: { user?: CurrentUser; asReader?: boolean } = {}) {
  return mockFetch((url) => {
    if (url === "/api/auth/user") return jsonResponse(200, user);
    if (asReader && (url === `/api/authors/${ada.id}/books` || url === `/api/authors/${ada.id}/payments`)) return jsonResponse(200, []);
    if (url === `/api/authors/${ada.id}/books`) {
      return jsonResponse(200, [bookBy(ada, { downloadCount: 5 }), bookBy(ada, { title: "The Lighthouse", downloadCount: 37 }), bookBy(ada)]);
    }
    if (url === `/api/authors/${ada.id}/payments`) {
      const paid = { triggeredAt: "2026-02-01T00:00:00.000Z", completedAt: null, transactionHash: null, bookId: 1, bookTitle: "The Lighthouse", kind: "milestone" };
      return jsonResponse(200, [
        { ...paid, id: 1, amount: "1.00", status: "completed", milestone: 1 },
        { ...paid, id: 2, amount: "1.00", status: "pending", milestone: 2 },
      ]);
    }
    if (url === "/api/config") return jsonResponse(200, localChainConfig);
    if (url === `/api/authors/${ada.id}/stats`) return jsonResponse(200, { totalDownloads: 1250, monthlyDownloads: [] });
    if (url.startsWith("/api/books?")) return jsonResponse(200, makeBooks(6));
    if (url.startsWith("/api/reviews?")) return jsonResponse(200, { userRating: 0 });
    return jsonResponse(404, { message: "Not found.", code: "not_found" });
  });
}

describe("HomePage", () => {
  it("welcomes the author with their book count and downloads, and offers the next steps", async () => {
    mockServer();
    renderWithApp(<HomePage />, { withWallet: true });

    expect(await screen.findByTestId("welcome")).toHaveTextContent("Welcome back, Ada");
    await vi.waitFor(() => expect(screen.getByTestId("home-book-count")).toHaveTextContent("3"));
    await vi.waitFor(() => expect(screen.getByTestId("home-downloads")).toHaveTextContent("1.3K"));
    expect(screen.getByRole("link", { name: "Upload a new book" })).toHaveAttribute("href", "/upload");
    expect(screen.getByRole("link", { name: "View dashboard" })).toHaveAttribute("href", "/dashboard");
  });

  it("greets a new account as new, not back", async () => {
    mockServer({ user: { ...ada, isNewAccount: true } });
    renderWithApp(<HomePage />, { withWallet: true });
    expect(await screen.findByTestId("welcome")).toHaveTextContent("Welcome to Plume, Ada");
    expect(screen.getByTestId("welcome")).not.toHaveTextContent("back");
  });

  it("shows a reader who has not published something to read first, then the way to publish, and no author figures or wallet", async () => {
    const fetchMock = mockServer({ asReader: true });
    const { user } = renderWithApp(<HomePage />, { withWallet: true });

    const recent = await screen.findByRole("region", { name: "Recently added" });
    expect(await within(recent).findAllByTestId("book-card")).toHaveLength(6);
    expect(fetchMock).toHaveBeenCalledWith("/api/books?limit=6&offset=0&sort=newest", expect.anything());
    expect(await within(screen.getByRole("region", { name: "Popular books" })).findAllByTestId("book-card")).toHaveLength(6);
    const invitation = screen.getByRole("region", { name: "Do you write?" });
    // Reading comes first: the shelves stand before the invitation.
    expect(recent.compareDocumentPosition(invitation) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByText("Every book here is free to read and download. Here is where to start.")).toBeInTheDocument();
    expect(screen.queryByTestId("home-book-count")).not.toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Your rewards" })).not.toBeInTheDocument();
    expect(screen.queryByText(/Install MetaMask/)).not.toBeInTheDocument();

    await user.click(within(invitation).getByRole("button", { name: "Show the author tools" }));
    expect(await screen.findByTestId("home-book-count")).toHaveTextContent("0");
    expect(await screen.findByRole("region", { name: "Your rewards" })).toBeInTheDocument();
  });

  it("shows the author parts when the account's books cannot be read, and asks for them only once", async () => {
    const fetchMock = mockFetch((url) => {
      if (url === "/api/auth/user") return jsonResponse(200, ada);
      if (url === `/api/authors/${ada.id}/books`) return jsonResponse(500, { message: "Something went wrong.", code: "internal_error" });
      if (url === `/api/authors/${ada.id}/payments`) return jsonResponse(200, []);
      if (url.startsWith("/api/books?")) return jsonResponse(200, makeBooks(6));
      return jsonResponse(404, { message: "Not found.", code: "not_found" });
    });
    renderWithApp(<HomePage />, { withWallet: true });

    expect(await screen.findByRole("link", { name: "Upload a new book" })).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Do you write?" })).not.toBeInTheDocument();
    // The figures reading the failed list do not hide the parts again, which would ask again, and so on.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fetchMock.mock.calls.filter(([url]) => url === `/api/authors/${ada.id}/books`).length).toBeLessThanOrEqual(2);
  });

  it("lists the 6 most downloaded books as compact cards", async () => {
    const fetchMock = mockServer();
    renderWithApp(<HomePage />, { withWallet: true });

    const popular = await screen.findByRole("region", { name: "Popular books" });
    expect(await within(popular).findAllByTestId("book-card")).toHaveLength(6);
    expect(fetchMock).toHaveBeenCalledWith("/api/books?limit=6&offset=0&sort=downloads", expect.anything());
  });

  it("shows its rows in the book language chosen in the catalog, says so, and offers every language back", async () => {
    document.cookie = "plume-book-lang=es; path=/";
    const fetchMock = mockServer();
    const { user } = renderWithApp(<HomePage />, { withWallet: true });

    const popular = await screen.findByRole("region", { name: "Popular books" });
    expect(await within(popular).findAllByTestId("book-card")).toHaveLength(6);
    expect(fetchMock).toHaveBeenCalledWith("/api/books?limit=6&offset=0&sort=downloads&language=es", expect.anything());
    expect(within(popular).getByTestId("book-language-note")).toHaveTextContent("Books in Spanish");

    await user.click(within(popular).getByRole("button", { name: "Show every language" }));
    expect(document.cookie).not.toContain("plume-book-lang");
    expect(screen.queryByTestId("book-language-note")).not.toBeInTheDocument();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledWith("/api/books?limit=6&offset=0&sort=downloads", expect.anything()));
  });

  it("shows the progress toward the next PME, what was earned, and how to connect a wallet", async () => {
    mockServer();
    renderWithApp(<HomePage />, { withWallet: true });

    const card = await screen.findByRole("region", { name: "Your rewards" });
    expect(card).toHaveTextContent("Closest to a reward: The Lighthouse");
    expect(card).toHaveTextContent("3 more counted downloads to your next PME");
    await vi.waitFor(() => expect(card).toHaveTextContent("Earned so far: 1 PME"));
    const install = within(card).getByRole("link", { name: /Install MetaMask/ });
    expect(install).toHaveAttribute("href", "https://metamask.io/download/");
    expect(install).toHaveAttribute("target", "_blank");
    expect(install).toHaveAttribute("rel", "noopener noreferrer");
  });

  it("says the wallet is connected once it is", async () => {
    installEthereum().authorisedAccounts = [READER_ACCOUNT];
    mockServer();
    renderWithApp(<HomePage />, { withWallet: true });

    expect(await screen.findByTestId("home-wallet-connected")).toHaveTextContent("Wallet connected: 0x7099…79c8");
  });
});
