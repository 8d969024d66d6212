import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AxeResults, ImpactValue, Result, RunOptions } from "axe-core";
import type { Page } from "playwright-core";
import { ALL_TEXTS } from "../shared/locales/all-texts.ts";

const axeScriptPath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
let axeScript: string | undefined;
const axeSource = () => (axeScript ??= readFileSync(axeScriptPath, "utf8"));

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA, plus axe's best practices (landmarks, heading order). */
const AXE_OPTIONS: RunOptions = {
  runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"] },
  resultTypes: ["violations"],
};

const BLOCKING_IMPACTS: ReadonlySet<ImpactValue> = new Set(["serious", "critical"]);

function describeViolation(violation: Result): string {
  const targets = violation.nodes.map((node) => `      ${node.target.join(" >>> ")}: ${node.failureSummary ?? ""}`.replace(/\s*\n\s*/g, " "));
  return [`  [${violation.impact}] ${violation.id}: ${violation.help} (${violation.helpUrl})`, ...targets].join("\n");
}

/**
 * Runs axe-core on the page as it is now and fails, listing each rule with the elements that break
 * it, when any violation is serious or critical. The script is injected again after a full page load.
 */
export async function expectAccessible(page: Page, screenName: string): Promise<void> {
  // Colours judged mid-transition (a theme just chosen, a hover that a resize moved) are neither the old
  // nor the new ones: axe judges the page at rest. Endless animations (a spinner) are left running.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const isAxeLoaded = await page.evaluate(() => "axe" in window);
  // Evaluated through the debugging protocol: a <script> tag would be refused by the app's CSP, rightly.
  if (!isAxeLoaded) await page.evaluate(axeSource());
  const results = await page.evaluate(
    (options) => (window as unknown as { axe: { run: (context: Document, options: RunOptions) => Promise<AxeResults> } }).axe.run(document, options),
    AXE_OPTIONS,
  );
  const blocking = results.violations.filter((violation) => violation.impact && BLOCKING_IMPACTS.has(violation.impact));
  if (blocking.length > 0) {
    throw new Error(`Accessibility violations on ${screenName}:\n${blocking.map(describeViolation).join("\n")}`);
  }
}

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** Every text key as a dotted path; plural forms also under their base key, which is what a missing plural shows. */
function translationKeyPaths(node: object, prefix = ""): string[] {
  return Object.entries(node).flatMap(([name, value]) => {
    const path = `${prefix}${name}`;
    if (typeof value !== "string") return translationKeyPaths(value as object, `${path}.`);
    return PLURAL_SUFFIX.test(path) ? [path, path.replace(PLURAL_SUFFIX, "")] : [path];
  });
}

const escapeForRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const rawKeyPattern = new RegExp(
  `(?<![\\w.])(?:${[...new Set(translationKeyPaths(ALL_TEXTS.en))].map(escapeForRegExp).join("|")})(?![\\w-])`,
  "g",
);

/** Fails when the page shows a translation key such as "catalog.title" instead of its text. */
export async function expectNoRawTranslationKeys(page: Page, screenName: string): Promise<void> {
  const visibleText = await page.evaluate(() => document.body.innerText);
  const shownKeys = [...new Set(visibleText.match(rawKeyPattern) ?? [])];
  if (shownKeys.length > 0) throw new Error(`Untranslated keys shown on ${screenName}: ${shownKeys.join(", ")}`);
}
