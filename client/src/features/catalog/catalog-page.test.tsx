import type { BookCard } from "@shared/books";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Link } from "wouter";
import i18n from "@/lib/i18n";
import { CatalogPage } from "@/features/catalog/catalog-page";
import { makeBooks } from "@client-test/catalog-fixtures";
import { anonymousResponse, jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

type CatalogAnswer = (query: URLSearchParams) => BookCard[] | Promise<Response>;

/** GET /api/books answered by `answer`; the session is anonymous. */
function mockCatalog(answer: CatalogAnswer) {
  const fetchMock = mockFetch((url) => {
    if (url === "/api/auth/user") return anonymousResponse();
    const [path, query = ""] = url.split("?");
    if (path === "/api/books") {
      const books = answer(new URLSearchParams(query));
      return Array.isArray(books) ? jsonResponse(200, books) : books;
    }
    return jsonResponse(404, { message: "Not found.", code: "not_found" });
  });
  /** The query strings of the catalog calls so far. */
  const catalogQueries = () =>
    fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith("/api/books?")).map((url) => new URLSearchParams(url.split("?")[1]));
  return { fetchMock, catalogQueries };
}

const lastQuery = (queries: URLSearchParams[]) => Object.fromEntries(queries.at(-1) ?? []);

function renderCatalog(path = "/catalog") {
  return renderWithApp(<CatalogPage />, { path });
}

const rememberedLanguage = () => /plume-book-lang=(\w+)/.exec(document.cookie)?.[1];

