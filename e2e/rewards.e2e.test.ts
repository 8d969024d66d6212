import { Wallet } from "ethers";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fixture, multiPagePdf } from "../test/helpers/book-fixtures.ts";
import { signInAsAdmin } from "./admin-account.ts";
import { publishPdf, registerAccount } from "./authors.ts";
import { launchBrowser, newVisitor, policyViolationsOf, screenshotBoth } from "./browser.ts";
import { injectWallet } from "./injected-wallet.ts";
import { checkEveryLanguage } from "./language-tour.ts";
import { text } from "./locales.ts";

const baseUrl = inject("baseUrl");
/** Hardhat's second default account: an author wallet on the local chain. */
const AUTHOR_WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const AUTHOR_WALLET_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());



describe("rewards", () => {
  it("20 readers download an author's book, the author connects a wallet, and the dashboard shows the 1 PME payment complete without a reload", async () => {
    const context = await newVisitor(browser, baseUrl, "en-US");
    const page = await context.newPage();
    const config = await (await page.request.get("/api/config")).json();
    await injectWallet(context, { privateKey: AUTHOR_WALLET_KEY, rpcUrl: config.token.rpcUrl });

    const { id: authorId } = await registerAccount(page.request, { firstName: "Rosa", lastName: "Autora" });
    const bookId = await publishPdf(page.request, { title: "Veinte lectores", description: "Un libro que llega a su primer hito." });

    // The author's own download is logged and not counted: the report says why.
    expect((await page.request.post(`/api/books/${bookId}/download`, { headers: { "X-Forwarded-For": "198.51.100.200" } })).status()).toBe(200);
    for (let reader = 1; reader <= 20; reader += 1) {
      const readerContext = await newVisitor(browser, baseUrl);
      const request = readerContext.request;
      const name = `reader_${Date.now()}_${reader}`;
      await request.post("/api/auth/register", {
        data: { firstName: "Lector", lastName: String(reader), username: name, password: "a-good-password", confirmPassword: "a-good-password" },
      });
      const download = await request.post(`/api/books/${bookId}/download`, { headers: { "X-Forwarded-For": `198.51.100.${reader}` } });
      expect(download.status()).toBe(200);
      await readerContext.close();
    }

    // Owed, and waiting for a wallet: the dashboard says so, and reads the payments no more until one is connected.
    await page.goto("/dashboard");
    const payment = page.locator('[data-testid="payment-item"]').first();
    await payment.locator('[data-testid="payment-wait"][data-reason="no-wallet"]').waitFor();
    expect(await payment.getAttribute("data-status")).toBe("pending");
    const paymentReads: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith(`/api/authors/${authorId}/payments`)) paymentReads.push(request.url());
    });
    await page.waitForTimeout(3_000);
    expect(paymentReads).toEqual([]);

    // Connecting the wallet sends the payment, and the screen follows it to "completed" on its own.
    await page.click('[data-testid="rewards-wallet-button"]');
    await expect.poll(async () => (await page.locator('[data-testid="rewards-wallet-button"]').textContent()) ?? "", { timeout: 10_000 }).toContain("0x7099");
    const me = await (await page.request.get("/api/auth/user")).json();
    expect(me.walletAddress).toBe(AUTHOR_WALLET);
    await expect.poll(() => payment.getAttribute("data-status"), { timeout: 30_000 }).toBe("completed");
    await expect.poll(() => page.locator('[data-testid="earnings-value"]').textContent()).toContain("1");
    expect(paymentReads.length).toBeGreaterThanOrEqual(2);
    // Nothing is pending any more: the reads stop.
    const readsWhenDone = paymentReads.length;
    await page.waitForTimeout(3_000);
    expect(paymentReads.length).toBe(readsWhenDone);

    const link = payment.locator('[data-testid="payment-explorer-link"]');
    expect(await link.getAttribute("href")).toMatch(/^http:\/\/explorer\.test\/tx\/0x[0-9a-f]{64}$/);
    // The timeline: owed, sent and finalized, each with its time.
    const steps = payment.locator('[data-testid="payment-timeline"] li');
    expect(await steps.evaluateAll((items) => items.map((item) => `${item.dataset.step}: ${item.dataset.state}`))).toEqual(["owed: done", "sent: done", "finalized: done"]);
    expect(await payment.locator('li[data-step="finalized"] time').getAttribute("datetime")).toMatch(/^\d{4}-\d\d-\d\dT/);
    // The report: the readers' 20 downloads counted, the author's own not, and why.
    const reportBook = page.locator(`[data-testid="download-report-book"][data-book-id="${bookId}"]`);
    await reportBook.waitFor();
    expect(await reportBook.locator('[data-testid="report-logged"]').textContent()).toBe("21");
    expect(await reportBook.locator('[data-testid="report-counted"]').textContent()).toBe("20");
    expect(await reportBook.locator('[data-reason="own-book"]').textContent()).toBe(`${text("en", "dashboard.report.reason.own-book")}1`);
    await checkEveryLanguage(page, "rewards-dashboard", async (language) => {
      await payment.getByText(text(language, "payments.timeline.finalized")).waitFor();
      await reportBook.getByText(text(language, "dashboard.report.reason.own-book")).waitFor();
    });
    expect(policyViolationsOf(context)).toEqual([]);
    await context.close();
  });

  it("saves a wallet proven by its signature, and refuses the same wallet to other accounts, in their language", async () => {
    const key = Wallet.createRandom();
    let authors = 0;
    const connectAs = async (firstName: string, locale: string) => {
      const context = await newVisitor(browser, baseUrl, locale);
      const page = await context.newPage();
      const config = await (await page.request.get("/api/config")).json();
      await injectWallet(context, { privateKey: key.privateKey, rpcUrl: config.token.rpcUrl });
      const registered = await page.request.post("/api/auth/register", {
        data: { firstName, lastName: "Cartera", username: `proof_${firstName}_${Date.now()}`, password: "a-good-password", confirmPassword: "a-good-password" },
      });
      expect(registered.status()).toBe(201);
      // Wallet actions are an author's: the dashboard offers them once the account has a book.
      await publishPdf(page.request, { title: `Libro de ${firstName}`, pdf: await multiPagePdf(2 + authors++) });
      await page.goto("/dashboard");
      await page.click('[data-testid="rewards-wallet-button"]');
      return { context, page };
    };

    const first = await connectAs("Primera", "en-US");
    await expect.poll(async () => (await (await first.page.request.get("/api/auth/user")).json()).walletAddress, { timeout: 10_000 }).toBe(key.address);
    expect(policyViolationsOf(first.context)).toEqual([]);
    await first.context.close();

    for (const [firstName, locale, refusal] of [
      ["Second", "en-US", "This wallet is already connected to another Plume account."],
      ["Segunda", "es-ES", "Esta wallet ya está vinculada a otra cuenta de Plume."],
      ["Seconde", "fr-FR", "Ce portefeuille est déjà associé à un autre compte Plume."],
    ] as const) {
      const other = await connectAs(firstName, locale);
      const alert = other.page.getByRole("alert");
      await alert.waitFor();
      expect(await alert.textContent()).toContain(refusal);
      expect((await (await other.page.request.get("/api/auth/user")).json()).walletAddress).toBeNull();
      await screenshotBoth(other.page, `wallet-proof-taken-${locale.slice(0, 2)}`);
      await other.context.close();
    }
  });

  it("shows the admin the overview and diagnostics, and lets them mark a first book", async () => {
    const authorContext = await newVisitor(browser, baseUrl);
    const authorUsername = `two_books_${Date.now()}`;
    await authorContext.request.post("/api/auth/register", {
      data: { firstName: "Dos", lastName: "Libros", username: authorUsername, password: "a-good-password", confirmPassword: "a-good-password" },
    });
    const pdf = (await import("node:fs")).readFileSync(fixture("book.pdf"));
    const publish = (title: string) =>
      authorContext.request.post("/api/books", {
        multipart: { title, description: "Diagnóstico", genre: "historia", language: "es", file: { name: "b.pdf", mimeType: "application/pdf", buffer: pdf } },
      });
    const firstBookId = (await (await publish("Primer libro")).json()).id as number;
    const secondBookId = (await (await publish("Segundo libro")).json()).id as number;
    await authorContext.close();

    const context = await newVisitor(browser, baseUrl, "es-ES");
    const page = await context.newPage();
    await signInAsAdmin(page.request);
    // An author has one first book: the upload made it the first one, so the admin clears it before moving it.
    const cleared = await page.request.post("/api/admin/fix-first-book-flag", { data: { bookId: firstBookId, setAsFirstBook: false } });
    expect(cleared.status()).toBe(200);
    await page.goto("/dashboard");
    await page.click('[data-testid="tab-admin"]');
    await page.locator('[data-testid="admin-totals"]').waitFor();
    // The hot wallet of the local chain is funded, and the first journey's payment was finalized.
    const health = page.locator('[data-testid="payout-health"]');
    expect(await health.getAttribute("data-state")).toBe("sending");
    expect(await health.textContent()).toContain(text("es", "admin.health.sendingTitle"));
    const sla = page.locator('[data-testid="payout-sla"]');
    await sla.getByRole("heading", { name: text("es", "admin.sla.heading") }).waitFor();
    expect(Number(await sla.locator('[data-testid="sla-completed"]').textContent())).toBeGreaterThanOrEqual(1);
    expect(await sla.locator('[data-testid="sla-p50"]').textContent()).toMatch(/^\d+\s(s|min)$/);
    await checkEveryLanguage(page, "rewards-admin", (language) => sla.getByRole("heading", { name: text(language, "admin.sla.heading") }).waitFor());
    await page.goto("/admin/payments");
    await page.locator('[data-testid="reconciliation"]').waitFor();
    // The books tab lists what needs attention by default; this author's books are found among all of them by a search.
    await page.goto("/admin/books");
    await page.locator('[data-testid="admin-book-view-all"]').click();
    expect(await page.locator('[data-testid="admin-book-view-all"] input').isChecked()).toBe(true);
    await page.locator('[data-testid="admin-book-filter"]').fill(authorUsername);
    await expect.poll(() => page.url()).toContain(`q=${authorUsername}`);
    const fixButton = page.locator(`[data-testid="fix-first-book-${secondBookId}"]`);
    await fixButton.waitFor();
    // The page shown stays until the search's answer replaces it.
    await expect.poll(() => page.locator('[data-testid="diagnostic-row"]').count()).toBe(2);
    await fixButton.click();
    await page.locator(`[data-testid="fix-first-book-confirm-${secondBookId}"]`).click();
    await fixButton.waitFor({ state: "detached" });
    // The first book is now named in the other book's row, which offers no second one.
    await page.locator(`[data-testid="first-book-of-author-${firstBookId}"]`).waitFor();
    await context.close();
  });
});
