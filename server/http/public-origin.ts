import type { Request } from "express";

/**
 * The origin absolute links are made from (og:image, feeds, sitemaps, OPDS): PUBLIC_URL when set,
 * which a production deployment should do, else the origin the request came to. Without PUBLIC_URL
 * the Host header decides, so behind a proxy it is only right with TRUST_PROXY set (the protocol
 * then comes from X-Forwarded-Proto) and the proxy passing the Host on.
 */
export function publicOriginOf(req: Request, configured: string | undefined): string {
  return configured ?? `${req.protocol}://${req.get("host") ?? "localhost"}`;
}
