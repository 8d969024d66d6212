import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { APIRequestContext, Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DELETED_ACCOUNTS_COUNTED, SHARED_ADDRESS_ACCOUNTS } from "../shared/suspicious-activity.ts";
import { fixture } from "../test/helpers/book-fixtures.ts";
import { expectAccessible, expectNoRawTranslationKeys } from "./accessibility.ts";
import { signInAsAdmin } from "./admin-account.ts";
import { E2E_PASSWORD as PASSWORD, publishPdf, registerAccount } from "./authors.ts";
import { VIEWPORTS, launchBrowser, newVisitor, policyViolationsOf, screenshotBoth, screenshotFolder } from "./browser.ts";
import { type Language, text } from "./locales.ts";

/**
 * A tour of every screen and state of docs/product.md#screens, for a visitor and for signed-in users. Each state is
 * checked with axe at phone and desktop widths, for untranslated keys, and saved as screenshots.
 * Each state is shown in one language, and the languages take turns so each one meets every kind of
 * screen (forms, lists, empty states, notices, overlays) somewhere along the tour.
 */

const baseUrl = inject("baseUrl");

let browser: Browser;
const openContexts: BrowserContext[] = [];

async function openVisitor(): Promise<Page> {
  const context = await newVisitor(browser, baseUrl);
  openContexts.push(context);
  return context.newPage();
}

async function signedInVisitor(firstName: string): Promise<Page> {
  const page = await openVisitor();
  await registerAccount(page.request, { firstName, lastName: "Recorrido" });
  return page;
}

const publishBook = (request: APIRequestContext, title: string, withCover: boolean, description = "Un libro para recorrer las pantallas."): Promise<number> =>
  publishPdf(request, { title, description, withCover });

/** Opens a path and shows it in a language, chosen the way a reader does: with the language menu (the wide header's). */
async function visit(page: Page, path: string, language: Language): Promise<void> {
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.goto(path);
  if ((await page.getAttribute("html", "lang")) !== language) await page.selectOption('[data-testid="language-select"]', language);
  await expect.poll(() => page.getAttribute("html", "lang")).toBe(language);
}

/** The narrowest phone the screens are made for. */
const NARROW_PHONE = { width: 360, height: 740 };

