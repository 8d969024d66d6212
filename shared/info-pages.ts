import type { ScreenPath } from "./screens.ts";

/**
 * The pages that explain Plume (docs/product.md#info-pages), linked from the footer: each at its own
 * address, with its texts under `infoPages.<key>` in `shared/locales/info-pages/<language>.json`, a
 * namespace of its own that only these pages fetch.
 */
export const INFO_PAGES = [
  { key: "help", path: "/help" },
  { key: "authorGuide", path: "/author-guide" },
  { key: "terms", path: "/terms" },
  { key: "privacy", path: "/privacy" },
  { key: "contact", path: "/contact" },
  // The moderation figures (docs/product.md#moderation): the page's texts, and the report it draws.
  { key: "transparency", path: "/transparency" },
] as const satisfies ReadonlyArray<{ key: string; path: ScreenPath }>;

export type InfoPage = (typeof INFO_PAGES)[number];
export type InfoPageKey = InfoPage["key"];

/** The info page at a path as requested (a trailing slash and letter case do not matter), if any. */
export function infoPageAt(path: string): InfoPage | undefined {
  const normalized = path.toLowerCase().replace(/(.)\/$/, "$1");
  return INFO_PAGES.find((page) => page.path === normalized);
}
