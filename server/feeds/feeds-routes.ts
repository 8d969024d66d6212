import { once } from "node:events";
import type { Writable } from "node:stream";
import { createGzip } from "node:zlib";
import type { Request, Response } from "express";
import Negotiator from "negotiator";
import { authorIdSchema } from "../../shared/book-schemas.ts";
import type { Db } from "../db/client.ts";
import { GuardedRouter } from "../http/access.ts";
import { notFound } from "../http/errors.ts";
import { validate } from "../http/validate.ts";
import { ATOM_CONTENT_TYPE, type AtomFeed, atomFeedXml } from "./atom.ts";
import { type FeedContext, authorFeed, newBooksFeed } from "./feeds-service.ts";
import { robotsTxt } from "./robots.ts";
import { SITEMAP_CONTENT_TYPE } from "./sitemap.ts";
import { type SitemapDocument, parseSitemapName, sitemapDocument, sitemapIndex } from "./sitemap-service.ts";

interface FeedsRoutesDeps {
  db: Db;
  adminEmail: string | undefined;
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

/** The Atom feeds of new books, the sitemap and robots.txt: what feed readers and search engines read. */
export function feedsRoutes({ db, adminEmail, origin, productName }: FeedsRoutesDeps): GuardedRouter {
  const context: FeedContext = { origin, productName };
  return new GuardedRouter("", adminEmail)
    .get("/feed.xml", async (req, res) => {
      sendFeed(res, await newBooksFeed(db, context));
    })
    .get("/authors/:id/feed.xml", validate("params", authorIdSchema), async (req, res) => {
      sendFeed(res, await authorFeed(db, context, (res.locals.params as { id: string }).id));
    })
    .get("/sitemap.xml", async (req, res) => {
      await sendSitemap(req, res, await sitemapIndex(db, origin));
    })
    .get("/sitemaps/:name", async (req, res) => {
      const name = parseSitemapName(req.params.name as string);
      if (!name) throw notFound("No such sitemap.");
      await sendSitemap(req, res, await sitemapDocument(db, origin, name));
    })
    .get("/robots.txt", (_req, res) => {
      res.type("text/plain; charset=utf-8");
      res.setHeader("Cache-Control", `public, max-age=${SITEMAP_MAX_AGE_SECONDS}`);
      res.send(robotsTxt(origin));
    });
}
