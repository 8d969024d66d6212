import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
// The one place that reaches past preact/compat: its scheduling of effects, below.
// eslint-disable-next-line no-restricted-syntax
import { options } from "preact";
import { afterEach, vi } from "vitest";
import { INTERFACE_LANGUAGES } from "@shared/languages";
import i18n, { i18nReady, loadOtherScreenTexts } from "@/lib/i18n";
import { dismissToast } from "@/lib/toast";

// findBy and waitFor give a screen 5 s, not 1 s: on a shared 2-core machine a render can take that long.
configure({ asyncUtilTimeout: 5_000 });

// Preact runs effects after the next frame, or 35 ms, where React's scheduler runs them at the next task; a
// test that awaits a query's result then reads what an effect set (the title, a page count) would race
// them. jsdom paints nothing: here the next task is the next frame. Same runtime otherwise (docs/decisions/0076).
options.requestAnimationFrame = (afterFrame) => setTimeout(afterFrame);

// jsdom draws no pictures and has no createImageBitmap: here every chosen image opens, as a real one
// does in a browser. A test of a file that does not open stubs it to refuse (the browser tests use Chromium's).
globalThis.createImageBitmap = () => Promise.resolve({ width: 1, height: 1, close: () => {} } as ImageBitmap);

// Components render synchronously in tests: every text of every language is loaded before the first one.
await i18nReady;
await loadOtherScreenTexts();
await i18n.loadLanguages([...INTERFACE_LANGUAGES]);

afterEach(async () => {
  cleanup();
  dismissToast();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  await i18n.changeLanguage("en");
  // After the language reset, which stores its choice: each test starts with no stored preference.
  localStorage.clear();
});
