import type { OpenedBook } from "@shared/reading";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { Route } from "wouter";
import { ReaderPage } from "@/features/reader/reader-page";
import { jsonResponse, mockFetch } from "@client-test/fixtures";
import { renderWithApp } from "@client-test/render";

const WORD_BOOK: OpenedBook = { id: 7, title: "El jardín de las mañanas", format: "word", pageCount: null, position: { page: 2, percentage: null, locator: null, format: "word", device: null } };
const PAGES = ["<h1>Uno</h1><p>First page</p>", "<p>Second page</p>", "<p>Third page</p>"];

function renderReader({ opened = WORD_BOOK, openAnswer, viewAnswers = [] }: { opened?: OpenedBook; openAnswer?: () => Response; viewAnswers?: Array<() => Response> } = {}) {
  const fetchMock = mockFetch((url, init) => {
    if (url === "/api/books/7/read" && init?.method === "POST") return openAnswer?.() ?? jsonResponse(200, opened);
    // The view's answers in turn, then the pages.
    if (url === "/api/books/7/read/view") return viewAnswers.shift()?.() ?? jsonResponse(200, { pages: PAGES });
    if (url === "/api/books/7/read/position") return new Response(null, { status: 204 });
    return jsonResponse(404, { message: "Not found.", code: "not_found" });
  });
  const view = renderWithApp(
    <Route path="/books/:id/read">
      <ReaderPage />
    </Route>,
    { path: "/books/7/read" },
  );
  return { ...view, fetchMock };
}

const savedPages = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls
    .filter(([url, init]) => String(url) === "/api/books/7/read/position" && init?.method === "PUT")
    .map(([, init]) => {
      expect(init).toMatchObject({ keepalive: true, credentials: "include" });
      return (JSON.parse(String(init!.body)) as { page: number }).page;
    });

const shownPage = () => screen.getByTestId("word-page").textContent;

/** The page area is 390 px wide, as on a phone. */
function onPhone(area: HTMLElement) {
  vi.spyOn(area, "getBoundingClientRect").mockReturnValue({ left: 0, top: 57, width: 390, height: 787, right: 390, bottom: 844, x: 0, y: 57, toJSON: () => ({}) });
}
function touch(area: HTMLElement, x: number, pointerType = "touch") {
  onPhone(area);
  act(() => {
    fireEvent.pointerDown(area, { pointerId: 1, pointerType, isPrimary: true, clientX: x, clientY: 400 });
    fireEvent.pointerUp(area, { pointerId: 1, pointerType, isPrimary: true, clientX: x, clientY: 400 });
  });
}
function swipe(area: HTMLElement, dx: number) {
  onPhone(area);
  act(() => {
    fireEvent.pointerDown(area, { pointerId: 1, pointerType: "touch", isPrimary: true, clientX: 200, clientY: 400 });
    fireEvent.pointerUp(area, { pointerId: 1, pointerType: "touch", isPrimary: true, clientX: 200 + dx, clientY: 410 });
  });
}
/** The system's colour scheme, as matchMedia answers it. */
function stubColorScheme(dark: boolean) {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: dark && query === "(prefers-color-scheme: dark)",
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}
const press = (key: string, modifiers: { ctrlKey?: boolean } = {}) =>
  act(() => {
    fireEvent.keyDown(window, { key, ...modifiers });
  });

