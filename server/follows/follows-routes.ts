import { authorIdSchema } from "../../shared/book-schemas.ts";
import { FOLLOWING_ATOM_PATH, FOLLOWING_OPDS_PATH, FOLLOWING_ROW_SIZE, DIGEST_UNSUBSCRIBE_PATH, FOLLOWING_FEED_SIZE } from "../../shared/follows.ts";
import { unsubscribeQuerySchema } from "../../shared/follow-schemas.ts";
import type { Db } from "../db/client.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import { HttpError } from "../http/errors.ts";
import { eReaderKeyAuth } from "../opds/e-reader-key-auth.ts";
import * as answers from "../openapi/answer-schemas.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import { type FollowingFeedSite, followingAtomFeed, followingOpdsFeed } from "./following-feeds.ts";
import { followAuthor, listFollowingItems, readFollowState, unfollowAuthor } from "./follows-service.ts";
import { presentFollowingItem } from "./present-following.ts";
import { unsubscribeByToken } from "./unsubscribe-service.ts";
import type { UnsubscribeTokens } from "./unsubscribe-tokens.ts";

export interface FollowsRoutesDeps {
  db: Db;
  limits: AbuseLimits;
}

const route = routesOf<FollowsRoutesDeps>();

/** Following an author, and what is new from those one follows (docs/product.md#follows). Who follows whom is never answered. */
export const followsRoutes = routeGroup("/api", [
  route(
    {
      method: "GET",
      path: "/api/authors/:id/follow",
      access: "signed-in",
      summary: "Whether the reader follows this author; to the author themself, how many readers follow them",
      tag: "follows",
      params: authorIdSchema,
      answer: { status: 200, description: "The follow state.", json: answers.followStateSchema },
      errors: [400],
    },
    ({ params, caller }, { db }) => readFollowState(db, caller, params.id),
  ),
  route(
    {
      method: "PUT",
      path: "/api/authors/:id/follow",
      access: "signed-in",
      summary: "Follow an author (never oneself): their new books reach the reader's home, feeds and digest mail",
      tag: "follows",
      params: authorIdSchema,
      before: (deps) => [deps.limits.follow],
      answer: { status: 200, description: "The follow state.", json: answers.followStateSchema },
      errors: [400, 404, 429],
    },
    ({ params, caller }, { db }) => followAuthor(db, caller, params.id, new Date()),
  ),
  route(
    {
      method: "DELETE",
      path: "/api/authors/:id/follow",
      access: "signed-in",
      summary: "Stop following an author",
      tag: "follows",
      params: authorIdSchema,
      before: (deps) => [deps.limits.follow],
      answer: { status: 200, description: "The follow state.", json: answers.followStateSchema },
      errors: [400, 429],
    },
    ({ params, caller }, { db }) => unfollowAuthor(db, caller, params.id),
  ),
  route(
    {
      method: "GET",
      path: "/api/following",
      access: "signed-in",
      summary: "New books of the authors the reader follows, and new editions of those and of books the reader took, newest first",
      tag: "follows",
      answer: { status: 200, description: "The newest entries.", json: answers.followingItemsSchema },
      errors: [],
    },
    async ({ caller }, { db }) => (await listFollowingItems(db, caller, { after: null, sinceFollow: false, limit: FOLLOWING_ROW_SIZE })).map(presentFollowingItem),
  ),
]);

export interface UnsubscribeRoutesDeps {
  db: Db;
  limits: AbuseLimits;
  unsubscribeTokens: UnsubscribeTokens;
}

const unsubscribeRoute = routesOf<UnsubscribeRoutesDeps>();

/**
 * A digest's one-click unsubscribe (RFC 8058): a mail program POSTs to the link the mail's
 * List-Unsubscribe header names, from its own servers, without a session; the same-origin check
 * lets exactly this call through (server/security/same-origin.ts). A GET of the link is the browser
 * app's page, which asks before it POSTs: mail scanners fetch links, and a GET never changes anything.
 */
export const unsubscribeRoutes = routeGroup(DIGEST_UNSUBSCRIBE_PATH, [
  unsubscribeRoute(
    {
      method: "POST",
      path: DIGEST_UNSUBSCRIBE_PATH,
      access: "public",
      summary: "Turn off the digest mail of the account a signed unsubscribe link names (RFC 8058 one-click)",
      tag: "follows",
      query: unsubscribeQuerySchema,
      before: (deps) => [deps.limits.unsubscribe],
      answer: { status: 200, description: "The digest is off.", json: answers.unsubscribedSchema },
      errors: [400, 429],
    },
    async ({ query }, { db, unsubscribeTokens }) => {
      const userId = unsubscribeTokens.userOf(query.token);
      if (!userId) throw new HttpError(400, "invalid_unsubscribe_link", "This unsubscribe link is not valid.", { token: "following.unsubscribe.invalidLink" });
      await unsubscribeByToken(db, userId);
      return { digestFrequency: "off" as const };
    },
  ),
]);

export interface FollowingFeedsDeps extends FollowingFeedSite {
  db: Db;
  adminEmail: string | undefined;
  limits: AbuseLimits;
}

const feedRoute = routesOf<FollowingFeedsDeps>();

/** A reader's own feeds, read by an e-reader or feed app with an e-reader key: kept by that app alone. */
const OWN_FEED_CACHE = "private, max-age=60";

/** The reader's personal feeds of what is new from followed authors, as OPDS and as Atom (docs/product.md#follows). */
export const followingFeedsRoutes = routeGroup(
  FOLLOWING_OPDS_PATH,
  [
    feedRoute(
      {
        method: "GET",
        path: FOLLOWING_OPDS_PATH,
        access: "e-reader-key",
        summary: "The reader's own OPDS acquisition feed: new books of followed authors and new editions",
        tag: "opds",
        answer: { status: 200, description: "An OPDS 1.2 acquisition feed." },
        errors: [429],
      },
      async ({ caller, res }, deps) => {
        const items = await listFollowingItems(deps.db, caller, { after: null, sinceFollow: false, limit: FOLLOWING_FEED_SIZE });
        res.setHeader("Content-Type", "application/atom+xml;profile=opds-catalog;kind=acquisition; charset=utf-8");
        res.setHeader("Cache-Control", OWN_FEED_CACHE);
        res.vary("Authorization");
        res.send(followingOpdsFeed(deps, items, new Date()));
      },
    ),
    feedRoute(
      {
        method: "GET",
        path: FOLLOWING_ATOM_PATH,
        access: "e-reader-key",
        summary: "The reader's own Atom feed: new books of followed authors and new editions",
        tag: "feeds",
        answer: { status: 200, description: "An Atom 1.0 feed." },
        errors: [429],
      },
      async ({ caller, res }, deps) => {
        const items = await listFollowingItems(deps.db, caller, { after: null, sinceFollow: false, limit: FOLLOWING_FEED_SIZE });
        res.setHeader("Content-Type", "application/atom+xml; charset=utf-8");
        res.setHeader("Cache-Control", OWN_FEED_CACHE);
        res.vary("Authorization");
        res.send(followingAtomFeed(deps, items, new Date()));
      },
    ),
  ],
  { authenticators: ({ db, adminEmail, productName, limits }) => ({ eReaderKey: eReaderKeyAuth({ db, adminEmail, productName, failureLimit: limits.eReaderKeyFailures }) }) },
);
