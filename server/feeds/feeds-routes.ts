import { once } from "node:events";
import type { Writable } from "node:stream";
import { createGzip } from "node:zlib";
import type { Request, Response } from "express";
import Negotiator from "negotiator";
import { authorIdSchema } from "../../shared/book-schemas.ts";
import type { Db } from "../db/client.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import { notFound } from "../http/errors.ts";
import { ATOM_CONTENT_TYPE, type AtomFeed, atomFeedXml } from "./atom.ts";
import { type FeedContext, authorFeed, newBooksFeed } from "./feeds-service.ts";
import { robotsTxt } from "./robots.ts";
import { SITEMAP_CONTENT_TYPE } from "./sitemap.ts";
import { type SitemapDocument, parseSitemapName, sitemapDocument, sitemapIndex } from "./sitemap-service.ts";

export interface FeedsRoutesDeps {
  db: Db;
  /** Where links start (server/http/site-origin.ts). */
  origin: string;
  productName: string;
}

/** A feed reader polls; a new book may wait this long to show (docs/product.md#feeds-and-crawling). */
const FEED_MAX_AGE_SECONDS = 300;
/** Crawlers come back far less often than that; an hour spares the database a 100,000-book scan per visit. */
const SITEMAP_MAX_AGE_SECONDS = 3600;

/** Whether the caller's copy is still good: Express compares the ETag and Last-Modified set on `res`. */
const notModified = (req: Request, res: Response) => {
  if (!req.fresh) return false;
  res.status(304).end();
  return true;
};

function sendFeed(res: Response, feed: AtomFeed) {
  res.type(ATOM_CONTENT_TYPE);
  res.setHeader("Cache-Control", `public, max-age=${FEED_MAX_AGE_SECONDS}`);
  res.setHeader("Last-Modified", feed.updated.toUTCString());
  // res.send adds a weak ETag of the body and answers 304 to a caller that holds it.
  res.send(atomFeedXml(feed));
}

/** Writes the parts as they come, waiting whenever the connection is behind: a 50,000-address sitemap never sits whole in memory. */
async function writeParts(out: Writable, parts: SitemapDocument["parts"]) {
  for await (const part of parts) {
    if (!out.write(part)) await once(out, "drain");
  }
  out.end();
}

async function sendSitemap(req: Request, res: Response, document: SitemapDocument) {
  res.type(SITEMAP_CONTENT_TYPE);
  res.setHeader("Cache-Control", `public, max-age=${SITEMAP_MAX_AGE_SECONDS}`);
  if (document.lastModified) res.setHeader("Last-Modified", document.lastModified.toUTCString());
  res.vary("Accept-Encoding");
  if (notModified(req, res)) return;
  if (req.method === "HEAD") return void res.end();
  // A page of 50,000 addresses is megabytes of repeated text: gzip, as it is written, is a tenth of it.
  if (new Negotiator(req).encoding(["gzip", "identity"]) !== "gzip") return writeParts(res, document.parts);
  res.setHeader("Content-Encoding", "gzip");
  const gzip = createGzip();
  gzip.pipe(res);
  await writeParts(gzip, document.parts);
}

const route = routesOf<FeedsRoutesDeps>();
const contextOf = ({ origin, productName }: FeedsRoutesDeps): FeedContext => ({ origin, productName });
const FEED = { status: 200, description: "An Atom feed (RFC 4287); 304 to a reader that holds it." } as const;
const SITEMAP = { status: 200, description: "A sitemap (sitemaps.org 0.9), gzipped as written when the caller takes gzip; 304 to a crawler that holds it." } as const;

/** The Atom feeds of new books, the sitemap and robots.txt: what feed readers and search engines read. */
export const feedsRoutes = routeGroup("", [
  route({ method: "GET", path: "/feed.xml", access: "public", summary: "The newest books, as an Atom feed", tag: "feeds", answer: FEED, errors: [] }, async ({ res }, deps) => {
    sendFeed(res, await newBooksFeed(deps.db, contextOf(deps)));
  }),
  route(
    {
      method: "GET",
      path: "/authors/:id/feed.xml",
      access: "public",
      summary: "An author's newest books, as an Atom feed",
      tag: "feeds",
      params: authorIdSchema,
      answer: FEED,
      errors: [400, 404],
    },
    async ({ params, res }, deps) => {
      sendFeed(res, await authorFeed(deps.db, contextOf(deps), params.id));
    },
  ),
  route({ method: "GET", path: "/sitemap.xml", access: "public", summary: "The sitemap index", tag: "feeds", answer: SITEMAP, errors: [] }, async ({ req, res }, { db, origin }) => {
    await sendSitemap(req, res, await sitemapIndex(db, origin));
  }),
  route({ method: "GET", path: "/sitemaps/:name", access: "public", summary: "One page of the sitemap", tag: "feeds", answer: SITEMAP, errors: [404] }, async ({ req, res }, { db, origin }) => {
    const name = parseSitemapName(req.params.name as string);
    if (!name) throw notFound("No such sitemap.");
    await sendSitemap(req, res, await sitemapDocument(db, origin, name));
  }),
  route(
    { method: "GET", path: "/robots.txt", access: "public", summary: "What crawlers may read, and where the sitemap is", tag: "feeds", answer: { status: 200, description: "robots.txt (RFC 9309)." }, errors: [] },
    ({ res }, { origin }) => {
      res.type("text/plain; charset=utf-8");
      res.setHeader("Cache-Control", `public, max-age=${SITEMAP_MAX_AGE_SECONDS}`);
      res.send(robotsTxt(origin));
    },
  ),
]);
