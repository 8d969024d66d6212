import compression from "compression";
import type { RequestHandler } from "express";

/**
 * API answers compressed for the clients that accept it (docs/decisions/0011). A request without
 * Accept-Encoding is never compressed, but the middleware would still hook its response to find
 * that out when the headers go: such a request skips it, and its answer only gets the `Vary` that
 * tells caches the answer depends on that header (docs/performance.md).
 */
export function compressAnswers(): RequestHandler {
  const compress = compression();
  return (req, res, next) => {
    if (req.headers["accept-encoding"]) return compress(req, res, next);
    res.vary("Accept-Encoding");
    next();
  };
}
