import type { PublicReview, ReviewPage, ReviewViewer } from "@shared/reviews";
import { screen, within } from "@testing-library/react";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { BookReviews } from "@/features/books/book-reviews";
import { loadOtherScreenTexts } from "@/lib/i18n";
import { makeBook } from "@client-test/catalog-fixtures";
import { ada, anonymousResponse, jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

const book = makeBook({ id: 7, title: "The Lighthouse Keeper's Ledger", rating: 4, reviewCount: 2 });

const review = (overrides: Partial<PublicReview> = {}): PublicReview => ({
  id: 1,
  readerName: "Lea Moreau",
  rating: 4,
  text: "A quiet book.\nIts second half earns every page.",
  createdAt: "2026-02-01T10:00:00.000Z",
  editedAt: null,
  reply: null,
  helpfulCount: 3,
  votedHelpful: false,
  mine: false,
  ...overrides,
});

const viewerOf = (overrides: Partial<ReviewViewer> = {}): ReviewViewer => ({ canRate: true, tookBook: true, isAuthor: false, rating: 0, review: null, ...overrides });

function server({ user = ada as typeof ada | null, page = {} as Partial<ReviewPage>, onRequest = (_url: string, _init?: RequestInit): Response | undefined => undefined } = {}) {
  return mockFetch((url, init) => {
    const answered = onRequest(url, init);
    if (answered) return answered;
    if (url === "/api/auth/user") return user ? jsonResponse(200, user) : anonymousResponse();
    if (url.startsWith("/api/books/7/reviews")) return jsonResponse(200, { reviews: [review()], total: 1, page: 1, hasMore: false, viewer: user ? viewerOf() : null, ...page });
    return jsonResponse(404, { code: "not_found", message: "Not found." });
  });
}

beforeAll(async () => {
  await loadOtherScreenTexts();
});

describe("BookReviews", () => {
  it("shows each review as text, with its stars, date, edited mark, the author's reply, Helpful and Report", async () => {
    server({
      user: null,
      page: { reviews: [review({ text: "<b>not bold</b>\nsecond line", editedAt: "2026-02-02T10:00:00.000Z", reply: { text: "Thank you.", at: "2026-02-03T10:00:00.000Z" } })] },
    });
    renderWithApp(<BookReviews book={book} />, { path: "/books/7" });
    const item = await screen.findByTestId("review");
    expect(within(item).getByText("Lea Moreau")).toBeInTheDocument();
    expect(within(item).getByRole("img", { name: "4 out of 5 stars" })).toBeInTheDocument();
    expect(item).toHaveTextContent("edited");
    expect(within(item).getByTestId("review-body").textContent).toBe("<b>not bold</b>\nsecond line");
    expect(item.querySelector("b")).toBeNull();
    expect(within(item).getByTestId("review-reply")).toHaveTextContent("Thank you.");
    // A visitor sees the count, not a button.
    expect(within(item).getByTestId("review-helpful-count")).toHaveTextContent("Helpful (3)");
    expect(within(item).getByRole("link", { name: "Report the review by Lea Moreau" })).toHaveAttribute("href", "/report?review=1&from=%2Fbooks%2F7-the-lighthouse-keeper-s-ledger");
    expect(screen.getByRole("link", { name: "Log in to write a review" })).toBeInTheDocument();
  });

  it("toggles Helpful for a signed-in reader, and never offers it on their own review", async () => {
    const fetchMock = server({
      page: { reviews: [review(), review({ id: 2, mine: true, readerName: "Ada Lovelace" })] },
      onRequest: (url, init) => (url === "/api/reviews/1/helpful" && init?.method === "PUT" ? jsonResponse(200, { helpfulCount: 4, votedHelpful: true }) : undefined),
    });
    const { user } = renderWithApp(<BookReviews book={book} />, { path: "/books/7" });
    const [other, mine] = await screen.findAllByTestId("review");
    const helpful = within(other!).getByRole("button", { name: "Helpful (3)" });
    expect(helpful).toHaveAttribute("aria-pressed", "false");
    await user.click(helpful);
    await vi.waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => url === "/api/reviews/1/helpful" && init?.method === "PUT")).toBe(true));
    expect(within(mine!).queryByRole("button", { name: /Helpful/ })).toBeNull();
    expect(within(mine!).queryByTestId("review-report")).toBeNull();
  });

  it("lets a reader who took the book write a review, checked before it is sent", async () => {
    const fetchMock = server({
      page: { reviews: [] , total: 0 },
      onRequest: (url, init) =>
        url === "/api/books/7/review" && init?.method === "PUT" ? jsonResponse(200, { review: review({ mine: true }), bookRating: { avgRating: 4, reviewCount: 1 } }) : undefined,
    });
    const { user } = renderWithApp(<BookReviews book={book} />, { path: "/books/7" });
    await user.click(await screen.findByTestId("review-write"));
    // The form comes in a chunk of its own.
    await user.type(await screen.findByLabelText(/^Your review/), "Too short");
    await user.click(screen.getByTestId("review-submit"));
    expect(await screen.findByText("Write at least 20 characters.")).toBeInTheDocument();
    expect(screen.getByText("Choose a rating from 1 to 5 stars.")).toBeInTheDocument();
    await user.click(screen.getByLabelText("5 out of 5 stars"));
    await user.type(screen.getByLabelText(/^Your review/), ", and yet it stays with you.");
    await user.click(screen.getByTestId("review-submit"));
    await vi.waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url === "/api/books/7/review")).toBe(true));
    const sent = fetchMock.mock.calls.find(([url]) => url === "/api/books/7/review")!;
    expect(JSON.parse(String(sent[1]?.body))).toEqual({ rating: 5, text: "Too short, and yet it stays with you." });
    expect(await screen.findByText("Your review is published.")).toBeInTheDocument();
  });

  it("tells a reader who has not taken the book how to, and the author that they may reply", async () => {
    server({ page: { viewer: viewerOf({ tookBook: false }) } });
    const first = renderWithApp(<BookReviews book={book} />, { path: "/books/7" });
    expect(await screen.findByText("Download, read or send this book to your e-reader, then come back to review it.")).toBeInTheDocument();
    first.unmount();
    const fetchMock = server({
      page: { viewer: viewerOf({ isAuthor: true, tookBook: false, canRate: false }) },
      onRequest: (url, init) => (url === "/api/reviews/1/reply" && init?.method === "PUT" ? jsonResponse(200, review({ reply: { text: "Thank you.", at: "2026-02-03T10:00:00.000Z" } })) : undefined),
    });
    const { user } = renderWithApp(<BookReviews book={book} />, { path: "/books/7" });
    expect(await screen.findByText("Readers' reviews of your book. You can reply once to each.")).toBeInTheDocument();
    await user.click(screen.getByTestId("reply-open"));
    await user.type(await screen.findByLabelText(/^Your reply/), "Thank you.");
    await user.click(screen.getByTestId("reply-submit"));
    await vi.waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => url === "/api/reviews/1/reply" && init?.method === "PUT")).toBe(true));
  });

  it("sorts by most helpful and pages on", async () => {
    const fetchMock = server({ page: { hasMore: true } });
    const { user } = renderWithApp(<BookReviews book={book} />, { path: "/books/7" });
    await user.selectOptions(await screen.findByLabelText("Sort reviews"), "helpful");
    await vi.waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url === "/api/books/7/reviews?sort=helpful&page=1")).toBe(true));
    await user.click(await screen.findByTestId("reviews-more"));
    await vi.waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url === "/api/books/7/reviews?sort=helpful&page=2")).toBe(true));
  });
});
