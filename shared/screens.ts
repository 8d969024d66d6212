import { parse } from "regexparam";

/**
 * The path patterns of the browser app's screens (docs/product.md#screens), in wouter's syntax: `:name`
 * is one segment, `:name?` an optional one. The client's router has a route for each and for nothing
 * else (client/src/App.tsx, checked by its type), and the server answers 404 for a path that no
 * pattern matches, so the two cannot disagree on what is a screen.
 */
export const SCREEN_PATHS = [
  "/",
  "/catalog",
  "/books/:id/read",
  "/books/:segment",
  "/authors/:id",
  // A series' volumes in order (docs/product.md#series-and-tags).
  "/series/:id",
  // A reader's public shelves, when they made them public (docs/product.md#shelves).
  "/readers/:username",
  "/login",
  "/register",
  "/forgot-password",
  "/reset-password",
  "/verify-email",
  "/upload",
  // The id is optional so that a missing one gets the screen's invalid-id message rather than a 404.
  "/edit-book/:id?",
  "/dashboard",
  "/settings",
  // The books the reader took and their shelves (docs/product.md#shelves).
  "/my-books",
  // The admin panel's tabs, each at its own address (client/src/features/admin/admin-sections.ts).
  "/admin/:section?",
  // The notice form: anyone reports a book or an author (docs/product.md#moderation).
  "/report",
  // A digest's unsubscribe link: it asks before it turns the mail off (docs/product.md#follows).
  "/unsubscribe",
  // The pages that explain Plume (shared/info-pages.ts).
  "/help",
  "/author-guide",
  "/terms",
  "/privacy",
  "/contact",
  "/transparency",
] as const;

export type ScreenPath = (typeof SCREEN_PATHS)[number];

const SCREEN_PATTERNS = SCREEN_PATHS.map((screen) => parse(screen).pattern);

/**
 * Whether a path, as requested, shows one of the screens. Matched as wouter matches the address bar:
 * percent-escapes decoded by decodeURI when they can be (left as they are when not), each pattern
 * through regexparam (wouter's parser), so letter case and one trailing slash do not matter.
 */
export function isScreenPath(path: string): boolean {
  let decoded = path;
  try {
    decoded = decodeURI(path);
  } catch {
    // A malformed escape (`%zz`): wouter matches the path as it is, and so does this.
  }
  return SCREEN_PATTERNS.some((pattern) => pattern.test(decoded));
}
