import type { BookCard as Book } from "@shared/books";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { BookCard, type BookCardVariant } from "@/features/books/book-card";
import i18n from "@/lib/i18n";
import { bookBy, makeBook, stubFileSaving } from "@client-test/catalog-fixtures";
import { ada, anonymousResponse, jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

type Handler = (url: string, init: RequestInit | undefined) => Response | Promise<Response> | undefined;

/** The API as a card sees it: Ada's session (or none), her rating of each book, and whatever the test adds. */
function mockServer({ signedIn = true, userRating = 0, handle }: { signedIn?: boolean; userRating?: number; handle?: Handler } = {}) {
  return mockFetch((url, init) => {
    const answer = handle?.(url, init);
    if (answer) return answer;
    if (url === "/api/auth/user") return signedIn ? jsonResponse(200, ada) : anonymousResponse();
    if (url.startsWith("/api/reviews?")) return jsonResponse(200, { userRating });
    return jsonResponse(404, { message: "Not found.", code: "not_found" });
  });
}

function renderCard(book: Book, { variant = "full", path = "/catalog" }: { variant?: BookCardVariant; path?: string } = {}) {
  return renderWithApp(<BookCard book={book} variant={variant} />, { path });
}

const stars = () => [1, 2, 3, 4, 5].map((star) => screen.getByTestId(`rate-${star}`));

describe("BookCard", () => {
  it("shows the cover lazily in a reserved 2:3 box, the author, language, genre, description and downloads", async () => {
    mockServer({ signedIn: false });
    const book = makeBook({ id: 7, title: "Follas novas", coverImageUrl: "/covers/abc.jpg", downloadCount: 12_345, genre: "biografia" });
    renderCard(book);

    const cover = screen.getByRole("img", { name: "Cover of Follas novas" });
    expect(cover).toHaveAttribute("src", "/covers/abc.jpg");
    expect(cover).toHaveAttribute("loading", "lazy");
    expect(cover).toHaveAttribute("width", "600");
    expect(cover).toHaveAttribute("height", "900");
    const card = screen.getByTestId("book-card");
    expect(card).toHaveAttribute("data-book-id", "7");
    expect(within(card).getByRole("heading", { name: "Follas novas" })).toBeInTheDocument();
    expect(card).toHaveTextContent("by Rosalía de Castro");
    expect(card).toHaveTextContent("Biography");
    expect(card).toHaveTextContent("English");
    expect(card).toHaveTextContent("A quiet story about a lighthouse keeper.");
    expect(card).toHaveTextContent("12.3K");
  });

  it("wears a badge for a Teen, Mature or Explicit book, named for screen readers, and none for a General one", () => {
    mockServer({ signedIn: false });
    const expected = { general: null, teen: "Teen", mature: "Mature", explicit: "Explicit" } as const;
    for (const [contentRating, label] of Object.entries(expected)) {
      const { unmount } = renderCard(makeBook({ contentRating: contentRating as Book["contentRating"] }));
      const badge = within(screen.getByTestId("book-card")).queryByTestId("content-rating");
      if (label === null) expect(badge).toBeNull();
      else expect(badge).toHaveTextContent(`Content rating: ${label}`);
      unmount();
    }
  });

  it("draws a placeholder without a cover, names an anonymous author, and leaves description and genre out when compact", () => {
    mockServer({ signedIn: false });
    renderCard(makeBook({ title: "ébano", author: { id: "x", firstName: null, lastName: null, displayName: null } }), { variant: "compact" });

    expect(screen.getByTestId("cover-placeholder")).toHaveTextContent("É");
    expect(screen.queryByRole("img")).not.toBeInTheDocument();
    const card = screen.getByTestId("book-card");
    expect(card).toHaveTextContent("by Anonymous author");
    expect(card).not.toHaveTextContent("A quiet story");
    expect(card).not.toHaveTextContent("Novel");
  });

  it("speaks the reader's language: labels and number formats", async () => {
    await i18n.changeLanguage("es");
    mockServer({ signedIn: false });
    renderCard(makeBook({ language: "fr", downloadCount: 12_345 }));

    const card = screen.getByTestId("book-card");
    expect(card).toHaveTextContent("de Rosalía de Castro");
    expect(card).toHaveTextContent("Français");
    expect(card).toHaveTextContent("12,3K");
    expect(await screen.findByText("Inicia sesión para descargar")).toBeInTheDocument();
  });

  describe("for a visitor", () => {
    it("locks the download: the button asks to log in, then a toast and the login screen with the way back", async () => {
      const fetchMock = mockServer({ signedIn: false });
      const { user, history } = renderCard(makeBook(), { path: "/catalog?search=mar" });

      const button = await screen.findByRole("button", { name: /^Log in to download/ });
      expect(button).toBe(screen.getByTestId("download-button"));
      expect(button.querySelector("svg")).toBeInTheDocument();
      await user.click(button);

      expect(screen.getByRole("alert")).toHaveTextContent("Log in to download");
      expect(history.at(-1)).toBe("/login?next=%2Fcatalog%3Fsearch%3Dmar");
      expect(fetchMock.mock.calls.filter(([, init]) => init?.method === "POST")).toEqual([]);
    });

    it("shows the average and the count, read out in full, with no star to give: rating is a signed-in reader's action", async () => {
      mockServer({ signedIn: false });
      renderCard(makeBook({ title: "Follas novas", rating: 4.4, reviewCount: 12 }));

      // Shown at once, before the session is known, and after it too.
      expect(screen.getByTestId("rating-average")).toHaveTextContent("4.4 (12)");
      expect(screen.getByTestId("rating-average")).toHaveTextContent("Average rating 4.4 out of 5, number of ratings: 12");
      await screen.findByRole("button", { name: /Log in to download/ });
      expect(screen.getByTestId("rating-average")).toHaveTextContent("4.4 (12)");
      expect(screen.queryByRole("radio")).not.toBeInTheDocument();
      expect(screen.queryByRole("link", { name: /Log in to rate/ })).not.toBeInTheDocument();
    });

    it("says that nobody has rated the book yet, in each language", async () => {
      for (const [language, text] of [["en", "No ratings yet"], ["es", "Aún sin valoraciones"], ["fr", "Pas encore de note"]] as const) {
        await i18n.changeLanguage(language);
        mockServer({ signedIn: false });
        const { unmount } = renderCard(makeBook({ rating: 0, reviewCount: 0 }));
        expect(screen.getByTestId("rating-average")).toHaveTextContent(text);
        unmount();
      }
    });
  });

  describe("download for a signed-in reader", () => {
    it("posts the download, shows a spinner and stays disabled while it runs, then saves the file under the server's name", async () => {
      const { clickedLinks, createObjectURL } = stubFileSaving();
      let finishDownload: (response: Response) => void = () => {};
      const fetchMock = mockServer({
        handle: (url) =>
          url === "/api/books/7/download" ? new Promise<Response>((resolve) => (finishDownload = resolve)) : undefined,
      });
      const { user } = renderCard(makeBook({ id: 7, title: "Cien años" }));

      const button = await screen.findByRole("button", { name: /^Download/ });
      await waitFor(() => expect(button).toBeEnabled());
      await user.click(button);

      expect(fetchMock).toHaveBeenCalledWith("/api/books/7/download", expect.objectContaining({ method: "POST", credentials: "include" }));
      expect(button).toBeDisabled();
      expect(button).toHaveTextContent("Downloading…");
      expect(button).toHaveAttribute("aria-busy", "true");

      finishDownload(
        new Response("%PDF-1.7", {
          headers: { "Content-Disposition": `attachment; filename="Cien a?os.pdf"; filename*=UTF-8''Cien%20a%C3%B1os.pdf` },
        }),
      );
      await waitFor(() => expect(button).toBeEnabled());
      expect(button).toHaveTextContent("Download");
      expect(createObjectURL).toHaveBeenCalledTimes(1);
      expect(clickedLinks.map((link) => link.download)).toEqual(["Cien años.pdf"]);
    });

    it("names the file {title}.{type} when the server names none", async () => {
      const { clickedLinks } = stubFileSaving();
      mockServer({ handle: (url) => (url === "/api/books/8/download" ? new Response("doc") : undefined) });
      const { user } = renderCard(makeBook({ id: 8, title: "Notas", fileType: "docx" }));

      const button = await screen.findByRole("button", { name: /^Download/ });
      await waitFor(() => expect(button).toBeEnabled());
      await user.click(button);
      await waitFor(() => expect(clickedLinks.map((link) => link.download)).toEqual(["Notas.docx"]));
    });

    it("says so in a destructive toast when the download fails", async () => {
      stubFileSaving();
      mockServer({
        handle: (url) => (url === "/api/books/9/download" ? jsonResponse(404, { message: "Gone.", code: "not_found" }) : undefined),
      });
      const { user } = renderCard(makeBook({ id: 9 }));

      const button = await screen.findByRole("button", { name: /^Download/ });
      await waitFor(() => expect(button).toBeEnabled());
      await user.click(button);

      const toast = await screen.findByRole("alert");
      await waitFor(() => expect(toast).toHaveTextContent("Download error"));
      expect(button).toBeEnabled();
    });
  });

  describe("rating", () => {
    it("shows the average with one decimal and the count, and five labelled stars", async () => {
      mockServer();
      renderCard(makeBook({ title: "Follas novas", rating: 4, reviewCount: 3 }));

      await waitFor(() => expect(screen.getByTestId("rate-3")).toBeEnabled());
      expect(screen.getByTestId("rating-average")).toHaveTextContent("4.0 (3)");
      expect(screen.getByRole("radiogroup", { name: "Rate Follas novas" })).toBeInTheDocument();
      expect(stars().map((star) => star.getAttribute("aria-label"))).toEqual([
        "Rate 1 out of 5",
        "Rate 2 out of 5",
        "Rate 3 out of 5",
        "Rate 4 out of 5",
        "Rate 5 out of 5",
      ]);
    });

    it("posts {bookId, userId, rating}, marks the star chosen and fetches the new average; the stars stay open to a change", async () => {
      let average = { avgRating: 4, reviewCount: 1 };
      const fetchMock = mockServer({
        handle: (url, init) => {
          if (url === "/rate" && init?.method === "POST") {
            average = { avgRating: 4.5, reviewCount: 2 };
            return jsonResponse(201, average);
          }
          if (url === "/rating/7") return jsonResponse(200, average);
          return undefined;
        },
      });
      const { user } = renderCard(makeBook({ id: 7, rating: 4, reviewCount: 1 }));

      await waitFor(() => expect(screen.getByTestId("rate-5")).toBeEnabled());
      await user.click(screen.getByTestId("rate-5"));

      const post = fetchMock.mock.calls.find(([url]) => url === "/rate");
      expect(JSON.parse(String(post?.[1]?.body))).toEqual({ bookId: 7, userId: ada.id, rating: 5 });
      await waitFor(() => expect(screen.getByTestId("rating-average")).toHaveTextContent("4.5 (2)"));
      expect(fetchMock).toHaveBeenCalledWith("/rating/7", expect.anything());
      for (const star of stars()) expect(star).toBeEnabled();
      expect(screen.getByTestId("rate-5")).toHaveAttribute("aria-checked", "true");
    });

    it("shows the reader's own rating and offers to change it (docs/product.md#reviews)", async () => {
      const fetchMock = mockServer({ userRating: 4 });
      renderCard(makeBook({ id: 3 }));

      await waitFor(() => expect(screen.getByTestId("rate-4")).toHaveAttribute("aria-checked", "true"));
      for (const star of stars()) expect(star).toBeEnabled();
      expect(screen.getByRole("radiogroup")).toHaveAccessibleDescription("You rated this book 4 out of 5: choose another star to change it");
      expect(fetchMock).toHaveBeenCalledWith(`/api/reviews?bookId=3&userId=${ada.id}`, expect.anything());
    });

    it("is disabled on the reader's own book, with the reason as a tooltip, without asking for a rating", async () => {
      const fetchMock = mockServer();
      renderCard(bookBy(ada));

      await screen.findByTestId("rate-1");
      for (const star of stars()) expect(star).toBeDisabled();
      expect(screen.getByTitle("You cannot rate your own book")).toContainElement(screen.getByTestId("rate-1"));
      expect(screen.getByRole("radiogroup")).toHaveAccessibleDescription("You cannot rate your own book");
      expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith("/api/reviews"))).toBe(false);
    });

    it("toasts the translated reason when the rating is refused", async () => {
      mockServer({
        handle: (url) =>
          url === "/rate" ? jsonResponse(409, { message: "You have already rated this book.", code: "already_rated" }) : undefined,
      });
      const { user } = renderCard(makeBook());

      await waitFor(() => expect(screen.getByTestId("rate-2")).toBeEnabled());
      await user.click(screen.getByTestId("rate-2"));

      const toast = await screen.findByRole("alert");
      await waitFor(() => expect(toast).toHaveTextContent("Rating error"));
      expect(toast).toHaveTextContent("You have already rated this book");
    });

    it("moves the focus between the stars with the arrow keys without rating", async () => {
      const fetchMock = mockServer();
      const { user } = renderCard(makeBook());

      await waitFor(() => expect(screen.getByTestId("rate-1")).toBeEnabled());
      expect(stars().map((star) => star.tabIndex)).toEqual([0, -1, -1, -1, -1]);
      screen.getByTestId("rate-1").focus();
      await user.keyboard("{ArrowRight}{ArrowRight}");
      expect(screen.getByTestId("rate-3")).toHaveFocus();
      await user.keyboard("{End}");
      expect(screen.getByTestId("rate-5")).toHaveFocus();
      await user.keyboard("{ArrowLeft}");
      expect(screen.getByTestId("rate-4")).toHaveFocus();
      expect(fetchMock.mock.calls.some(([url]) => url === "/rate")).toBe(false);

      await user.keyboard("{Enter}");
      await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url === "/rate")).toBe(true));
    });
  });
});
