import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach, vi } from "vitest";
import i18n from "@/i18n";
import { dismissToast } from "@/lib/toast";

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
