import type { BookEditions } from "@shared/editions";
import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Route } from "wouter";
import { AuthorPage } from "@/features/books/author-page";
import { BookPage } from "@/features/books/book-page";
import { authorId, makeBook, stubFileSaving } from "@client-test/catalog-fixtures";
import { ada, anonymousResponse, jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

const book = makeBook({
  id: 7,
  title: "The Lighthouse Keeper's Ledger",
  description: "A quiet mystery.\n\nTold one night at a time.",
  genre: "misterio",
  fileSize: 2_400_000,
  pageCount: 212,
  downloadCount: 1234,
  rating: 4.5,
  reviewCount: 12,
});
const otherBook = makeBook({ id: 8, title: "Small Ledgers" });
const profile = {
  author: book.author,
  memberSince: "2025-03-01T10:00:00.000Z",
  totalDownloads: 1234,
  books: [otherBook, book],
};

const notFound = () => jsonResponse(404, { message: "This book does not exist.", code: "not_found" });

const explicitBook = makeBook({ id: 9, title: "Unveiled", contentRating: "explicit" });
const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const wordBook = makeBook({
  id: 10,
  title: "Notas de Word",
  fileType: "docx",
  fileSize: 5_300,
  formats: [
    { format: "docx", size: 5_300, mimeType: DOCX_TYPE },
    { format: "epub", size: 1_234_567, mimeType: "application/epub+zip" },
  ],
});

const twoEditions = (takenEdition: number | null): BookEditions => ({
  current: 2,
  editions: [
    { number: 2, createdAt: "2026-03-02T10:00:00.000Z", changelog: "The map of the coast is back.\nTypos fixed.", format: "epub", fileSize: 1_300_000 },
    { number: 1, createdAt: "2026-01-10T10:00:00.000Z", changelog: null, format: "pdf", fileSize: 2_400_000 },
  ],
  takenEdition,
});

function mockServer({
  signedIn = false,
  showExplicit = false,
  eReaderEmail = null as string | null,
  send = (): Response => jsonResponse(200, {}),
  editions = null as BookEditions | null,
} = {}) {
  return mockFetch((url, init) => {
    if (url === "/api/books/7/editions" && editions) return jsonResponse(200, editions);
    if (url === "/api/books/7/download?edition=1") return new Response("%PDF", { headers: { "Content-Disposition": 'attachment; filename="Ledger.pdf"' } });
    if (url === "/api/auth/user") return signedIn ? jsonResponse(200, { ...ada, showExplicit, eReaderEmail }) : anonymousResponse();
    if (url === "/api/books/7/send-to-e-reader" && init?.method === "POST") return send();
    if (url === "/api/books/7") return jsonResponse(200, book);
    if (url === "/api/books/9") return jsonResponse(200, explicitBook);
    if (url === "/api/books/10") return jsonResponse(200, wordBook);
    if (url === "/api/books/10/download?format=epub") return new Response("PK", { headers: { "Content-Disposition": 'attachment; filename="Notas de Word.epub"' } });
    if (url === "/api/books/2147483000") return jsonResponse(400, { message: "Invalid request.", code: "validation_failed", fields: { id: "validation.bookIdInvalid" } });
    if (url === "/api/books/41") return jsonResponse(410, { message: "This book was removed for a breach of Plume's terms.", code: "gone" });
    if (url === "/api/books/45") return jsonResponse(451, { message: "This book was removed on a legal ground.", code: "unavailable_for_legal_reasons" });
    if (url === `/api/authors/${authorId}`) return jsonResponse(200, profile);
    if (url.startsWith("/api/reviews?")) return jsonResponse(200, { userRating: 0 });
    return notFound();
  });
}

const renderBookPage = (path: string) => renderWithApp(<Route path="/books/:segment" component={BookPage} />, { path });

afterEach(() => {
  document.title = "";
});

describe("BookPage", () => {
  it("shows the book, its author's page, its details and the way to read and download it for a visitor", async () => {
    mockServer();
    renderBookPage("/books/7-the-lighthouse-keeper-s-ledger");

    expect(await screen.findByRole("heading", { level: 1, name: "The Lighthouse Keeper's Ledger" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Rosalía de Castro" })).toHaveAttribute("href", `/authors/${authorId}`);
    const facts = screen.getByTestId("book-facts");
    expect(facts).toHaveTextContent("Mystery");
    expect(facts).toHaveTextContent("English");
    expect(facts).toHaveTextContent("January 10, 2026");
    expect(facts).toHaveTextContent("PDF");
    expect(facts).toHaveTextContent("2.4 MB");
    expect(facts).toHaveTextContent("Pages212");
    expect(facts).toHaveTextContent("Counted downloads1,234");
    expect(await screen.findByTestId("rating-average")).toHaveTextContent("4.5 (12)");
    expect(screen.getByText(/Told one night at a time/)).toBeInTheDocument();
    expect(screen.getByText("Reading online and downloading are free for signed-in readers.")).toBeInTheDocument();

    await vi.waitFor(() => expect(screen.getByTestId("read-link")).toHaveTextContent("Log in to read"));
    expect(screen.getByTestId("read-link")).toHaveAttribute("href", "/login?next=%2Fbooks%2F7%2Fread");
    expect(screen.getByTestId("download-button")).toHaveTextContent("Log in to download");
    expect(screen.getByRole("link", { name: /^Log in to rate/ })).toHaveAttribute("href", "/login?next=%2Fbooks%2F7-the-lighthouse-keeper-s-ledger");
    expect(document.title).toBe("The Lighthouse Keeper's Ledger · Plume");
    // Sending to an e-reader is for a signed-in reader only.
    expect(screen.queryByTestId("send-to-e-reader")).toBeNull();
    expect(screen.queryByTestId("send-to-e-reader-setup")).toBeNull();
  });

  it("leads a signed-in reader without an e-reader address to the settings section that sets it", async () => {
    mockServer({ signedIn: true });
    renderBookPage("/books/7");
    const setUp = await screen.findByTestId("send-to-e-reader-setup");
    expect(setUp).toHaveTextContent("Send to my e-reader: add its address");
    expect(setUp).toHaveAttribute("href", "/settings#e-reader-email");
    expect(screen.queryByTestId("send-to-e-reader")).toBeNull();
  });

  it("sends the book to a reader's e-reader and says where it went", async () => {
    const fetchMock = mockServer({
      signedIn: true,
      eReaderEmail: "ada@kindle.com",
      send: () => jsonResponse(200, { sentTo: "ada@kindle.com", fileName: "The Lighthouse Keeper's Ledger.pdf", mimeType: "application/pdf" }),
    });
    const { user } = renderBookPage("/books/7");
    await user.click(await screen.findByRole("button", { name: "Send to my e-reader" }));
    expect(await screen.findByText("Sent to your e-reader")).toBeInTheDocument();
    expect(screen.getByText("The Lighthouse Keeper's Ledger.pdf was mailed to ada@kindle.com. It appears in your e-reader's library once delivered.")).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => url === "/api/books/7/send-to-e-reader")).toHaveLength(1);
  });

  it("tells the reader in words of its own when the day's sends are used up", async () => {
    mockServer({
      signedIn: true,
      eReaderEmail: "ada@kindle.com",
      send: () => jsonResponse(429, { message: "You have sent 10 books to your e-reader today. Try again in 20 hours.", code: "e_reader_send_limit" }),
    });
    const { user } = renderBookPage("/books/7");
    await user.click(await screen.findByRole("button", { name: "Send to my e-reader" }));
    expect(await screen.findByText("The book was not sent")).toBeInTheDocument();
    expect(screen.getByText("You have sent as many books to your e-reader as one day allows. Try again tomorrow, or download the book.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Send to my e-reader" })).toBeEnabled();
  });

  it("shows a visitor an explicit book's notice instead of the book, with the way to sign in", async () => {
    mockServer();
    renderBookPage("/books/9");

    const notice = await screen.findByTestId("explicit-notice");
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("This book is rated explicit");
    expect(notice).toHaveTextContent("Sign in, then choose to see explicit books in your settings.");
    expect(within(notice).getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login?next=%2Fbooks%2F9-unveiled");
    expect(screen.queryByText("Unveiled")).toBeNull();
    expect(screen.queryByTestId("download-button")).toBeNull();
    expect(document.title).not.toContain("Unveiled");
  });

  it("sends a signed-in reader who did not choose explicit books to the setting, and shows the book to one who did", async () => {
    mockServer({ signedIn: true });
    const { unmount } = renderBookPage("/books/9");
    const notice = await screen.findByTestId("explicit-notice");
    expect(within(notice).getByRole("link", { name: "Open my settings" })).toHaveAttribute("href", "/settings#explicit-books");
    unmount();

    mockServer({ signedIn: true, showExplicit: true });
    renderBookPage("/books/9");
    expect(await screen.findByTestId("book-page")).toHaveTextContent("Unveiled");
    expect(within(screen.getByTestId("book-facts")).getByTestId("content-rating")).toHaveTextContent("Explicit");
  });

  it("offers a signed-in reader the reader itself", async () => {
    mockServer({ signedIn: true });
    renderBookPage("/books/7");

    await vi.waitFor(() => expect(screen.getByTestId("read-link")).toHaveTextContent("Read online"));
    expect(screen.getByTestId("read-link")).toHaveAttribute("href", "/books/7/read");
    expect(screen.getByTestId("download-button")).toHaveTextContent("Download");
    expect(await screen.findByRole("radiogroup", { name: "Rate The Lighthouse Keeper's Ledger" })).toBeInTheDocument();
  });

  it("offers a Word book's EPUB first, then its own file, each with its size, and downloads the one chosen", async () => {
    const { clickedLinks } = stubFileSaving();
    const fetchMock = mockServer({ signedIn: true });
    const { user } = renderBookPage("/books/10");

    const epub = await screen.findByTestId("download-epub");
    await vi.waitFor(() => expect(epub).toBeEnabled());
    const actions = within(screen.getByRole("group", { name: "Read, download and share" }));
    expect(actions.getAllByRole("button").map((button) => button.getAttribute("data-testid"))).toEqual(["download-epub", "download-docx", "share-button"]);
    expect(epub).toHaveTextContent("Download EPUB · 1.2 MB");
    expect(screen.getByTestId("download-docx")).toHaveTextContent("Download DOCX · 5.3 kB");
    expect(screen.getByText(/^EPUB suits e-readers/)).toBeInTheDocument();

    await user.click(epub);
    expect(fetchMock).toHaveBeenCalledWith("/api/books/10/download?format=epub", expect.objectContaining({ method: "POST" }));
    await vi.waitFor(() => expect(clickedLinks.map((link) => link.download)).toEqual(["Notas de Word.epub"]));
  });

  it("lists the editions with their dates and changelogs, tells a reader who took an older one, and downloads any (docs/product.md#editions)", async () => {
    const { clickedLinks } = stubFileSaving();
    const fetchMock = mockServer({ signedIn: true, editions: twoEditions(1) });
    const { user } = renderBookPage("/books/7");

    const notice = await screen.findByTestId("new-edition-notice");
    expect(within(notice).getByRole("heading", { name: "New edition" })).toBeInTheDocument();
    expect(notice).toHaveTextContent("This book has a new edition since you took edition 1.");
    expect(notice).toHaveTextContent("Edition 2: The map of the coast is back.");
    expect(within(notice).getByRole("link", { name: "Read the new edition" })).toHaveAttribute("href", "/books/7/read");

    const list = within(screen.getByTestId("book-editions"));
    expect(list.getByRole("heading", { name: "Editions" })).toBeInTheDocument();
    expect(screen.getByTestId("edition-2")).toHaveTextContent(/Edition 2current.*EPUB.*1\.3 MB/);
    expect(screen.getByTestId("edition-1")).toHaveTextContent("First edition.");
    expect(screen.getByTestId("edition-1")).toHaveTextContent("January 10, 2026");

    await user.click(within(screen.getByTestId("edition-1")).getByRole("button", { name: /Download edition 1 \(PDF\)/ }));
    expect(fetchMock).toHaveBeenCalledWith("/api/books/7/download?edition=1", expect.objectContaining({ method: "POST" }));
    await vi.waitFor(() => expect(clickedLinks.map((link) => link.download)).toEqual(["Ledger.pdf"]));
  });

  it("shows no notice to a reader who took the newest edition, nor download buttons to a visitor", async () => {
    mockServer({ signedIn: true, editions: twoEditions(2) });
    const { unmount } = renderBookPage("/books/7");
    expect(await screen.findByTestId("book-editions")).toBeInTheDocument();
    expect(screen.queryByTestId("new-edition-notice")).not.toBeInTheDocument();
    unmount();

    mockServer({ editions: twoEditions(null) });
    renderBookPage("/books/7");
    const list = await screen.findByTestId("editions-list");
    expect(within(list).queryByRole("button")).not.toBeInTheDocument();
    expect(screen.queryByTestId("new-edition-notice")).not.toBeInTheDocument();
  });

  it("puts the current slug in the address, keeping the query", async () => {
    mockServer();
    const { history } = renderBookPage("/books/7-an-old-title?lang=en");

    await screen.findByRole("heading", { level: 1 });
    await vi.waitFor(() => expect(history.at(-1)).toBe("/books/7-the-lighthouse-keeper-s-ledger?lang=en"));
  });

  it("links more of the author's books to their pages", async () => {
    mockServer();
    renderBookPage("/books/7");

    const more = await screen.findByRole("region", { name: "More books by Rosalía de Castro" });
    expect(within(more).getByRole("link", { name: "Small Ledgers" })).toHaveAttribute("href", "/books/8-small-ledgers");
    expect(within(more).queryByRole("link", { name: "The Lighthouse Keeper's Ledger" })).toBeNull();
    expect(within(more).getByRole("link", { name: "All books by Rosalía de Castro" })).toHaveAttribute("href", `/authors/${authorId}`);
  });

  it("copies the book's address when the browser has no share sheet", async () => {
    mockServer();
    // user-event puts a clipboard of its own in jsdom's navigator, which has none.
    const { user } = renderBookPage("/books/7");

    await user.click(await screen.findByRole("button", { name: "Copy link" }));
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/books/7-the-lighthouse-keeper-s-ledger`);
    expect(await screen.findByText("Link copied")).toBeInTheDocument();
  });

  it("opens the share sheet where there is one", async () => {
    mockServer();
    const share = vi.fn(() => Promise.resolve());
    vi.stubGlobal("navigator", Object.create(navigator, { share: { value: share } }) as Navigator);
    const { user } = renderBookPage("/books/7");

    await user.click(await screen.findByRole("button", { name: "Share" }));
    expect(share).toHaveBeenCalledWith({
      url: `${window.location.origin}/books/7-the-lighthouse-keeper-s-ledger`,
      title: "The Lighthouse Keeper's Ledger",
      text: "The Lighthouse Keeper's Ledger by Rosalía de Castro, free on Plume",
    });
  });

  it.each([
    ["/books/41", "This book was removed"],
    ["/books/45", "This book is unavailable for legal reasons"],
  ])("says a removed book is gone, and why in a word, for %s", async (path, title) => {
    mockServer();
    renderBookPage(path);
    expect(await screen.findByRole("heading", { name: title })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Browse the catalog" })).toHaveAttribute("href", "/catalog");
  });

  it.each([
    ["/books/99", "unknown to the API"],
    ["/books/2147483000", "refused by the API"],
    ["/books/abc", "never asked"],
    ["/books/99999999999", "never asked"],
  ])("shows the 404 screen for %s (%s)", async (path, asked) => {
    const fetchMock = mockServer();
    renderBookPage(path);
    // Says what may have become of the book, and leads on to the catalog, not only home.
    expect(await screen.findByRole("heading", { name: "This book is not here" })).toBeInTheDocument();
    expect(screen.getByText(/Its author may have deleted it or taken it off Plume/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Browse the catalog" })).toHaveAttribute("href", "/catalog");
    const askedTheApi = fetchMock.mock.calls.some(([url]) => String(url).startsWith("/api/books/"));
    expect(askedTheApi).toBe(asked !== "never asked");
  });
});

describe("AuthorPage", () => {
  const renderAuthorPage = (path: string) => renderWithApp(<Route path="/authors/:id" component={AuthorPage} />, { path });

  it("shows the author's name, figures, member since and books, each linked to its page", async () => {
    mockServer();
    renderAuthorPage(`/authors/${authorId}`);

    expect(await screen.findByRole("heading", { level: 1, name: "Rosalía de Castro" })).toBeInTheDocument();
    expect(screen.getByText("Member since March 1, 2025")).toBeInTheDocument();
    expect(screen.getByTestId("author-book-count")).toHaveTextContent("2");
    expect(screen.getByTestId("author-downloads")).toHaveTextContent("1.2K");
    const books = screen.getByRole("region", { name: "Books by Rosalía de Castro" });
    expect(within(books).getByRole("link", { name: "Small Ledgers" })).toHaveAttribute("href", "/books/8-small-ledgers");
    expect(screen.getByRole("link", { name: "Follow by feed (Atom)" })).toHaveAttribute("href", `/authors/${authorId}/feed.xml`);
    expect(document.title).toBe("Rosalía de Castro · Plume");
  });

  it.each(["/authors/00000000-0000-4000-8000-000000000000", "/authors/not-an-id"])("shows the 404 screen for %s", async (path) => {
    mockServer();
    renderAuthorPage(path);
    expect(await screen.findByRole("heading", { name: "404 Page Not Found" })).toBeInTheDocument();
  });
});
