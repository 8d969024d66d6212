import type { Request, RequestHandler } from "express";
import { DIGEST_UNSUBSCRIBE_PATH } from "../../shared/follows.ts";
import { crossSiteRequest } from "../http/errors.ts";

const READ_ONLY_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Compared with the request's own Host, not the configured site (docs/decisions/0053): in a browser,
 * where forgery happens, both headers are the browser's and name the site the page is on; only a
 * client that is not a browser can make them disagree, and it needs no forgery, having no victim's
 * cookie to ride on. Comparing with PUBLIC_URL instead would refuse nothing more and would lock out
 * old browsers reaching the site under a second name.
 */
function isOwnOrigin(origin: string, req: Request): boolean {
  if (!URL.canParse(origin)) return false;
  const { protocol, host } = new URL(origin);
  return host === req.host && protocol === `${req.protocol}:`;
}

/**
 * Cross-site request forgery defence (OWASP ASVS 3.5): a change sent by a page of another site is
 * refused, whatever its content type. Browsers say where a request comes from in `Sec-Fetch-Site`,
 * and older ones in `Origin`, which every browser sends with a cross-origin POST, PUT or DELETE.
 * A request with neither did not come from a web page (curl, a server), so no cookie rode along
 * against its sender's will. The session cookie's SameSite=Lax is the second line.
 */
export const refuseCrossSiteChanges: RequestHandler = (req, _res, next) => {
  if (READ_ONLY_METHODS.has(req.method)) return next();
  // A digest's one-click unsubscribe is POSTed by mail programs from wherever they run (RFC 8058): it
  // carries no session, only the link's own signed token, and turns one digest off, nothing else
  // (docs/decisions/0101). Exactly this call is let through.
  if (req.method === "POST" && req.path === DIGEST_UNSUBSCRIBE_PATH) return next();
  const fetchSite = req.get("sec-fetch-site");
  if (fetchSite !== undefined) return next(fetchSite === "same-origin" || fetchSite === "none" ? undefined : crossSiteRequest());
  const origin = req.get("origin");
  next(origin === undefined || isOwnOrigin(origin, req) ? undefined : crossSiteRequest());
};