/** Fails when the page is wider than the window, so that a phone reader would have to scroll sideways. */
async function expectNoSidewaysScroll(page: Page, screenName: string): Promise<void> {
  await page.setViewportSize(NARROW_PHONE);
  const overflow = await page.evaluate(() => {
    const { scrollWidth, clientWidth } = document.documentElement;
    if (scrollWidth <= clientWidth) return null;
    // Named to help find the cause: the elements sticking out past the window's edge.
    const culprits = [...document.querySelectorAll("body *")]
      .filter((element) => element.getBoundingClientRect().right > clientWidth + 1)
      .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].slice(0, 3).join(".")}`);
    return { scrollWidth, culprits: culprits.slice(-5) };
  });
  expect(overflow, `${screenName} scrolls sideways at ${NARROW_PHONE.width} px`).toBeNull();
}

/** The checks of one state: axe at both widths, nothing wider than a 360 px phone, no raw text keys, and the screenshots. */
async function checkScreen(page: Page, name: string, language: Language): Promise<void> {
  for (const size of Object.values(VIEWPORTS)) {
    await page.setViewportSize(size);
    await expectAccessible(page, `${name} (${language}, ${size.width} px)`);
  }
  await expectNoSidewaysScroll(page, `${name} (${language})`);
  await expectNoRawTranslationKeys(page, `${name} (${language})`);
  await screenshotBoth(page, `screens-${name}-${language}`);
}

/** The checks of a state only a phone shows (an open phone menu): axe at that width and a screenshot of the screen as it is. */
async function checkPhoneScreen(page: Page, name: string, language: Language): Promise<void> {
  const { width } = page.viewportSize()!;
  await expectAccessible(page, `${name} (${language}, ${width} px)`);
  await expectNoRawTranslationKeys(page, `${name} (${language})`);
  mkdirSync(screenshotFolder, { recursive: true });
  await page.screenshot({ path: join(screenshotFolder, `screens-${name}-${language}.png`) });
}

const heading = (page: Page, language: Language, key: string, values?: Record<string, string | number>) =>
  page.getByRole("heading", { name: text(language, key, values), exact: true });

/**
 * Answers the page's file choosers with the given files in turn. It listens from the start: a chooser
 * that opens before Playwright intercepts choosers is dropped, which waitForEvent beside a key press races.
 */
function answerFileChoosers(page: Page, files: string[]): { openedCount: () => number } {
  let openedCount = 0;
  page.on("filechooser", (chooser) => {
    const file = files[openedCount++];
    if (file) void chooser.setFiles(file);
  });
  return { openedCount: () => openedCount };
}

const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

const otherAuthorsBook = `Luz de faro ${Date.now()}`;
let seededBookId: number;

/**
 * Readers downloading a book from one shared address, the first `leaving` of them deleting their
 * accounts afterwards, so the admin tab shows its suspicious-activity table with an address it may
 * only name by a label (docs/decisions/0049).
 */
async function downloadFromOneAddress(bookId: number, readers: number, leaving: number): Promise<void> {
  const address = "203.0.113.77";
  for (let reader = 0; reader < readers; reader++) {
    const page = await signedInVisitor(`Lector${reader}`);
    const download = await page.request.post(`/api/books/${bookId}/download`, { headers: { "X-Forwarded-For": address } });
    expect(download.status()).toBe(200);
    if (reader >= leaving) continue;
    const deleted = await page.request.delete("/api/account", { headers: { "X-Forwarded-For": address }, data: { currentPassword: PASSWORD } });
    expect(deleted.status()).toBe(204);
  }
}

beforeAll(async () => {
  browser = await launchBrowser();
  const author = await signedInVisitor("Rosalía");
  seededBookId = await publishBook(author.request, otherAuthorsBook, true);
  await publishBook(author.request, `Sin portada ${Date.now()}`, false);
});
afterAll(async () => {
  expect(openContexts.flatMap(policyViolationsOf)).toEqual([]);
  await Promise.all(openContexts.map((context) => context.close()));
  await browser?.close();
});

describe("every screen passes axe (WCAG 2.2 AA) at both widths and shows no raw text keys", () => {
  it("for a visitor: landing, catalog, login, register and 404", async () => {
    const page = await openVisitor();

    await visit(page, "/", "en");
    await page.locator('[data-testid="public-stat"]').first().waitFor();
    await page.locator('[data-testid="book-card"]').first().waitFor();
    await checkScreen(page, "landing", "en");

    await visit(page, "/catalog", "es");
    const card = page.locator('[data-testid="book-card"]', { hasText: otherAuthorsBook });
    await card.waitFor();
    await checkScreen(page, "catalog", "es");

    // A visitor's download is refused with an error toast that interrupts (role=alert), on the login screen.
    await card.locator('[data-testid="download-button"]').click();
    await page.waitForURL((url) => url.pathname === "/login");
    const alert = page.getByRole("alert").filter({ hasText: text("es", "toasts.loginToDownload.title") });
    await alert.waitFor();
    expect(await alert.getAttribute("aria-live")).toBe("assertive");
    await heading(page, "es", "auth.login.title").waitFor();
    await checkScreen(page, "login-with-toast", "es");

    await visit(page, `/catalog?search=${encodeURIComponent("zzzz ningún libro")}`, "fr");
    await heading(page, "fr", "catalog.noBooks").waitFor();
    expect(await page.locator('[data-testid="catalog-results-status"]').getAttribute("role")).toBe("status");
    expect(await page.locator('[data-testid="catalog-results-status"]').textContent()).toBe(text("fr", "catalog.noBooks"));
    await checkScreen(page, "catalog-no-results", "fr");

    await visit(page, "/login", "en");
    await heading(page, "en", "auth.login.title").waitFor();
    await checkScreen(page, "login", "en");
    // An empty submit marks both fields and puts the focus on the first one, so its error is read out.
    await page.click('[data-testid="login-submit"]');
    await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBe(2);
    expect(await isFocused(page.locator('input[name="username"]'))).toBe(true);
    await checkScreen(page, "login-errors", "en");
    // A wrong password is said once, in the form: no toast repeats it, and no status code shows.
    await page.fill('input[name="username"]', "nobody_here");
    await page.fill('input[name="password"]', "not-the-password");
    await page.click('[data-testid="login-submit"]');
    const shownAlerts = page.getByRole("alert").filter({ hasText: /\S/ });
    await shownAlerts.filter({ hasText: text("en", "errors.invalid_credentials") }).waitFor();
    expect(await shownAlerts.allTextContents()).toEqual([text("en", "errors.invalid_credentials")]);
    expect(await page.locator("main").textContent()).not.toMatch(/\b401\b/);

    await visit(page, "/register", "fr");
    await page.click('[data-testid="register-submit"]');
    await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBeGreaterThanOrEqual(4);
    expect(await isFocused(page.locator('input[name="firstName"]'))).toBe(true);
    await checkScreen(page, "register-errors", "fr");

    await visit(page, "/no/such/page", "es");
    await heading(page, "es", "notFound.title").waitFor();
    await checkScreen(page, "not-found", "es");
  });

  it("for a visitor: the catalog orders titles in the reader's language, keeps its filters in the address, shows ratings and many books", async () => {
    // Books found by one word of their description, so that the order is of these titles alone.
    const word = `orden${Date.now()}`;
    const author = await signedInVisitor("Ordena");
    const titles = ["Word 97 Book", "Énigme à Lyon", "ñandú", "Zèbre", "nube", "Éclair", "Ñu", "enigme"];
    const ids: number[] = [];
    for (const title of titles) ids.push(await publishBook(author.request, title, false, `Un libro ${word}.`));
    const reader = await signedInVisitor("Valora");
    const readerId = ((await (await reader.request.get("/api/auth/user")).json()) as { id: string }).id;
    expect((await reader.request.post("/rate", { data: { bookId: ids[1], userId: readerId, rating: 4 } })).status()).toBe(201);

    const page = await openVisitor();
    const titlesShown = () => page.locator('[data-testid="book-link"]').allTextContents();
    const address = () => new URL(page.url()).search;

    await visit(page, `/catalog?search=${word}&sort=title`, "fr");
    await expect.poll(titlesShown).toEqual(["Éclair", "enigme", "Énigme à Lyon", "ñandú", "Ñu", "nube", "Word 97 Book", "Zèbre"]);
    // Everyone sees a book's rating; only a signed-in reader gets stars to give.
    const rated = page.locator('[data-testid="book-card"]', { hasText: "Énigme à Lyon" });
    expect(await rated.locator('[data-testid="rating-average"]').textContent()).toMatch(/^4,0 \(1\)/);
    expect(await page.getByRole("radio").count()).toBe(0);
    await checkScreen(page, "catalog-title-order", "fr");

    // In Spanish ñ is a letter after n. (The wide header shows the language menu; a phone's holds it in its menu.)
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.selectOption('[data-testid="language-select"]', "es");
    await expect.poll(titlesShown).toEqual(["Éclair", "enigme", "Énigme à Lyon", "nube", "ñandú", "Ñu", "Word 97 Book", "Zèbre"]);

    // Genre and order live in the address: a reload keeps them, back and forward step through them, defaults stay out.
    await visit(page, "/catalog", "es");
    await page.locator('[data-testid="book-card"]').first().waitFor();
    await page.selectOption('[data-testid="catalog-genre"]', "novela");
    await expect.poll(address).toBe("?genre=novela");
    await page.selectOption('[data-testid="catalog-sort"]', "title");
    await expect.poll(address).toBe("?genre=novela&sort=title");
    await page.reload();
    await expect.poll(() => page.locator('[data-testid="catalog-sort"]').inputValue()).toBe("title");
    expect(await page.locator('[data-testid="catalog-genre"]').inputValue()).toBe("novela");
    await page.goBack();
    await expect.poll(() => page.locator('[data-testid="catalog-sort"]').inputValue()).toBe("newest");
    expect(address()).toBe("?genre=novela");
    await page.goBack();
    await expect.poll(() => page.locator('[data-testid="catalog-genre"]').inputValue()).toBe("all");
    await page.goForward();
    await expect.poll(() => page.locator('[data-testid="catalog-genre"]').inputValue()).toBe("novela");
    await visit(page, "/catalog?genre=nada&sort=relevance", "es");
    await page.locator('[data-testid="book-card"]').first().waitFor();
    expect(await page.locator('[data-testid="catalog-genre"]').inputValue()).toBe("all");
    expect(await page.locator('[data-testid="catalog-sort"]').inputValue()).toBe("newest");

    // A book language (docs/product.md#catalog-by-language): in the address, remembered, and on the landing page's books.
    const frenchTitle = `Livre en français ${Date.now()}`;
    await publishPdf(author.request, { title: frenchTitle, language: "fr" });
    const languagesShown = () => page.locator('[data-testid="book-link"]').evaluateAll((links) => [...new Set(links.map((link) => link.closest("[lang]")?.getAttribute("lang")))]);
    const languageNote = page.getByTestId("book-language-note");
    await page.selectOption('[data-testid="catalog-language"]', "fr");
    await expect.poll(address).toBe("?language=fr");
    await expect.poll(languagesShown).toEqual(["fr"]);
    await checkScreen(page, "catalog-by-language", "es");
    await visit(page, "/catalog?genre=novela", "es");
    await expect.poll(address).toBe("?genre=novela&language=fr");
    await visit(page, "/", "es");
    await expect.poll(() => languageNote.textContent()).toMatch(/^Libros en francés/);
    await expect.poll(languagesShown).toEqual(["fr"]);
    expect(await page.locator('[data-testid="book-link"]').allTextContents()).toContain(frenchTitle);
    await checkScreen(page, "landing-by-language", "es");
    await page.getByRole("button", { name: "Mostrar todos los idiomas" }).click();
    await expect.poll(() => languageNote.count()).toBe(0);
    await visit(page, "/catalog", "es");
    await page.locator('[data-testid="book-card"]').first().waitFor();
    expect(address()).toBe("");
    expect(await page.locator('[data-testid="catalog-language"]').inputValue()).toBe("all");

    // At 1280 × 800 the first row of books shows whole, titles and buttons above the fold, three across.
    await page.setViewportSize(VIEWPORTS.desktop);
    await expect.poll(() => page.locator('[data-testid="book-card"]').count()).toBeGreaterThanOrEqual(6);
    const firstRow = await Promise.all(
      [0, 1, 2].map(async (index) => {
        const card = page.locator('[data-testid="book-card"]').nth(index);
        return { card: (await card.boundingBox())!, button: (await card.locator('[data-testid="download-button"]').boundingBox())! };
      }),
    );
    expect(new Set(firstRow.map(({ card }) => card.y)).size).toBe(1);
    for (const { button } of firstRow) expect(button.y + button.height).toBeLessThanOrEqual(VIEWPORTS.desktop.height);
    // On a phone, one column.
    await page.setViewportSize(VIEWPORTS.phone);
    const phoneCards = await Promise.all([0, 1].map(async (index) => (await page.locator('[data-testid="book-card"]').nth(index).boundingBox())!));
    expect(phoneCards[0]!.x).toBe(phoneCards[1]!.x);
    // A lone result is not a narrow card beside empty space.
    await page.setViewportSize(VIEWPORTS.desktop);
    await visit(page, `/catalog?search=${encodeURIComponent(`Zèbre ${word}`)}`, "en");
    await expect.poll(() => page.locator('[data-testid="book-card"]').count()).toBe(1);
    const lone = (await page.locator('[data-testid="book-card"]').boundingBox())!;
    const grid = (await page.getByRole("list").filter({ has: page.locator('[data-testid="book-card"]') }).boundingBox())!;
    expect(lone.width).toBeGreaterThan(grid.width / 2);
    await checkScreen(page, "catalog-one-result", "en");
  });

  it("for a signed-in author: home, catalog with stars, upload, edit, dashboard and the user menu", async () => {
    const page = await signedInVisitor("Lucía");

    // A new account is greeted as new; a reader who has not published sees books first, then the way to publish.
    await visit(page, "/", "fr");
    expect(await page.locator('[data-testid="welcome"]').textContent()).toBe(text("fr", "home.welcomeNew", { name: "Lucía" }));
    await page.locator('[data-testid="recent-books"] [data-testid="book-card"]').first().waitFor();
    await page.locator('[data-testid="publish-invitation"]').waitFor();
    expect(await page.locator('[data-testid="home-book-count"]').count()).toBe(0);
    await checkScreen(page, "home", "fr");

    await visit(page, "/dashboard", "en");
    const invitation = page.locator('[data-testid="publish-invitation"]');
    await invitation.waitFor();
    expect(await page.locator('[data-testid="earnings-value"]').count()).toBe(0);
    await checkScreen(page, "dashboard-reader", "en");
    // Asked for, the author tools show, and take the focus from the button that revealed them.
    await invitation.getByRole("button", { name: text("en", "authorInvitation.showTools") }).click();
    await heading(page, "en", "dashboard.books.emptyTitle").waitFor();
    expect(await page.getByRole("tabpanel").evaluate((panel) => panel.contains(document.activeElement))).toBe(true);
    await checkScreen(page, "dashboard-empty", "en");

    // The user menu (of the wide header) opens with Enter and closes with Escape, giving the focus back to its button.
    await page.setViewportSize(VIEWPORTS.desktop);
    const menuButton = page.locator('[data-testid="user-menu"]');
    await menuButton.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => menuButton.getAttribute("aria-expanded")).toBe("true");
    await page.locator('[data-testid="logout"]').waitFor();
    await checkScreen(page, "user-menu-open", "en");
    // Back to the width where the user menu shows (a phone has its own menu, below).
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.keyboard.press("Escape");
    await expect.poll(() => menuButton.getAttribute("aria-expanded")).toBe("false");
    expect(await isFocused(menuButton)).toBe(true);

    // A phone's header is one row, with a menu that holds the links, the language and the account actions.
    for (const [size, language] of [[VIEWPORTS.phone, "es"], [NARROW_PHONE, "fr"]] as const) {
      await visit(page, "/catalog", language);
      await page.setViewportSize(size);
      const header = (await page.locator("header").boundingBox())!;
      expect(header.height, `header at ${size.width} px`).toBeLessThanOrEqual(72);
      const phoneMenuButton = page.getByRole("button", { name: text(language, "nav.menu"), exact: true });
      expect(await page.getByRole("link", { name: text(language, "nav.search") }).isVisible()).toBe(true);
      expect(await page.locator('[data-testid="user-menu"]').isVisible()).toBe(false);
      await phoneMenuButton.click();
      const phoneMenu = page.locator('[data-testid="site-menu"]');
      await phoneMenu.waitFor();
      expect(await phoneMenuButton.getAttribute("aria-expanded")).toBe("true");
      expect(await isFocused(phoneMenu.getByRole("link", { name: text(language, "nav.catalog") }))).toBe(true);
      await phoneMenu.locator('[data-testid="site-menu-logout"]').waitFor();
      await checkPhoneScreen(page, `phone-menu-open-${size.width}`, language);
      await page.keyboard.press("Escape");
      await phoneMenu.waitFor({ state: "detached" });
      expect(await isFocused(phoneMenuButton)).toBe(true);
      // Its links change the screen and close it.
      await phoneMenuButton.click();
      await phoneMenu.getByRole("link", { name: text(language, "nav.dashboard") }).click();
      await page.waitForURL((url) => url.pathname === "/dashboard");
      await phoneMenu.waitFor({ state: "detached" });
      expect(await phoneMenuButton.getAttribute("aria-expanded")).toBe("false");
    }

    await visit(page, "/catalog", "es");
    const card = page.locator('[data-testid="book-card"]', { hasText: otherAuthorsBook });
    await card.locator('[data-testid="rate-1"]:enabled').waitFor();
    await checkScreen(page, "catalog-signed-in", "es");
    // Each star is a radio with its own name; the arrows move between them and Enter rates.
    for (const rating of [1, 2, 3, 4, 5]) {
      await card.getByRole("radio", { name: text("es", "book.rating.rateStar", { rating }), exact: true }).waitFor();
    }
    await card.locator('[data-testid="rate-1"]').focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    expect(await isFocused(card.locator('[data-testid="rate-3"]'))).toBe(true);
    await page.keyboard.press("Enter");
    await expect.poll(() => card.locator('[data-testid="rate-3"]').getAttribute("aria-checked")).toBe("true");
    // The rating stays open to a change (docs/product.md#reviews).
    expect(await card.locator('[data-testid="rate-3"]').isDisabled()).toBe(false);

    await visit(page, "/upload", "es");
    const fileChoosers = answerFileChoosers(page, [fixture("book.pdf"), fixture("cover.jpg")]);
    await heading(page, "es", "upload.title").waitFor();
    await checkScreen(page, "upload", "es");

    // From the top of the page: the skip link, then each dropzone opens the file chooser from the keyboard.
    await page.keyboard.press("Tab");
    expect(await isFocused(page.getByRole("link", { name: text("es", "common.skipToContent") }))).toBe(true);
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    expect(await isFocused(page.getByRole("link", { name: text("es", "upload.guideLink") }))).toBe(true);
    await page.keyboard.press("Tab");
    const bookZone = page.locator('[data-testid="book-dropzone"]').getByRole("button");
    expect(await isFocused(bookZone)).toBe(true);
    await page.keyboard.press("Enter");
    await expect.poll(fileChoosers.openedCount).toBe(1);
    await page.getByText(text("es", "upload.fileReady")).waitFor();
    // The chosen file's remove button takes the place, and the focus, of the select button.
    expect(await isFocused(page.getByRole("button", { name: text("es", "upload.removeFile", { name: "book.pdf" }) }))).toBe(true);
    await page.keyboard.press("Tab");
    expect(await isFocused(page.locator('[data-testid="cover-dropzone"]').getByRole("button"))).toBe(true);
    await page.keyboard.press("Space");
    await expect.poll(fileChoosers.openedCount).toBe(2);
    await page.getByText(text("es", "upload.imageReady")).waitFor();
    // On a phone the preview comes between the form and the publish button, naming the file and its size in MB.
    await page.setViewportSize(VIEWPORTS.phone);
    const preview = page.getByRole("complementary", { name: text("es", "upload.previewTitle") });
    await preview.scrollIntoViewIfNeeded();
    const previewFile = preview.getByRole("definition").filter({ hasText: "book.pdf" });
    const previewSize = preview.getByRole("definition").filter({ hasText: /^\d+,\d{2} MB$/ });
    expect(await previewFile.isVisible()).toBe(true);
    expect(await previewSize.isVisible()).toBe(true);
    const previewBox = (await preview.boundingBox())!;
    const publishBox = (await page.locator('[data-testid="publish-button"]').boundingBox())!;
    expect(previewBox.y + previewBox.height).toBeLessThanOrEqual(publishBox.y);
    await checkScreen(page, "upload-files-chosen", "es");

    const ownBook = `Cuaderno de bitácora ${Date.now()}`;
    const ownBookId = await publishBook(page.request, ownBook, true);

    await visit(page, `/edit-book/${ownBookId}`, "fr");
    await expect.poll(() => page.locator('input[name="title"]').inputValue()).toBe(ownBook);
    await checkScreen(page, "edit-book", "fr");

    await visit(page, "/edit-book/abc", "en");
    await page.getByText(text("en", "editBook.invalidId")).waitFor();
    await checkScreen(page, "edit-book-invalid-id", "en");

    await visit(page, "/edit-book/999999", "es");
    await heading(page, "es", "editBook.notFoundTitle").waitFor();
    await checkScreen(page, "edit-book-not-found", "es");

    await visit(page, "/dashboard", "fr");
    const deleteButton = page.locator(`[data-testid="delete-book-${ownBookId}"]`);
    await deleteButton.waitFor();
    await checkScreen(page, "dashboard-books", "fr");

    // The confirmation opens on "cancel", keeps Tab inside, and Escape gives the focus back to "delete".
    await deleteButton.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("alertdialog", { name: text("fr", "dashboard.books.confirmTitle") });
    await dialog.waitFor();
    const cancelButton = dialog.getByRole("button", { name: text("fr", "common.cancel") });
    const confirmButton = dialog.locator('[data-testid="confirm-delete"]');
    expect(await isFocused(cancelButton)).toBe(true);
    await page.keyboard.press("Tab");
    expect(await isFocused(confirmButton)).toBe(true);
    await page.keyboard.press("Tab");
    expect(await isFocused(cancelButton)).toBe(true);
    await page.keyboard.press("Shift+Tab");
    expect(await isFocused(confirmButton)).toBe(true);
    await checkScreen(page, "dashboard-delete-dialog", "fr");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(await isFocused(deleteButton)).toBe(true);

    // A deletion is confirmed by a polite toast (role=status), which does not interrupt.
    await page.keyboard.press("Enter");
    await confirmButton.click();
    const status = page.getByRole("status").filter({ hasText: text("fr", "dashboard.books.deleted.title") });
    await status.waitFor();
    expect(await status.getAttribute("aria-live")).toBe("polite");
  });

  it("for the admin: the dashboard tabs follow the ARIA tabs pattern, and the admin tab", async () => {
    await downloadFromOneAddress(seededBookId, SHARED_ADDRESS_ACCOUNTS.accounts, DELETED_ACCOUNTS_COUNTED.counted);
    const page = await openVisitor();
    await signInAsAdmin(page.request);
    await visit(page, "/dashboard", "es");
    const authorTab = page.locator('[data-testid="tab-author"]');
    const adminTab = page.locator('[data-testid="tab-admin"]');
    await authorTab.focus();
    await page.keyboard.press("ArrowRight");
    expect(await isFocused(adminTab)).toBe(true);
    expect(await adminTab.getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("ArrowRight");
    expect(await isFocused(authorTab)).toBe(true);
    await page.keyboard.press("End");
    expect(await isFocused(adminTab)).toBe(true);
    expect(await authorTab.getAttribute("tabindex")).toBe("-1");
    // The admin tab is the overview (docs/decisions/0107): what needs a look first; users, books and payments have their tabs.
    await page.locator('[data-testid="admin-totals"]').waitFor();
    await page.locator('[data-testid="payout-queue"]').waitFor();
    await page.locator('[data-testid="suspicious-burst"][data-kind="shared_address"]').first().waitFor();
    const leftAddress = page.locator('[data-testid="suspicious-burst"][data-kind="deleted_accounts"]').first();
    await leftAddress.getByText(/^Dirección oculta [0-9a-f]{10}$/).waitFor();
    expect(await leftAddress.textContent()).not.toContain("203.0.113.77");
    await checkScreen(page, "dashboard-admin", "es");
  });
});

describe("the small things a three-language tour tripped over (docs/decisions/0066, 0067, 0068, 0070)", () => {
  it("logs no error in a visitor's console on any page, the session check included", async () => {
    const page = await openVisitor();
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("response", (response) => {
      if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
    });
    const sessionChecks: number[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).pathname === "/api/auth/user") sessionChecks.push(response.status());
    });

    for (const [path, language] of [
      ["/", "en"],
      ["/catalog", "fr"],
      [`/books/${seededBookId}`, "es"],
      ["/login", "es"],
      ["/register", "fr"],
      ["/help", "en"],
      ["/contact", "es"],
    ] as const) {
      await visit(page, path, language);
      await page.waitForLoadState("networkidle");
    }
    expect(sessionChecks.length).toBeGreaterThan(0);
    expect(sessionChecks.every((status) => status === 200)).toBe(true);
    expect(errors).toEqual([]);
    // The Spanish sign-in screen greets a returning reader in natural Spanish.
    await visit(page, "/login", "es");
    await page.getByText(text("es", "auth.login.subtitle")).waitFor();
    expect(text("es", "auth.login.subtitle")).toBe("Qué bien verte de nuevo en Plume.");
    await checkScreen(page, "login", "es");
  });

  it("leads from the landing page's footer to real pages, each in the three languages", async () => {
    const page = await openVisitor();
    await visit(page, "/", "fr");
    const footer = page.getByRole("navigation", { name: text("fr", "footer.navLabel") });
    for (const [label, path] of [
      ["footer.support.help", "/help"],
      ["footer.authors.guide", "/author-guide"],
      ["footer.support.terms", "/terms"],
      ["footer.support.privacy", "/privacy"],
      ["footer.support.contact", "/contact"],
    ] as const) {
      expect(await footer.getByRole("link", { name: text("fr", label), exact: true }).getAttribute("href")).toBe(path);
    }
    await footer.getByRole("link", { name: text("fr", "footer.support.privacy"), exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/privacy");
    await heading(page, "fr", "infoPages.privacy.title").waitFor();

    const pages = [
      ["help", "/help"],
      ["authorGuide", "/author-guide"],
      ["terms", "/terms"],
      ["privacy", "/privacy"],
      ["contact", "/contact"],
    ] as const;
    const languages: Language[] = ["en", "es", "fr"];
    for (const [index, [key, path]] of pages.entries()) {
      for (const [turn, language] of [...languages.slice(index % 3), ...languages.slice(0, index % 3)].entries()) {
        await visit(page, path, language);
        await heading(page, language, `infoPages.${key}.title`).waitFor();
        // The tab is named by an effect, which runs after the heading is drawn.
        await expect.poll(() => page.title()).toBe(text(language, "app.documentTitle", { page: text(language, `infoPages.${key}.title`) }));
        // One language per page gets every check; the others are looked at in their screenshots.
        if (turn === 0) await checkScreen(page, `info-${key}`, language);
        else await screenshotBoth(page, `screens-info-${key}-${language}`);
      }
    }
    // The contact page gives no made-up address: the test server has no CONTACT_EMAIL.
    await visit(page, "/contact", "en");
    expect(await page.locator('[data-testid="contact-address"]').textContent()).toBe(text("en", "infoPages.contact.noAddress"));
  });

  it("refuses a PDF renamed .png as a cover in the browser, saying so in the reader's language", async () => {
    const page = await signedInVisitor("Inés");
    await visit(page, "/upload", "fr");
    await heading(page, "fr", "upload.title").waitFor();
    await page.locator('[data-testid="cover-dropzone"] input[type="file"]').setInputFiles(fixture("hostile/pdf-renamed.png"));
    const zone = page.locator('[data-testid="cover-dropzone"]');
    await zone.getByText(text("fr", "upload.imageUnreadable")).waitFor();
    expect(await zone.getByText(text("fr", "upload.imageReady")).count()).toBe(0);
    expect(await zone.locator("img").count()).toBe(0);
    await checkScreen(page, "upload-cover-unreadable", "fr");
    // A real picture is then taken, and shown as ready.
    await page.locator('[data-testid="cover-dropzone"] input[type="file"]').setInputFiles(fixture("cover.webp"));
    await zone.getByText(text("fr", "upload.imageReady")).waitFor();
    expect(await zone.getByText(text("fr", "upload.imageUnreadable")).count()).toBe(0);
  });

  it("fits the French payment diagnostics in the admin tab, and asks before marking one first book per author", async () => {
    // An author with an e-mail address, which the diagnostics show under her name, and two books.
    const author = await openVisitor();
    const authorEmail = `maximiliana.recorrido.villanueva.${Date.now()}@ejemplo.test`;
    const registered = await author.request.post("/api/auth/register", {
      data: {
        firstName: "Maximiliana",
        lastName: "Recorrido-Villanueva",
        username: `maximiliana_${Date.now()}`,
        email: authorEmail,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      },
    });
    expect(registered.status()).toBe(201);
    const firstBookId = await publishBook(author.request, `Crónicas del faro del norte ${Date.now()}`, false);
    const otherBookId = await publishBook(author.request, `Segunda travesía ${Date.now()}`, false);
    const page = await openVisitor();
    await signInAsAdmin(page.request);
    // Her first book is cleared, so both her books could become her first.
    const cleared = await page.request.post("/api/admin/fix-first-book-flag", { data: { bookId: firstBookId, setAsFirstBook: false } });
    expect(cleared.status()).toBe(200);
    // Among all books (none of hers needs attention: no download yet), found by her address.
    await visit(page, `/admin/books?show=all&q=${encodeURIComponent(authorEmail)}`, "fr");
    const diagnostics = page.locator('[data-testid="admin-diagnostics"]');
    const fixButton = diagnostics.locator(`[data-testid="fix-first-book-${otherBookId}"]`);
    await fixButton.waitFor();

    // At 1280 px the table fits its frame: nothing to scroll, and the fix's label is whole.
    const region = diagnostics.getByRole("region");
    const overflow = await region.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const [buttonBox, regionBox] = [(await fixButton.boundingBox())!, (await region.boundingBox())!];
    expect(buttonBox.x + buttonBox.width).toBeLessThanOrEqual(regionBox.x + regionBox.width);
    expect(await fixButton.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);

    await fixButton.click();
    const dialog = page.getByRole("alertdialog");
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(text("fr", "admin.diagnostics.fix.confirmBody"));
    await checkScreen(page, "dashboard-admin-first-book-dialog", "fr");
    await dialog.locator(`[data-testid="fix-first-book-confirm-${otherBookId}"]`).click();
    await dialog.waitFor({ state: "detached" });

    // Her other book is no longer offered the fix: the row names her first book instead.
    const note = diagnostics.locator(`[data-testid="first-book-of-author-${firstBookId}"]`);
    await note.waitFor();
    expect(await diagnostics.locator(`[data-testid="fix-first-book-${firstBookId}"]`).count()).toBe(0);
    expect(await note.textContent()).toContain(String(otherBookId));
    // And the server refuses a second first book whoever asks.
    const refused = await page.request.post("/api/admin/fix-first-book-flag", { data: { bookId: firstBookId, setAsFirstBook: true } });
    expect(refused.status()).toBe(409);
    expect(((await refused.json()) as { code: string }).code).toBe("first_book_taken");
    await checkScreen(page, "dashboard-admin-diagnostics", "fr");
  });
});
