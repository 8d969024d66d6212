/**
 * Who may call each route (OWASP ASVS 8.2), the one table the access check reads: a feature declares a
 * route through `GuardedRouter` (server/http/access.ts), which takes the route's rule from here and
 * refuses to mount a route that has none. The authorization matrix test calls every route as every
 * kind of caller and expects what this table says, so the table, the code and the test cannot drift.
 */
export type Access =
  /** Anyone, signed in or not. */
  | "public"
  /** Any signed-in account. */
  | "signed-in"
  /** Any signed-in account but the book's author (server/ratings/ratings-policy.ts: an author cannot rate their own book). */
  | "signed-in-not-author"
  /** Only the book's author; not even the admin changes someone's book (server/books/books-policy.ts). */
  | "book-author"
  /** Only the account named in the request, or the admin (server/accounts/accounts-policy.ts). */
  | "account-or-admin"
  /** Only the admin (docs/product.md#roles). */
  | "admin"
  /**
   * An e-reader app: HTTP Basic with an account's username or e-mail and one of its e-reader keys,
   * not the session (docs/product.md#opds); the key's owner is then the caller, as if signed in.
   */
  | "e-reader-key";

export interface RouteRule {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  access: Access;
}

export const ROUTE_TABLE: readonly RouteRule[] = [
  { method: "POST", path: "/api/auth/register", access: "public" },
  { method: "POST", path: "/api/auth/login", access: "public" },
  { method: "POST", path: "/api/auth/logout", access: "public" },
  // Anyone: "nobody is signed in" is an answer (null), not an error a visitor's console would show (docs/decisions/0048).
  { method: "GET", path: "/api/auth/user", access: "public" },
  // Password reset: the same answer for any address; then the link is the caller's proof (docs/product.md#password-reset).
  { method: "POST", path: "/api/auth/forgot-password", access: "public" },
  { method: "POST", path: "/api/auth/reset-password", access: "public" },
  // A verification link is the caller's proof: it may be opened where nobody is signed in (docs/product.md#accounts).
  { method: "POST", path: "/api/auth/verify-email", access: "public" },
  { method: "POST", path: "/api/auth/verify-email/resend", access: "signed-in" },
  { method: "PUT", path: "/api/auth/language", access: "signed-in" },
  // The settings screen: each call changes only the caller's own account (docs/product.md#settings).
  { method: "PATCH", path: "/api/account/profile", access: "signed-in" },
  { method: "PUT", path: "/api/account/email", access: "signed-in" },
  { method: "PUT", path: "/api/account/password", access: "signed-in" },
  { method: "PUT", path: "/api/account/notifications", access: "signed-in" },
  { method: "GET", path: "/api/account/sessions", access: "signed-in" },
  { method: "POST", path: "/api/account/sessions/sign-out-others", access: "signed-in" },
  { method: "DELETE", path: "/api/account/sessions/:id", access: "signed-in" },
  { method: "GET", path: "/api/account/export", access: "signed-in" },
  { method: "GET", path: "/api/account/deletion-preview", access: "signed-in" },
  { method: "DELETE", path: "/api/account", access: "signed-in" },
  { method: "GET", path: "/api/account/storage", access: "signed-in" },
  { method: "GET", path: "/api/login", access: "public" },
  { method: "GET", path: "/api/config", access: "public" },
  { method: "GET", path: "/api/stats/public", access: "public" },
  { method: "GET", path: "/api/books", access: "public" },
  { method: "POST", path: "/api/books", access: "signed-in" },
  { method: "GET", path: "/api/books/:id", access: "public" },
  { method: "PUT", path: "/api/books/:id", access: "book-author" },
  { method: "DELETE", path: "/api/books/:id", access: "book-author" },
  { method: "POST", path: "/api/books/:id/download", access: "signed-in" },
  // Reading in the browser: the book's content and a position only for a reader who opened it (server/reading/reading-policy.ts).
  { method: "POST", path: "/api/books/:id/read", access: "signed-in" },
  { method: "GET", path: "/api/books/:id/read/file", access: "signed-in" },
  { method: "GET", path: "/api/books/:id/read/view", access: "signed-in" },
  { method: "PUT", path: "/api/books/:id/read/position", access: "signed-in" },
  { method: "GET", path: "/api/authors/:id", access: "public" },
  { method: "GET", path: "/api/authors/:id/books", access: "public" },
  { method: "GET", path: "/api/authors/:id/stats", access: "public" },
  { method: "GET", path: "/api/authors/:id/payments", access: "account-or-admin" },
  { method: "GET", path: "/api/authors/:id/download-report", access: "account-or-admin" },
  { method: "POST", path: "/api/wallet/nonce", access: "signed-in" },
  { method: "POST", path: "/api/wallet/connect", access: "signed-in" },
  { method: "GET", path: "/rating/:bookId", access: "public" },
  { method: "POST", path: "/rate", access: "signed-in-not-author" },
  { method: "GET", path: "/api/reviews", access: "account-or-admin" },
  { method: "GET", path: "/covers/:name", access: "public" },
  { method: "GET", path: "/api/e-reader-keys", access: "signed-in" },
  { method: "POST", path: "/api/e-reader-keys", access: "signed-in" },
  { method: "DELETE", path: "/api/e-reader-keys/:id", access: "signed-in" },
  { method: "GET", path: "/opds", access: "public" },
  { method: "GET", path: "/opds/new", access: "public" },
  { method: "GET", path: "/opds/popular", access: "public" },
  { method: "GET", path: "/opds/genres", access: "public" },
  { method: "GET", path: "/opds/genres/:genre", access: "public" },
  { method: "GET", path: "/opds/languages", access: "public" },
  { method: "GET", path: "/opds/languages/:language", access: "public" },
  { method: "GET", path: "/opds/search", access: "public" },
  { method: "GET", path: "/opds/opensearch.xml", access: "public" },
  { method: "GET", path: "/opds/books/:id/file", access: "e-reader-key" },
  { method: "GET", path: "/api/admin/overview-debug", access: "admin" },
  { method: "GET", path: "/api/admin/payment-diagnostics", access: "admin" },
  { method: "GET", path: "/api/admin/payout-sla", access: "admin" },
  { method: "POST", path: "/api/admin/fix-first-book-flag", access: "admin" },
  { method: "POST", path: "/api/admin/users/:id/reset-link", access: "admin" },
  // Feeds and crawling (server/feeds/, docs/product.md#feeds-and-crawling).
  { method: "GET", path: "/feed.xml", access: "public" },
  { method: "GET", path: "/authors/:id/feed.xml", access: "public" },
  { method: "GET", path: "/sitemap.xml", access: "public" },
  { method: "GET", path: "/sitemaps/:name", access: "public" },
  { method: "GET", path: "/robots.txt", access: "public" },
  { method: "GET", path: "/api/openapi.json", access: "public" },
  // Operations (docs/decisions/0040): probes for a load balancer or an orchestrator, which have no account.
  { method: "GET", path: "/healthz", access: "public" },
  { method: "GET", path: "/readyz", access: "public" },
  // Its proof is the METRICS_TOKEN bearer token, not a session: a scraper has none (like a reset link, its own proof).
  { method: "GET", path: "/metrics", access: "public" },
];
