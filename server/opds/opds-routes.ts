import type { RequestHandler, Response } from "express";
import { bookIdSchema, downloadQuerySchema } from "../../shared/book-schemas.ts";
import { type OpdsPageQuery, opdsGenreParamsSchema, opdsLanguageParamsSchema, opdsPageQuerySchema, opdsSearchQuerySchema } from "../../shared/opds.ts";
import { showsExplicit } from "../books/books-policy.ts";
import { findTakeableBook } from "../books/books-service.ts";
import { type CountedFileDeps, sendCountedBookFile } from "../downloads/send-counted-file.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import { eReaderKeyAuth } from "./e-reader-key-auth.ts";
import { ACQUISITION_TYPE, type CatalogSite, NAVIGATION_TYPE, genresFeed, languagesFeed, openSearchDescription, rootFeed } from "./opds-feeds.ts";
import { type BookList, acquisitionFeedPage, seriesFeedPage, tagFeedPage, tagsFeedOf } from "./opds-service.ts";
import { seriesIdSchema, tagSlugParamsSchema } from "../../shared/series-and-tags.ts";

export interface OpdsRoutesDeps extends CountedFileDeps {
  adminEmail: string | undefined;
  /** Where links start (server/http/site-origin.ts). */
  origin: string;
  productName: string;
  limits: AbuseLimits;
}

/** Feeds change as books are published and downloaded: a minute's caching spares the catalog a client's repeated reads. */
const FEED_CACHE = "public, max-age=60";

/** A reader's own feed (an e-reader key, or a session, names them): kept by their app alone, not by a shared cache. */
const OWN_FEED_CACHE = "private, max-age=60";

function sendXml(res: Response, type: string, xml: string, cacheControl = FEED_CACHE) {
  res.setHeader("Content-Type", `${type}; charset=utf-8`);
  res.setHeader("Cache-Control", cacheControl);
  res.send(xml);
}

const route = routesOf<OpdsRoutesDeps>();
const siteOf = ({ origin, productName }: OpdsRoutesDeps): CatalogSite => ({ origin, productName });

const NAVIGATION = { status: 200, description: "An OPDS 1.2 navigation feed." } as const;
const ACQUISITION = { status: 200, description: "A page of an OPDS 1.2 acquisition feed, with its next page's link." } as const;

const navigation = (path: string, summary: string, feed: (site: CatalogSite, at: Date) => string) =>
  route({ method: "GET", path, access: "public", summary, tag: "opds", answer: NAVIGATION, errors: [] }, ({ res }, deps) =>
    sendXml(res, NAVIGATION_TYPE, feed(siteOf(deps), new Date())),
  );

/**
 * An acquisition feed holds explicit books only for a reader who chose to see them: an app that sends
 * an e-reader key gets its account's choice; without one, the feed is a visitor's (docs/decisions/0092).
 */
async function sendCallersFeed({ res, caller }: { res: Response; caller: Express.User | undefined }, feed: (showExplicit: boolean) => Promise<string>) {
  res.vary("Authorization").vary("Cookie");
  sendXml(res, ACQUISITION_TYPE, await feed(showsExplicit(caller)), caller ? OWN_FEED_CACHE : FEED_CACHE);
}

const sendAcquisition = (call: { res: Response; caller: Express.User | undefined }, deps: OpdsRoutesDeps, list: BookList, page: OpdsPageQuery) =>
  sendCallersFeed(call, (showExplicit) => acquisitionFeedPage(deps.db, siteOf(deps), list, page, new Date(), showExplicit));

/** The e-reader key check for a feed anyone may read: only when the app sends credentials, which are then checked as for a file. */
function keyIfSent({ db, adminEmail, productName, limits }: OpdsRoutesDeps): RequestHandler {
  const checkKey = eReaderKeyAuth({ db, adminEmail, productName, failureLimit: limits.eReaderKeyFailures });
  return (req, res, next) => (req.headers.authorization === undefined ? next() : checkKey(req, res, next));
}

/**
 * The OPDS 1.2 catalog for e-reader apps (docs/product.md#opds): feeds and search open to anyone,
 * a book's file only with an e-reader key, counted by the same rule as every download.
 */
