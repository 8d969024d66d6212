import { readdirSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { allowInlineStyles } from "../security/security-headers.ts";
import { type PageHead, appPages } from "./app-page.ts";
import { compressAnswers } from "./compress-answers.ts";

/** The siblings the build writes beside each text file (scripts/vite-precompress.ts), best first. */
const ENCODINGS = [
  { encoding: "br", suffix: ".br" },
  { encoding: "gzip", suffix: ".gz" },
] as const;
type Encoding = (typeof ENCODINGS)[number]["encoding"];

/** Every built file that has precompressed siblings, with their encodings; the folder never changes while served. */
function findPrecompressed(folder: string): Map<string, Encoding[]> {
  const files = new Set(readdirSync(folder, { recursive: true, encoding: "utf8" }).map((name) => join(folder, name)));
  const found = new Map<string, Encoding[]>();
  for (const file of files) {
    const encodings = ENCODINGS.filter(({ suffix }) => files.has(`${file}${suffix}`)).map(({ encoding }) => encoding);
    if (encodings.length > 0) found.set(file, encodings);
  }
  return found;
}

/**
 * The built single-page app: hashed assets cached for a year, index.html always revalidated,
 * and every other GET answered with the app's page so the client router decides what it shows; a page
 * whose head was made before (server/pages/page-heads.ts, `res.locals.pageHead`: a book's, an author's,
 * or the 404 screen's for a path no screen shows) gets that head and its status. A file missing from
 * /assets/ is no page: it goes on to the 404 after the app. Assets go out precompressed (brotli, else
 * gzip) to clients that accept it; the page, made per request once it carries a head of its own (a book's
 * is some 4 KB), is compressed like an API answer (docs/decisions/0011, 0072).
 */
export function serveBuiltClient(folder: string): RequestHandler[] {
  const { pageFor, styleSources } = appPages(folder);
  const precompressed = findPrecompressed(folder);
  const cacheControlOf = (file: string) =>
    relative(folder, file).startsWith(`assets${sep}`) ? "public, max-age=31536000, immutable" : "no-cache";

  /**
   * The first of a file's encodings (smallest first) that the client accepts at all: browsers list gzip
   * before br at the same weight, so their order is not asked. Either way caches learn that the answer varies.
   */
  const negotiate = (req: Request, res: Response, file: string): Encoding | undefined => {
    const encodings = precompressed.get(file);
    if (!encodings) return undefined;
    res.vary("Accept-Encoding");
    return encodings.find((encoding) => req.acceptsEncodings(encoding));
  };

  const sendEncoded = (res: Response, next: NextFunction, file: string, encoding: Encoding) => {
    const { suffix } = ENCODINGS.find((entry) => entry.encoding === encoding)!;
    res.setHeader("Cache-Control", cacheControlOf(file));
    res.setHeader("Content-Encoding", encoding);
    res.type(extname(file));
    // Relative to its root, or send() refuses any file under a folder whose name starts with a dot (~/.local/…).
    res.sendFile(`${relative(folder, file)}${suffix}`, { root: folder }, (error) => error && next(error));
  };

  const readsOnly = (req: Request) => req.method === "GET" || req.method === "HEAD";

  const precompressedAssets: RequestHandler = (req, res, next) => {
    const file = join(folder, req.path);
    const encoding = readsOnly(req) ? negotiate(req, res, file) : undefined;
    if (encoding) sendEncoded(res, next, file, encoding);
    else next();
  };
  const assets = express.static(folder, {
    index: false,
    setHeaders(res, file) {
      res.setHeader("Cache-Control", cacheControlOf(file));
    },
  });
  const spaFallback: RequestHandler = (req, res, next) => {
    // A script or style the build does not have (an old build's chunk, say) wants a 404, not a page of HTML.
    if (!readsOnly(req) || req.path.startsWith("/assets/")) return next();
    res.setHeader("Cache-Control", "no-cache");
    res.vary("Accept-Language").vary("Cookie");
    const head = res.locals.pageHead as PageHead | undefined;
    if (head) res.status(head.status);
    allowInlineStyles(res, styleSources);
    res.type("html").send(pageFor(req, head));
  };
  return [precompressedAssets, assets, compressAnswers(), spaFallback];
}
