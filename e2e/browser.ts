import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, type Page, chromium } from "playwright-core";
import { expect } from "vitest";
import { CHROMIUM_PATH } from "../scripts/ensure-test-tools.ts";
import { projectRoot } from "../server/paths.ts";

export const screenshotFolder = join(projectRoot, "test-output", "screenshots");

export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;

/** Debian's Chromium, headless, with nothing that would reach for the network on its own. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

const policyViolations = new WeakMap<BrowserContext, string[]>();

/** A fresh visitor: no cookies, no stored language, the browser language given. */
export async function newVisitor(browser: Browser, baseUrl: string, locale = "en-US"): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl, locale, viewport: VIEWPORTS.desktop });
  const violations: string[] = [];
  context.on("console", (message) => {
    if (message.type() === "error" && message.text().includes("Content Security Policy")) violations.push(message.text());
  });
  policyViolations.set(context, violations);
  return context;
}

/** What the server's Content-Security-Policy blocked in a visitor's pages: the app must need nothing it forbids. */
export const policyViolationsOf = (context: BrowserContext): string[] => policyViolations.get(context) ?? [];

/**
 * Whether the journeys save their screens. `.ci/run` turns it off: a fresh clone's pictures are
 * thrown away unseen, and 134 full-page captures cost the browser tests minutes of a 2-core machine.
 */
const savesScreenshots = process.env.E2E_SCREENSHOTS !== "off";

/** Saves the page at phone and desktop widths, so a person can look at what a journey showed. */
export async function screenshotBoth(page: Page, name: string): Promise<void> {
  if (!savesScreenshots) return;
  mkdirSync(screenshotFolder, { recursive: true });
  const original = page.viewportSize();
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(screenshotFolder, `${name}-${size.width}-${label}.png`), fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}

/**
 * Opens a settings section below the page's first screen by its address, and waits for the page's own
 * scroll to it, made once the sections above it are drawn (client/src/features/settings/settings-page.tsx),
 * to come to rest: a click aimed before it would land on whatever the scroll brings under the pointer.
 */
export async function gotoSettingsSection(page: Page, id: string): Promise<void> {
  await page.goto(`/settings#${id}`);
  await page.locator(`#${id}`).waitFor();
  let lastScroll = -1;
  await expect
    .poll(
      async () => {
        const scroll = await page.evaluate(() => window.scrollY);
        const atRest = scroll > 0 && scroll === lastScroll;
        lastScroll = scroll;
        return atRest;
      },
      { interval: 250 },
    )
    .toBe(true);
}