export const opdsRoutes = routeGroup(
  "/opds",
  [
    navigation("/opds", "The catalog's root: its newest, popular, genre and language feeds", rootFeed),
    navigation("/opds/genres", "The genres, each a feed", genresFeed),
    navigation("/opds/languages", "The languages, each a feed", languagesFeed),
    route(
      { method: "GET", path: "/opds/new", access: "public", summary: "The newest books", tag: "opds", query: opdsPageQuerySchema, before: (deps) => [keyIfSent(deps)], answer: ACQUISITION, errors: [400, 401, 429] },
      ({ query, res, caller }, deps) => sendAcquisition({ res, caller }, deps, { kind: "newest" }, query),
    ),
    route(
      { method: "GET", path: "/opds/popular", access: "public", summary: "The most downloaded books", tag: "opds", query: opdsPageQuerySchema, before: (deps) => [keyIfSent(deps)], answer: ACQUISITION, errors: [400, 401, 429] },
      ({ query, res, caller }, deps) => sendAcquisition({ res, caller }, deps, { kind: "popular" }, query),
    ),
    route(
      {
        method: "GET",
        path: "/opds/genres/:genre",
        access: "public",
        summary: "The books of a genre",
        tag: "opds",
        params: opdsGenreParamsSchema,
        query: opdsPageQuerySchema,
        before: (deps) => [keyIfSent(deps)],
        answer: ACQUISITION,
        errors: [400, 401, 429],
      },
      ({ params, query, res, caller }, deps) => sendAcquisition({ res, caller }, deps, { kind: "genre", genre: params.genre }, query),
    ),
    route(
      {
        method: "GET",
        path: "/opds/languages/:language",
        access: "public",
        summary: "The books in a language",
        tag: "opds",
        params: opdsLanguageParamsSchema,
        query: opdsPageQuerySchema,
        before: (deps) => [keyIfSent(deps)],
        answer: ACQUISITION,
        errors: [400, 401, 429],
      },
      ({ params, query, res, caller }, deps) => sendAcquisition({ res, caller }, deps, { kind: "language", language: params.language }, query),
    ),
    route(
      { method: "GET", path: "/opds/search", access: "public", summary: "The books a search finds", tag: "opds", query: opdsSearchQuerySchema, before: (deps) => [keyIfSent(deps)], answer: ACQUISITION, errors: [400, 401, 429] },
      ({ query, res, caller }, deps) => sendAcquisition({ res, caller }, deps, { kind: "search", terms: query.q }, query),
    ),
    // Series and tags (docs/product.md#series-and-tags): the most used tags, each tag's books, each series' volumes.
    route(
      { method: "GET", path: "/opds/tags", access: "public", summary: "The most used tags, each a feed", tag: "opds", answer: NAVIGATION, errors: [] },
      async ({ res }, deps) => sendXml(res, NAVIGATION_TYPE, await tagsFeedOf(deps.db, siteOf(deps), new Date())),
    ),
    route(
      {
        method: "GET",
        path: "/opds/tags/:slug",
        access: "public",
        summary: "The books of a tag, newest first",
        tag: "opds",
        params: tagSlugParamsSchema,
        query: opdsPageQuerySchema,
        before: (deps) => [keyIfSent(deps)],
        answer: ACQUISITION,
        errors: [400, 401, 404, 429],
      },
      ({ params, query, res, caller }, deps) =>
        sendCallersFeed({ res, caller }, (showExplicit) => tagFeedPage(deps.db, siteOf(deps), params.slug, query, new Date(), showExplicit)),
    ),
    route(
      {
        method: "GET",
        path: "/opds/series/:id",
        access: "public",
        summary: "A series' listed volumes, in order",
        tag: "opds",
        params: seriesIdSchema,
        query: opdsPageQuerySchema,
        before: (deps) => [keyIfSent(deps)],
        answer: ACQUISITION,
        errors: [400, 401, 404, 429],
      },
      ({ params, query, res, caller }, deps) =>
        sendCallersFeed({ res, caller }, (showExplicit) => seriesFeedPage(deps.db, siteOf(deps), params.id, query, new Date(), showExplicit)),
    ),
    route(
      {
        method: "GET",
        path: "/opds/opensearch.xml",
        access: "public",
        summary: "The OpenSearch description of the catalog's search",
        tag: "opds",
        answer: { status: 200, description: "An OpenSearch 1.1 description document." },
        errors: [],
      },
      ({ res }, deps) => sendXml(res, "application/opensearchdescription+xml", openSearchDescription(siteOf(deps))),
    ),
    route(
      {
        method: "GET",
        path: "/opds/books/:id/file",
        access: "e-reader-key",
        summary: "A book's file for an e-reader app (?format=epub: the EPUB made of a Word book), counted like every download",
        tag: "opds",
        params: bookIdSchema,
        query: downloadQuerySchema,
        before: ({ limits }) => [limits.download],
        answer: { status: 200, description: "The book's file, whole or the range asked for (206)." },
        errors: [400, 404, 416, 429],
      },
      async ({ params, query, caller, req, res }, deps) => {
        const listed = await findTakeableBook(deps.db, params.id, caller);
        await sendCountedBookFile(deps, { reader: caller, req, res }, listed, "opds", query.format, query.edition);
      },
    ),
  ],
  { authenticators: ({ db, adminEmail, productName, limits }) => ({ eReaderKey: eReaderKeyAuth({ db, adminEmail, productName, failureLimit: limits.eReaderKeyFailures }) }) },
);
