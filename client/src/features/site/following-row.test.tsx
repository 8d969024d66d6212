import type { FollowingItem } from "@shared/follows";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FollowingRow } from "@/features/site/following-row";
import { makeBook } from "@client-test/catalog-fixtures";
import { ada, jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

describe("FollowingRow", () => {
  it("shows new books and new editions of followed authors, an edition with its number and date", async () => {
    const items: FollowingItem[] = [
      { kind: "edition", at: "2026-03-02T10:00:00.000Z", edition: 2, book: makeBook({ title: "Frankenstein" }) },
      { kind: "book", at: "2026-03-01T10:00:00.000Z", edition: null, book: makeBook({ title: "The Last Man" }) },
    ];
    mockFetch((url) => {
      if (url === "/api/auth/user") return jsonResponse(200, ada);
      if (url === "/api/following") return jsonResponse(200, items);
      if (url.startsWith("/api/reviews?")) return jsonResponse(200, { userRating: 0 });
      return jsonResponse(404, { message: "Not found.", code: "not_found" });
    });
    renderWithApp(<FollowingRow className="" />);
    const row = await screen.findByRole("region", { name: "New from authors you follow" });
    const cards = await within(row).findAllByTestId("book-card");
    expect(cards.map((card) => within(card).getByTestId("book-link").textContent)).toEqual(["Frankenstein", "The Last Man"]);
    expect(within(row).getByTestId("following-edition")).toHaveTextContent("New edition 2 Edition of March 2, 2026");
    expect(within(row).getByText("Published March 1, 2026")).toBeInTheDocument();
  });

  it("tells a reader who follows nobody how to", async () => {
    mockFetch((url) => (url === "/api/following" ? jsonResponse(200, []) : url === "/api/auth/user" ? jsonResponse(200, ada) : jsonResponse(404, { message: "Not found.", code: "not_found" })));
    renderWithApp(<FollowingRow className="" />);
    expect(await screen.findByText(/Follow authors from their page or a book's page/)).toBeInTheDocument();
  });
});

