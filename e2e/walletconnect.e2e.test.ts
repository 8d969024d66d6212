import { Wallet } from "ethers";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startLocalRelay, type LocalRelay } from "../test/helpers/walletconnect-relay.ts";
import { startPhoneWallet, type PhoneWallet } from "../test/helpers/walletconnect-wallet.ts";
import { publishPdf, registerAccount } from "./authors.ts";
import { expectAccessible, expectNoRawTranslationKeys } from "./accessibility.ts";
import { VIEWPORTS, launchBrowser, newVisitor, policyViolationsOf, screenshotBoth } from "./browser.ts";
import { type Language, text } from "./locales.ts";
import { startE2eServer, type E2eServer } from "./test-server.ts";

const PROJECT_ID = "0123456789abcdef0123456789abcdef";

// WalletConnect is on only where the operator set a project id: this suite has a server of its own, whose
// relay is a local one (the SDK's protocol, with nothing of WalletConnect's servers), as the chain is.
let relay: LocalRelay;
let server: E2eServer;
let browser: Browser;
let phone: PhoneWallet | undefined;
beforeAll(async () => {
  relay = await startLocalRelay();
  [server, browser] = await Promise.all([
    startE2eServer(inject("clientFolder"), { WALLETCONNECT_PROJECT_ID: PROJECT_ID, WALLETCONNECT_RELAY_URL: relay.url }),
    launchBrowser(),
  ]);
}, 120_000);
afterAll(async () => {
  await phone?.close();
  await browser?.close();
  await server?.close();
  await relay?.close();
});

describe("WalletConnect (docs/decisions/0109)", () => {
  it("an author connects a phone wallet by its pairing link: the phone approves and signs, and the dashboard shows the address connected; disconnecting ends the session, on either side", async () => {
    const context = await newVisitor(browser, server.url, "en-US");
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const page = await context.newPage();
    const config = await (await page.request.get("/api/config")).json();
    expect(config.walletConnect).toEqual({ projectId: PROJECT_ID, relayUrl: relay.url });
    phone = await startPhoneWallet({ privateKey: Wallet.createRandom().privateKey, chainId: config.token.chainId, projectId: PROJECT_ID, relayUrl: relay.url });

    await registerAccount(page.request, { firstName: "Movil", lastName: "Autora" });
    await publishPdf(page.request, { title: "Libro de la cartera del móvil" });
    await page.goto("/dashboard");
    // A browser without a wallet extension: WalletConnect is the one wallet, by name.
    const button = page.getByTestId("rewards-wallet-button");
    await expect.poll(() => button.textContent()).toContain("Connect WalletConnect");
    await button.click();

    const dialog = page.getByRole("dialog", { name: "Connect a phone wallet" });
    await dialog.getByRole("img", { name: "QR code of the connection link, for your wallet app" }).waitFor();
    await screenshotBoth(page, "walletconnect-pairing");
    await dialog.getByRole("button", { name: "Copy link" }).click();
    const uri = await page.evaluate(() => navigator.clipboard.readText());
    expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/);

    // The phone scans it: the session is approved, then the site's proof is signed there.
    await phone.pair(uri);
    await dialog.waitFor({ state: "detached" });
    await expect.poll(async () => (await (await page.request.get("/api/auth/user")).json()).walletAddress, { timeout: 15_000 }).toBe(phone.address);
    await expect.poll(() => button.getAttribute("data-status")).toBe("connected");
    expect(await button.textContent()).toContain(phone.address.slice(0, 6));
    expect(phone.requests).toEqual(["personal_sign"]);

    await button.click();
    await expect.poll(() => phone!.sessionCount(), { timeout: 10_000 }).toBe(0);

    // Paired again, then ended from the phone: the page follows.
    await button.click();
    await dialog.getByRole("button", { name: "Copy link" }).click();
    await phone.pair(await page.evaluate(() => navigator.clipboard.readText()));
    await expect.poll(() => button.getAttribute("data-status")).toBe("connected");
    await phone.disconnect();
    await expect.poll(() => button.getAttribute("data-status")).toBe("disconnected");
    expect(policyViolationsOf(context)).toEqual([]);
    await context.close();
  });

  it.each([
    ["es", "es-ES"],
    ["fr", "fr-FR"],
  ] as const satisfies ReadonlyArray<readonly [Language, string]>)("shows the pairing in %s, accessible at 390 and 1280 px", async (language, locale) => {
    const context = await newVisitor(browser, server.url, locale);
    const page = await context.newPage();
    await registerAccount(page.request, { firstName: "Movil", lastName: "Idioma" });
    await publishPdf(page.request, { title: `Libro ${language}` });
    await page.goto("/dashboard");
    const button = page.getByTestId("rewards-wallet-button");
    await expect.poll(() => button.textContent()).toContain(text(language, "wallet.connectNamed", { name: "WalletConnect" }));
    await button.click();
    const dialog = page.getByRole("dialog", { name: text(language, "walletConnect.title") });
    await dialog.getByRole("img", { name: text(language, "walletConnect.qrCodeAlt") }).waitFor();
    for (const size of Object.values(VIEWPORTS)) {
      await page.setViewportSize(size);
      await expectAccessible(page, `WalletConnect pairing (${language}, ${size.width} px)`);
    }
    await expectNoRawTranslationKeys(page, `WalletConnect pairing (${language})`);
    await screenshotBoth(page, `walletconnect-pairing-${language}`);
    // Escape cancels the attempt as a declined request (docs/decisions/0109): the dialog goes, nothing is connected.
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => button.getAttribute("data-status")).toBe("error");
    expect(policyViolationsOf(context)).toEqual([]);
    await context.close();
  });
});
