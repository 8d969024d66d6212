import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import i18n from "@/lib/i18n";
import { LandingPage } from "@/features/site/landing-page";
import { makeBooks } from "@client-test/catalog-fixtures";
import { localChainConfig } from "@client-test/fake-ethereum";
import { anonymousResponse, jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

function mockServer(promoCutoff = localChainConfig.rewards.promoCutoff) {
  return mockFetch((url) => {
    if (url === "/api/auth/user") return anonymousResponse();
    if (url === "/api/config") return jsonResponse(200, { ...localChainConfig, rewards: { promoCutoff } });
    if (url === "/api/stats/public") return jsonResponse(200, { totalBooks: 999, totalAuthors: 1000, totalDownloads: 12_345 });
    if (url.startsWith("/api/books?")) return jsonResponse(200, makeBooks(4));
    return jsonResponse(404, { message: "Not found.", code: "not_found" });
  });
}

describe("LandingPage", () => {
  it("invites authors to sign up and readers to browse", () => {
    mockServer();
    renderWithApp(<LandingPage />);

    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Share your books with the world");
    expect(screen.getByRole("link", { name: "Upload my book" })).toHaveAttribute("href", "/register");
    expect(screen.getByRole("link", { name: "Browse the catalog" })).toHaveAttribute("href", "/catalog");
    expect(screen.getByRole("img", { name: "Example of an author dashboard, with sample figures" })).toBeInTheDocument();
  });

  it("shows the public totals, thousands as one-decimal K in the reader's language", async () => {
    await i18n.changeLanguage("es");
    mockServer();
    renderWithApp(<LandingPage />);

    const totals = await screen.findAllByTestId("public-stat");
    await vi.waitFor(() => expect(totals.map((total) => total.textContent)).toEqual(["999", "1,0K", "12,3K"]));
    expect(screen.getByText("Libros publicados")).toBeInTheDocument();
  });

  it("features the first 4 books as compact cards, with a way to the whole catalog", async () => {
    const fetchMock = mockServer();
    renderWithApp(<LandingPage />);

    const featured = screen.getByRole("region", { name: "Featured books" });
    expect(await within(featured).findAllByTestId("book-card")).toHaveLength(4);
    expect(fetchMock).toHaveBeenCalledWith("/api/books?limit=4&offset=0", expect.anything());
    expect(within(featured).queryByText("A quiet story about a lighthouse keeper.")).not.toBeInTheDocument();
    expect(within(featured).getByRole("link", { name: "View more books" })).toHaveAttribute("href", "/catalog");
  });

  it("explains how it works, and advertises the first-book offer only until it ends", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-31T23:59:00Z"));
    mockServer();
    const { unmount } = renderWithApp(<LandingPage />);
    expect(screen.getByRole("heading", { name: "Earn 1 PME every 20 counted downloads" })).toBeInTheDocument();
    expect(await screen.findByTestId("promotion")).toHaveTextContent("until April 1, 2026");
    unmount();

    vi.setSystemTime(new Date("2026-04-01T00:00:00Z"));
    const fetchMock = mockServer();
    renderWithApp(<LandingPage />);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledWith("/api/config", expect.anything()));
    expect(screen.queryByTestId("promotion")).not.toBeInTheDocument();
  });

  it("follows the server's end of the offer, not a date built into the app, in the reader's language", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-24T10:00:00Z"));
    await i18n.changeLanguage("fr");
    mockServer("2027-01-15T00:00:00.000Z");
    renderWithApp(<LandingPage />);
    expect(await screen.findByTestId("promotion")).toHaveTextContent("jusqu'au 15 janvier 2027");
  });
});
