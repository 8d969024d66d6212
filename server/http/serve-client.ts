import { join } from "node:path";
import express, { type RequestHandler } from "express";

/**
 * The built single-page app: hashed assets cached for a year, index.html always revalidated,
 * and every other GET answered with index.html so the client router decides (its 404 screen included).
 */
export function serveBuiltClient(folder: string): RequestHandler[] {
  const indexFile = join(folder, "index.html");
  const assets = express.static(folder, {
    index: false,
    setHeaders(res, path) {
      res.setHeader("Cache-Control", path.includes("/assets/") ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });
  const spaFallback: RequestHandler = (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    res.setHeader("Cache-Control", "no-cache");
    res.sendFile(indexFile);
  };
  return [assets, spaFallback];
}