describe("CatalogPage", () => {
  afterEach(() => {
    document.cookie = "plume-book-lang=; path=/; max-age=0";
  });

  it("shows 8 placeholder cards while the first page loads", () => {
    mockCatalog(() => new Promise<Response>(() => {}));
    renderCatalog();

    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Catalog");
    const skeletons = screen.getAllByTestId("book-card-skeleton");
    expect(skeletons).toHaveLength(8);
    expect(screen.getByText("Loading…").closest("[role=status]")).toContainElement(skeletons[0]!);
  });

  it("asks for the first 20 books, newest first by default, with labelled controls", async () => {
    const { catalogQueries } = mockCatalog(() => makeBooks(3));
    renderCatalog();

    expect(await screen.findAllByTestId("book-card")).toHaveLength(3);
    expect(lastQuery(catalogQueries())).toEqual({ limit: "20", offset: "0" });
    expect(screen.getByLabelText("Search books")).toBe(screen.getByTestId("catalog-search"));
    expect(screen.getByLabelText("Genre")).toBe(screen.getByTestId("catalog-genre"));
    expect(screen.getByLabelText("Sort by")).toHaveValue("newest");
    expect(screen.getByRole("search", { name: "Search the catalog" })).toBeInTheDocument();
  });

  it("offers 'load more' only after a full page, and appends the next page", async () => {
    const { catalogQueries } = mockCatalog((query) => (query.get("offset") === "0" ? makeBooks(20, 1) : makeBooks(5, 21)));
    const { user } = renderCatalog();

    expect(await screen.findAllByTestId("book-card")).toHaveLength(20);
    await user.click(screen.getByTestId("load-more"));

    await waitFor(() => expect(screen.getAllByTestId("book-card")).toHaveLength(25));
    expect(lastQuery(catalogQueries())).toEqual({ limit: "20", after: "20" });
    const ids = screen.getAllByTestId("book-card").map((card) => Number(card.dataset.bookId));
    expect(ids).toEqual(Array.from({ length: 25 }, (_, index) => index + 1));
    expect(screen.queryByTestId("load-more")).not.toBeInTheDocument();
    // The button went with the last page: the keyboard's focus goes on at the first new book, not the page's start.
    await waitFor(() => expect(within(screen.getAllByTestId("book-card")[20]!).getByTestId("book-link")).toHaveFocus());
  });

  it("announces in a live region that stays in the page how many books are shown, or that none were found", async () => {
    mockCatalog((query) => (query.get("search") ? [] : makeBooks(3)));
    const { user } = renderCatalog();
    const announcement = () => screen.getByTestId("catalog-results-status");

    expect(announcement()).toHaveAttribute("role", "status");
    expect(announcement()).toHaveTextContent(/^$/);
    await waitFor(() => expect(announcement()).toHaveTextContent("Showing 3 books"));
    const liveRegion = announcement();

    await user.type(screen.getByTestId("catalog-search"), "zzz{Enter}");
    await waitFor(() => expect(announcement()).toHaveTextContent("No books found"));
    expect(announcement()).toBe(liveRegion);
  });

  it("has no 'load more' when the first page is not full", async () => {
    mockCatalog(() => makeBooks(19));
    renderCatalog();
    expect(await screen.findAllByTestId("book-card")).toHaveLength(19);
    expect(screen.queryByTestId("load-more")).not.toBeInTheDocument();
  });

  it("fills the box from ?search=, sends it, and ranks by relevance unless another order is chosen", async () => {
    const { catalogQueries } = mockCatalog(() => makeBooks(2));
    const { user } = renderCatalog("/catalog?search=faro%20viejo");

    expect(screen.getByTestId("catalog-search")).toHaveValue("faro viejo");
    await screen.findAllByTestId("book-card");
    expect(lastQuery(catalogQueries())).toEqual({ limit: "20", offset: "0", search: "faro viejo" });
    expect(screen.getByTestId("catalog-sort")).toHaveValue("relevance");

    await user.selectOptions(screen.getByTestId("catalog-sort"), "downloads");
    await waitFor(() => expect(lastQuery(catalogQueries())).toMatchObject({ search: "faro viejo", sort: "downloads" }));
  });

  it("writes a submitted search into the URL and starts again from the first page", async () => {
    const { catalogQueries } = mockCatalog((query) => makeBooks(20, Number(query.get("after") ?? 0) + 1));
    const { user, history } = renderCatalog();

    await screen.findAllByTestId("book-card");
    await user.click(screen.getByTestId("load-more"));
    await waitFor(() => expect(screen.getAllByTestId("book-card")).toHaveLength(40));

    await user.type(screen.getByTestId("catalog-search"), "  lighthouse {Enter}");
    expect(history.at(-1)).toBe("/catalog?search=lighthouse");
    await waitFor(() => expect(screen.getAllByTestId("book-card")).toHaveLength(20));
    expect(lastQuery(catalogQueries())).toEqual({ limit: "20", offset: "0", search: "lighthouse" });

    // The same search submitted again also goes back to one page.
    await user.click(screen.getByTestId("load-more"));
    await waitFor(() => expect(screen.getAllByTestId("book-card")).toHaveLength(40));
    await user.click(screen.getByRole("button", { name: "Search" }));
    await waitFor(() => expect(screen.getAllByTestId("book-card")).toHaveLength(20));
  });

  it("lets the box follow the URL when it changes, dropping what was typed", async () => {
    const { catalogQueries } = mockCatalog(() => makeBooks(1));
    const { user } = renderWithApp(
      <>
        <Link href="/catalog?search=sol">Sol</Link>
        <CatalogPage />
      </>,
      { path: "/catalog?search=mar" },
    );
    await screen.findAllByTestId("book-card");
    await user.type(screen.getByTestId("catalog-search"), " draft");

    await user.click(screen.getByRole("link", { name: "Sol" }));
    expect(screen.getByTestId("catalog-search")).toHaveValue("sol");
    await waitFor(() => expect(lastQuery(catalogQueries())).toMatchObject({ search: "sol", offset: "0" }));
  });

  it("filters by genre, with 'all' first and the genres in alphabetical order of the reader's language", async () => {
    await i18n.changeLanguage("fr");
    const { catalogQueries } = mockCatalog(() => makeBooks(1));
    const { user } = renderCatalog();

    const genre = screen.getByLabelText("Genre");
    const labels = within(genre).getAllByRole("option").map((option) => option.textContent ?? "");
    expect(labels[0]).toBe("Tous les genres");
    expect(labels).toHaveLength(15);
    expect(labels.slice(1)).toEqual([...labels.slice(1)].sort((a, b) => a.localeCompare(b, "fr")));

    await user.selectOptions(genre, "historia");
    await waitFor(() => expect(lastQuery(catalogQueries())).toMatchObject({ genre: "historia" }));
  });

  it("keeps the genre and the order in the URL, leaving the defaults out", async () => {
    const { catalogQueries } = mockCatalog(() => makeBooks(2));
    const { user, history } = renderCatalog();
    await screen.findAllByTestId("book-card");

    await user.selectOptions(screen.getByTestId("catalog-genre"), "historia");
    expect(history.at(-1)).toBe("/catalog?genre=historia");
    await user.selectOptions(screen.getByTestId("catalog-sort"), "title");
    expect(history.at(-1)).toBe("/catalog?genre=historia&sort=title");
    await waitFor(() => expect(lastQuery(catalogQueries())).toEqual({ limit: "20", offset: "0", genre: "historia", sort: "title" }));

    await user.type(screen.getByTestId("catalog-search"), "faro{Enter}");
    expect(history.at(-1)).toBe("/catalog?search=faro&genre=historia&sort=title");
    await user.selectOptions(screen.getByTestId("catalog-sort"), "relevance");
    expect(history.at(-1)).toBe("/catalog?search=faro&genre=historia");
    await user.selectOptions(screen.getByTestId("catalog-genre"), "all");
    expect(history.at(-1)).toBe("/catalog?search=faro");
  });

  it("shows the search, genre and order a shared URL names, and the defaults for values it does not know", async () => {
    const { catalogQueries } = mockCatalog(() => makeBooks(1));
    renderCatalog("/catalog?genre=historia&sort=rating&search=mar");
    await screen.findAllByTestId("book-card");
    expect(screen.getByTestId("catalog-search")).toHaveValue("mar");
    expect(screen.getByTestId("catalog-genre")).toHaveValue("historia");
    expect(screen.getByTestId("catalog-sort")).toHaveValue("rating");
    expect(lastQuery(catalogQueries())).toEqual({ limit: "20", offset: "0", genre: "historia", search: "mar", sort: "rating" });
  });

  it("falls back to the defaults for a genre or an order it does not know", async () => {
    const { catalogQueries } = mockCatalog(() => makeBooks(1));
    renderCatalog("/catalog?genre=astrologia&sort=relevance");
    await screen.findAllByTestId("book-card");
    expect(screen.getByTestId("catalog-genre")).toHaveValue("all");
    expect(screen.getByTestId("catalog-sort")).toHaveValue("newest");
    expect(lastQuery(catalogQueries())).toEqual({ limit: "20", offset: "0" });
  });

  it("filters by book language, every language first and each by its own name, in the address and remembered", async () => {
    const { catalogQueries } = mockCatalog(() => makeBooks(2));
    const { user, history } = renderCatalog();
    await screen.findAllByTestId("book-card");

    const language = screen.getByLabelText("Language");
    expect(language).toHaveValue("all");
    const options = within(language).getAllByRole("option");
    expect(options.map((option) => [option.textContent, option.getAttribute("lang")])).toEqual([
      ["All languages", null],
      ["English", "en"],
      ["Español", "es"],
      ["Français", "fr"],
    ]);

    await user.selectOptions(language, "es");
    expect(history.at(-1)).toBe("/catalog?language=es");
    await waitFor(() => expect(lastQuery(catalogQueries())).toEqual({ limit: "20", offset: "0", language: "es" }));
    expect(rememberedLanguage()).toBe("es");

    await user.selectOptions(screen.getByTestId("catalog-language"), "all");
    expect(history.at(-1)).toBe("/catalog");
    expect(rememberedLanguage()).toBeUndefined();
    expect(screen.getByTestId("catalog-language")).toHaveValue("all");
    expect(await screen.findAllByTestId("book-card")).toHaveLength(2);
  });

  it("opens in the book language chosen last and writes it into the address; an address naming one shows that one", async () => {
    document.cookie = "plume-book-lang=fr; path=/";
    const first = mockCatalog(() => makeBooks(1));
    const { history, unmount } = renderCatalog("/catalog?genre=novela");
    await screen.findAllByTestId("book-card");
    expect(screen.getByTestId("catalog-language")).toHaveValue("fr");
    expect(history.at(-1)).toBe("/catalog?genre=novela&language=fr");
    // The one request, for what is shown from the start: the address's rewrite asks for nothing more.
    expect(first.catalogQueries().map((query) => Object.fromEntries(query))).toEqual([{ limit: "20", offset: "0", genre: "novela", language: "fr" }]);
    unmount();

    const second = mockCatalog(() => makeBooks(1));
    renderCatalog("/catalog?language=en");
    await screen.findAllByTestId("book-card");
    expect(screen.getByTestId("catalog-language")).toHaveValue("en");
    expect(lastQuery(second.catalogQueries())).toEqual({ limit: "20", offset: "0", language: "en" });
    // A link's language is shown, not taken as the reader's choice.
    expect(rememberedLanguage()).toBe("fr");
  });

  it("clears a book language with the other filters when nothing is found in it", async () => {
    document.cookie = "plume-book-lang=fr; path=/";
    mockCatalog((query) => (query.get("language") ? [] : makeBooks(2)));
    const { user, history } = renderCatalog();

    expect(await screen.findByText("Try other words, another genre or another language.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Clear the filters" }));
    expect(history.at(-1)).toBe("/catalog");
    expect(rememberedLanguage()).toBeUndefined();
    expect(await screen.findAllByTestId("book-card")).toHaveLength(2);
  });

  it("suggests adjusting the filters when a search finds nothing, and clears them", async () => {
    mockCatalog((query) => (query.get("search") ? [] : makeBooks(2)));
    const { user, history } = renderCatalog("/catalog?search=zzz");

    expect(await screen.findByRole("heading", { name: "No books found" })).toBeInTheDocument();
    expect(screen.getByText("Try other words, another genre or another language.")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Clear the filters" }));
    expect(history.at(-1)).toBe("/catalog");
    expect(screen.getByTestId("catalog-search")).toHaveValue("");
    expect(await screen.findAllByTestId("book-card")).toHaveLength(2);
  });

  it("suggests adjusting the filters when a genre has no books", async () => {
    mockCatalog((query) => (query.get("genre") ? [] : makeBooks(2)));
    const { user } = renderCatalog();
    await screen.findAllByTestId("book-card");

    await user.selectOptions(screen.getByTestId("catalog-genre"), "cripto");
    expect(await screen.findByText("Try other words, another genre or another language.")).toBeInTheDocument();
  });

  it("invites the first author when the catalog is empty", async () => {
    mockCatalog(() => []);
    renderCatalog();

    expect(await screen.findByRole("heading", { name: "No books found" })).toBeInTheDocument();
    expect(screen.getByText("Nobody has published a book yet. Be the first to publish yours!")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Publish a book" })).toHaveAttribute("href", "/upload");
  });

  it("logs a failed load and shows the empty state with the reason and a retry", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    let fail = true;
    mockCatalog(() => (fail ? Promise.resolve(jsonResponse(500, { message: "Boom.", code: "internal_error" })) : makeBooks(1)));
    const { user } = renderCatalog();

    const reason = "We could not load the books. Please try again.";
    const emptyState = (await screen.findByRole("heading", { name: "No books found" })).parentElement!;
    expect(within(emptyState).getByText(reason)).toBeInTheDocument();
    // The announcement follows the results in a passive effect, so it may land one commit later.
    await waitFor(() => expect(screen.getByTestId("catalog-results-status")).toHaveTextContent(reason));
    expect(logged).toHaveBeenCalledWith("We could not load the books. Please try again.", expect.objectContaining({ status: 500 }));

    fail = false;
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findAllByTestId("book-card")).toHaveLength(1);
  });
});
