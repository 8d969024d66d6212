import type { Page } from "playwright-core";
import { expect } from "vitest";
import { expectAccessible, expectNoRawTranslationKeys } from "./accessibility.ts";
import { VIEWPORTS, screenshotBoth } from "./browser.ts";
import type { Language } from "./locales.ts";

export const LANGUAGES: Language[] = ["en", "es", "fr"];

/**
 * The page in each language, chosen with the language menu as a reader does: once `ready` has checked
 * the language's own content, axe at both widths, no sideways scroll, no raw keys, screenshots.
 */
export async function checkEveryLanguage(page: Page, name: string, ready: (language: Language) => Promise<void>): Promise<void> {
  for (const language of LANGUAGES) {
    if ((await page.getAttribute("html", "lang")) !== language) await page.selectOption('[data-testid="language-select"]', language);
    await expect.poll(() => page.getAttribute("html", "lang")).toBe(language);
    await ready(language);
    for (const size of Object.values(VIEWPORTS)) {
      await page.setViewportSize(size);
      await expectAccessible(page, `${name} (${language}, ${size.width} px)`);
      // What sticks out, named in the failure: the innermost elements past the page's right edge.
      const sideways = await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth <= width) return [];
        const outside = [...document.body.querySelectorAll("*")].filter((element) => element.getBoundingClientRect().right > width + 1);
        return outside
          .filter((element) => !outside.some((other) => other !== element && element.contains(other)))
          .slice(0, 5)
          .map((element) => `<${element.tagName.toLowerCase()}${element.getAttribute("data-testid") ? ` data-testid="${element.getAttribute("data-testid")}"` : ""}> ${(element.textContent ?? "").trim().slice(0, 60)}`);
      });
      expect(sideways, `${name} (${language}) scrolls sideways at ${size.width} px`).toEqual([]);
    }
    await expectNoRawTranslationKeys(page, `${name} (${language})`);
    await screenshotBoth(page, `${name}-${language}`);
  }
}
