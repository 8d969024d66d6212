import { useCallback, useEffect, useState } from "react";
import { readPreference, writePreference } from "@/features/reader/reader-preferences";

/**
 * The reader's colours (docs/product.md#reading): the chrome, the surround and the text of reflowed
 * books follow them; a PDF's page is dimmed and inverted in dark (reader.css). Every format's view is
 * given the theme as a prop.
 */
export const READER_THEMES = ["light", "sepia", "dark"] as const;
export type ReaderTheme = (typeof READER_THEMES)[number];

const THEME_KEY = "plume.reader.theme";
const DARK_QUERY = "(prefers-color-scheme: dark)";

const isTheme = (value: string): value is ReaderTheme => (READER_THEMES as readonly string[]).includes(value);

/** The system's light or dark, when the browser says (jsdom and old browsers have no matchMedia). */
function systemTheme(): ReaderTheme {
  return typeof window.matchMedia === "function" && window.matchMedia(DARK_QUERY).matches ? "dark" : "light";
}

/**
 * The theme shown: the reader's choice once made (remembered in this browser), the system's light
 * or dark until then, followed as it changes (an evening switch to dark mode).
 */
export function useReaderTheme() {
  const [chosen, setChosen] = useState<ReaderTheme | undefined>(() => readPreference(THEME_KEY, (stored) => (isTheme(stored) ? stored : undefined)));
  const [system, setSystem] = useState<ReaderTheme>(systemTheme);

  useEffect(() => {
    if (typeof window.matchMedia !== "function") return;
    const query = window.matchMedia(DARK_QUERY);
    const onChange = () => setSystem(query.matches ? "dark" : "light");
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);

  const theme = chosen ?? system;
  const setTheme = useCallback((next: ReaderTheme) => {
    setChosen(next);
    writePreference(THEME_KEY, next);
  }, []);
  const cycleTheme = useCallback(() => setTheme(READER_THEMES[(READER_THEMES.indexOf(theme) + 1) % READER_THEMES.length]!), [setTheme, theme]);
  return { theme, setTheme, cycleTheme };
}
