import { accountLanguageRoutes } from "../accounts/account-language-routes.ts";
import { authRoutes } from "../accounts/auth-routes.ts";
import { emailVerificationRoutes } from "../accounts/email-verification-routes.ts";
import { loginRedirectRoutes } from "../accounts/login-redirect-route.ts";
import { adminResetLinkRoutes, passwordResetRoutes } from "../accounts/password-reset-routes.ts";
import { settingsRoutes } from "../accounts/settings-routes.ts";
import { walletRoutes } from "../accounts/wallet-routes.ts";
import { adminRoutes } from "../admin/admin-routes.ts";
import { booksRoutes } from "../books/books-routes.ts";
import { coverRoutes } from "../books/covers-routes.ts";
import { catalogRoutes } from "../catalog/catalog-routes.ts";
import { downloadsRoutes } from "../downloads/downloads-routes.ts";
import { feedsRoutes } from "../feeds/feeds-routes.ts";
import { followingFeedsRoutes, followsRoutes, unsubscribeRoutes } from "../follows/follows-routes.ts";
import { moderationRoutes } from "../moderation/moderation-routes.ts";
import { eReaderKeysRoutes } from "../opds/e-reader-keys-routes.ts";
import { opdsRoutes } from "../opds/opds-routes.ts";
import { kosyncRoutes } from "../kosync/kosync-routes.ts";
import { openApiRoutes } from "../openapi/openapi-routes.ts";
import { pagesRoutes } from "../pages/pages-routes.ts";
import { reviewRoutes } from "../ratings/reviews-routes.ts";
import { ratingRoutes } from "../ratings/ratings-routes.ts";
import { readingRoutes } from "../reading/reading-routes.ts";
import { shelvesRoutes } from "../shelves/shelves-routes.ts";
import { paymentsRoutes } from "../rewards/payments-routes.ts";
import { seriesRoutes } from "../series/series-routes.ts";
import { operationsRoutes } from "../system/health-routes.ts";
import { configRoutes } from "./config-routes.ts";
import type { Route, RouteGroup } from "./define-route.ts";

export type { Access } from "./access.ts";
export type { RouteRule } from "./define-route.ts";

/**
 * Every feature's routes, each declared once in its feature with who may call it and what it takes
 * and answers (server/http/define-route.ts). The app mounts each group where it belongs among the
 * shared steps (server/app.ts) and refuses to start with one left out; the authorization matrix test
 * and the OpenAPI description read the table made from them, so a route, its rule, its test and its
 * description cannot drift.
 */
export const ROUTE_GROUPS = {
  operations: operationsRoutes,
  covers: coverRoutes,
  feeds: feedsRoutes,
  auth: authRoutes,
  emailVerification: emailVerificationRoutes,
  accountLanguage: accountLanguageRoutes,
  settings: settingsRoutes,
  passwordReset: passwordResetRoutes,
  adminResetLink: adminResetLinkRoutes,
  loginRedirect: loginRedirectRoutes,
  catalog: catalogRoutes,
  books: booksRoutes,
  downloads: downloadsRoutes,
  reading: readingRoutes,
  ratings: ratingRoutes,
  reviews: reviewRoutes,
  shelves: shelvesRoutes,
  wallet: walletRoutes,
  payments: paymentsRoutes,
  pages: pagesRoutes,
  config: configRoutes,
  openApi: openApiRoutes,
  admin: adminRoutes,
  moderation: moderationRoutes,
  eReaderKeys: eReaderKeysRoutes,
  opds: opdsRoutes,
  kosync: kosyncRoutes,
  follows: followsRoutes,
  unsubscribe: unsubscribeRoutes,
  followingFeeds: followingFeedsRoutes,
  series: seriesRoutes,
} as const;

/** Every route the app serves, with its rule and its description. */
export const ROUTE_TABLE: readonly Route<never>[] = Object.values(ROUTE_GROUPS).flatMap((group: RouteGroup<never>) => group.routes);

/** Refuses an app that left a declared group unmounted: its routes would be in the table and the description, yet answer 404. */
export function checkEveryGroupMounted(mounted: ReadonlySet<object>): void {
  const missing = Object.entries(ROUTE_GROUPS).filter(([, group]) => !mounted.has(group));
  if (missing.length > 0) throw new Error(`Route groups declared but not mounted: ${missing.map(([name]) => name).join(", ")} (server/app.ts).`);
}