describe("ReaderPage", () => {
  it("tells the reader a Word book is being prepared, asks again by itself and shows it once made (docs/decisions/0051)", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const preparing = () => jsonResponse(503, { message: "This book is being prepared for reading.", code: "book_view_preparing" });
      const { fetchMock } = renderReader({ viewAnswers: [preparing, preparing] });
      expect(await screen.findByText(/This book is being prepared for reading\. It happens once per book/)).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(10_000));
      expect(await screen.findByText("Second page")).toBeInTheDocument();
      expect(fetchMock.mock.calls.filter(([url]) => String(url) === "/api/books/7/read/view")).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it("tells the reader to download a Word book that cannot be shown in the browser, without asking again", async () => {
    const unavailable = () => jsonResponse(422, { message: "This book cannot be shown in the browser; download it instead.", code: "book_view_unavailable" });
    const { fetchMock } = renderReader({ viewAnswers: [unavailable, unavailable] });
    expect(await screen.findByText("This book cannot be shown in the browser. Download it instead from the book's page.")).toHaveAttribute("role", "alert");
    expect(fetchMock.mock.calls.filter(([url]) => String(url) === "/api/books/7/read/view")).toHaveLength(1);
  });

  it("opens the book where the reader left it and says that opening counts as a download", async () => {
    const { fetchMock } = renderReader();
    expect(await screen.findByText("Second page")).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith("/api/books/7/read", expect.objectContaining({ method: "POST" }));
    expect(screen.getByTestId("reader-title")).toHaveTextContent("El jardín de las mañanas");
    expect(screen.getByTestId("reader-counts-notice")).toHaveTextContent("counts as a download for its author");
    expect(screen.getByText("of 3")).toBeInTheDocument();
    expect(screen.getByTestId("reader-page-input")).toHaveValue("2");
    expect(screen.getByRole("link", { name: /Back to the book/ })).toHaveAttribute("href", "/books/7-el-jardin-de-las-mananas");
    // Anyone reports what they read: the form names the book and this page (docs/product.md#moderation).
    expect(screen.getByRole("link", { name: "Report this book" })).toHaveAttribute("href", "/report?book=7&from=%2Fbooks%2F7%2Fread");
    expect(document.title).toContain("Reading El jardín de las mañanas");
  });

  it("turns pages with the buttons, the page box and the keys, within the book", async () => {
    const { user } = renderReader();
    await screen.findByText("Second page");
    await user.click(screen.getByTestId("reader-next"));
    expect(shownPage()).toBe("Third page");
    expect(screen.getByTestId("reader-next")).toBeDisabled();
    expect(screen.getByTestId("reader-last")).toBeDisabled();
    await user.click(screen.getByTestId("reader-first"));
    expect(shownPage()).toBe("UnoFirst page");
    expect(screen.getByTestId("reader-previous")).toBeDisabled();
    await user.click(screen.getByTestId("reader-last"));
    expect(shownPage()).toBe("Third page");
    await user.click(screen.getByTestId("reader-previous"));
    expect(shownPage()).toBe("Second page");

    press("Home");
    expect(shownPage()).toBe("UnoFirst page");
    press("ArrowLeft");
    expect(shownPage()).toBe("UnoFirst page");
    press("ArrowRight");
    expect(shownPage()).toBe("Second page");
    press("PageDown");
    expect(shownPage()).toBe("Third page");
    press("PageDown");
    expect(shownPage()).toBe("Third page");
    press("PageUp");
    expect(shownPage()).toBe("Second page");
    press("End");
    expect(shownPage()).toBe("Third page");

    const box = screen.getByTestId("reader-page-input");
    await user.clear(box);
    await user.type(box, "1{Enter}");
    expect(shownPage()).toBe("UnoFirst page");
    // Typing in the box is not turning pages, and a page past the end shows the last one.
    await user.clear(box);
    await user.type(box, "99{Enter}");
    expect(shownPage()).toBe("Third page");
    await user.clear(box);
    await user.type(box, "two{Enter}");
    expect(shownPage()).toBe("Third page");
    expect(box).toHaveValue("3");
  });

  it("zooms the text with the display panel's buttons and + and −, fits it again, and remembers the choice", async () => {
    const { user, unmount } = renderReader();
    await screen.findByText("Second page");
    await user.click(screen.getByTestId("reader-display-button"));
    const zoom = screen.getByTestId("reader-zoom");
    expect(zoom).toHaveTextContent("100%");
    expect(screen.getByTestId("reader-fit-page")).toHaveAttribute("aria-pressed", "true");
    // A Word book's text is a reading column, not a page.
    expect(screen.getByTestId("reader-fit-page")).toHaveTextContent("Reading column");
    await user.click(screen.getByTestId("reader-zoom-in"));
    expect(zoom).toHaveTextContent("125%");
    expect(screen.getByTestId("reader-fit-page")).toHaveAttribute("aria-pressed", "false");
    press("+");
    expect(zoom).toHaveTextContent("156%");
    press("-");
    press("-");
    press("-");
    expect(zoom).toHaveTextContent("80%");
    // Ctrl and + is the browser's own zoom: the reader leaves it alone.
    press("+", { ctrlKey: true });
    expect(zoom).toHaveTextContent("80%");
    expect(screen.getByTestId("word-page").style.fontSize).toBe(`${0.8 * 1.0625}rem`);
    // "Fit width" lets the text take the whole width, at its own size.
    await user.click(screen.getByTestId("reader-fit-width"));
    expect(zoom).toHaveTextContent("100%");
    expect(screen.getByTestId("word-page")).toHaveClass("max-w-none");
    press("+");
    unmount();

    // The next opening keeps the fit and the zoom.
    renderReader();
    await screen.findByText("Second page");
    expect(screen.getByTestId("word-page").style.fontSize).toBe(`${1.25 * 1.0625}rem`);
    expect(screen.getByTestId("word-page")).toHaveClass("max-w-none");
  });

  it("shows the counting notice in full at a book's first opening in this browser, then behind the information button", async () => {
    const { user, unmount } = renderReader();
    await screen.findByText("Second page");
    expect(screen.getByTestId("reader-info-panel")).toBeInTheDocument();
    expect(screen.getByTestId("reader-info-button")).toHaveAttribute("aria-expanded", "true");
    // Turning a page is reading: the panel folds into its button.
    press("ArrowRight");
    expect(screen.queryByTestId("reader-counts-notice")).not.toBeInTheDocument();
    expect(screen.getByTestId("reader-info-button")).toHaveAttribute("aria-expanded", "false");
    unmount();

    renderReader();
    await screen.findByText("Second page");
    expect(screen.queryByTestId("reader-counts-notice")).not.toBeInTheDocument();
    const info = screen.getByRole("button", { name: "About reading" });
    await user.click(info);
    expect(screen.getByTestId("reader-counts-notice")).toHaveTextContent("counts as a download for its author");
    expect(screen.getByText("First and last page")).toBeInTheDocument();
    expect(within(screen.getByTestId("reader-info-panel")).getByRole("link", { name: "Report this book" })).toBeInTheDocument();
    // Esc closes it; the focus goes back to the button, not lost with the panel.
    await user.click(screen.getByRole("button", { name: "Close" }));
    expect(screen.queryByTestId("reader-info-panel")).not.toBeInTheDocument();
    expect(info).toHaveFocus();
    await user.keyboard("{Enter}");
    await user.tab();
    expect(screen.getByTestId("reader-info-panel")).toContainElement(document.activeElement as HTMLElement);
    await user.keyboard("{Escape}");
    expect(screen.queryByTestId("reader-info-panel")).not.toBeInTheDocument();
    expect(info).toHaveFocus();
  });

  it("hides the controls while the reader reads and shows them again on focus and a middle tap, never hiding the focus", async () => {
    const { user } = renderReader();
    await screen.findByText("Second page");
    const chrome = screen.getByTestId("reader-chrome");
    expect(chrome).toHaveAttribute("data-shown", "true");
    press("ArrowRight");
    expect(chrome).toHaveAttribute("data-shown", "false");
    // Still in the page for a screen reader: nothing is hidden from it.
    expect(screen.getByRole("toolbar", { name: "Reader controls" })).toBeInTheDocument();
    // A keyboard's Tab into the controls brings them back, and they stay while the focus is there.
    act(() => screen.getByTestId("reader-previous").focus());
    expect(chrome).toHaveAttribute("data-shown", "true");
    press("ArrowLeft");
    expect(chrome).toHaveAttribute("data-shown", "true");
    await user.click(screen.getByTestId("word-page"));
    touch(screen.getByTestId("reader-content"), 195);
    expect(chrome).toHaveAttribute("data-shown", "false");
    touch(screen.getByTestId("reader-content"), 195);
    expect(chrome).toHaveAttribute("data-shown", "true");
  });

  it("turns pages by a tap on the page's left or right third and by a swipe, and leaves a touch that selected text alone", async () => {
    renderReader();
    await screen.findByText("Second page");
    const area = screen.getByTestId("reader-content");
    touch(area, 350);
    expect(shownPage()).toBe("Third page");
    touch(area, 40);
    expect(shownPage()).toBe("Second page");
    swipe(area, -150);
    expect(shownPage()).toBe("Third page");
    swipe(area, 150);
    expect(shownPage()).toBe("Second page");
    // A mouse clicks to select text: its clicks turn nothing.
    touch(area, 350, "mouse");
    expect(shownPage()).toBe("Second page");
    // A second finger is a pinch, the browser's.
    act(() => {
      fireEvent.pointerDown(area, { pointerId: 1, pointerType: "touch", isPrimary: true, clientX: 300, clientY: 400 });
      fireEvent.pointerDown(area, { pointerId: 2, pointerType: "touch", isPrimary: false, clientX: 100, clientY: 400 });
      fireEvent.pointerUp(area, { pointerId: 2, pointerType: "touch", clientX: 60, clientY: 400 });
      fireEvent.pointerUp(area, { pointerId: 1, pointerType: "touch", clientX: 340, clientY: 400 });
    });
    expect(shownPage()).toBe("Second page");
    // A long press that selected a word is not a tap.
    const words = screen.getByText("Second page");
    window.getSelection()!.selectAllChildren(words);
    touch(area, 350);
    expect(shownPage()).toBe("Second page");
  });

  it("follows the system's light or dark until the reader picks colours, then keeps the pick", async () => {
    stubColorScheme(true);
    const { user, unmount } = renderReader();
    await screen.findByText("Second page");
    const stage = () => screen.getByTestId("reader-page");
    expect(stage()).toHaveAttribute("data-theme", "dark");
    await user.click(screen.getByTestId("reader-display-button"));
    expect(screen.getByTestId("reader-theme-dark")).toHaveAttribute("aria-pressed", "true");
    await user.click(screen.getByTestId("reader-theme-sepia"));
    expect(stage()).toHaveAttribute("data-theme", "sepia");
    // T goes on to the next colours.
    press("t");
    expect(stage()).toHaveAttribute("data-theme", "dark");
    press("t");
    expect(stage()).toHaveAttribute("data-theme", "light");
    unmount();

    // The system is dark, but the reader chose light.
    renderReader();
    await screen.findByText("Second page");
    expect(stage()).toHaveAttribute("data-theme", "light");
  });

  it("shows no full-screen button where the browser cannot go full screen (Safari on an iPhone), and F does nothing", async () => {
    renderReader();
    await screen.findByText("Second page");
    expect(screen.queryByTestId("reader-full-screen")).not.toBeInTheDocument();
    press("f");
    expect(document.fullscreenElement ?? null).toBeNull();
  });

  it("goes full screen on the reader's stage by its button and F, and says how to leave", async () => {
    const requestFullscreen = vi.fn(function (this: HTMLElement) {
      Object.defineProperty(document, "fullscreenElement", { configurable: true, value: this });
      document.dispatchEvent(new Event("fullscreenchange"));
      return Promise.resolve();
    });
    const exitFullscreen = vi.fn(() => {
      Object.defineProperty(document, "fullscreenElement", { configurable: true, value: null });
      document.dispatchEvent(new Event("fullscreenchange"));
      return Promise.resolve();
    });
    Object.defineProperty(document, "fullscreenEnabled", { configurable: true, value: true });
    Object.defineProperty(document, "fullscreenElement", { configurable: true, value: null });
    Object.defineProperty(document, "exitFullscreen", { configurable: true, value: exitFullscreen });
    HTMLElement.prototype.requestFullscreen = requestFullscreen;
    try {
      const { user } = renderReader();
      await screen.findByText("Second page");
      await user.click(screen.getByRole("button", { name: "Full screen" }));
      expect(requestFullscreen.mock.contexts[0]).toBe(screen.getByTestId("reader-page"));
      expect(screen.getByRole("button", { name: "Leave full screen" })).toBeInTheDocument();
      press("f");
      expect(exitFullscreen).toHaveBeenCalledOnce();
      expect(screen.getByRole("button", { name: "Full screen" })).toBeInTheDocument();
      expect(screen.getByText("Full screen (Esc leaves it)")).toBeInTheDocument();
    } finally {
      for (const property of ["fullscreenEnabled", "fullscreenElement", "exitFullscreen"]) Reflect.deleteProperty(document, property);
      Reflect.deleteProperty(HTMLElement.prototype, "requestFullscreen");
    }
  });

  it("saves the page once the pages stop turning, and at once when the reader leaves", async () => {
    const { fetchMock, unmount } = renderReader();
    await screen.findByText("Second page");
    press("ArrowRight");
    press("Home");
    press("ArrowRight");
    expect(savedPages(fetchMock)).toEqual([]);
    await waitFor(() => expect(savedPages(fetchMock)).toEqual([2]));
    press("End");
    unmount();
    expect(savedPages(fetchMock)).toEqual([2, 3]);
  });

  it("saves how far through the book each page is, once the pages are counted (docs/product.md#editions)", async () => {
    const { fetchMock, unmount } = renderReader();
    await screen.findByText("Second page");
    press("End");
    unmount();
    const saved = fetchMock.mock.calls.filter(([url, init]) => String(url) === "/api/books/7/read/position" && init?.method === "PUT").map(([, init]) => JSON.parse(String(init!.body)) as unknown);
    expect(saved).toEqual([{ page: 3, percentage: 1 }]);
  });

  it("opens a place saved in an older edition at the same percentage of the new one", async () => {
    const earlier = { page: 1, percentage: 0.5, locator: null, format: null, device: null, earlierEdition: true } as const;
    const { fetchMock, unmount } = renderReader({ opened: { ...WORD_BOOK, position: earlier } });
    // Half way through three pages is the second.
    expect(await screen.findByText("Second page")).toBeInTheDocument();
    expect(screen.getByTestId("reader-page-input")).toHaveValue("2");
    unmount();
    expect(savedPages(fetchMock)).toEqual([2]);
  });

  it("says when the book cannot be read", async () => {
    renderReader({ openAnswer: () => jsonResponse(404, { message: "This book does not exist.", code: "not_found" }) });
    expect(await screen.findByText("This book does not exist, or is not available to read.")).toHaveAttribute("role", "alert");
  });

  it("names an invalid reading link without asking the server", () => {
    const fetchMock = mockFetch(() => jsonResponse(500, {}));
    renderWithApp(
      <Route path="/books/:id/read">
        <ReaderPage />
      </Route>,
      { path: "/books/abc/read" },
    );
    expect(screen.getByText("This reading link is not valid.")).toHaveAttribute("role", "alert");
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
