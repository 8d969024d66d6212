import type { RequestHandler } from "express";
import helmet from "helmet";

/**
 * Response headers that close whole classes of attack (OWASP ASVS 3.4): a Content-Security-Policy
 * allowing only the app's own scripts, styles, images and API (the built app has no inline script),
 * no framing by any site, no MIME sniffing, no referrer beyond the origin.
 * Vite's hot reload (`npm run dev`) injects inline scripts and styles, so it alone gets every header
 * but the policy: the built app, whatever NODE_ENV says, is served under it.
 */
export function securityHeaders({ hotReload, isProduction }: { hotReload: boolean; isProduction: boolean }): RequestHandler {
  return helmet({
    contentSecurityPolicy: hotReload
      ? false
      : {
          useDefaults: false,
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: ["'self'"],
            styleSrc: ["'self'"],
            imgSrc: ["'self'", "data:", "blob:"],
            fontSrc: ["'self'"],
            connectSrc: ["'self'"],
            objectSrc: ["'none'"],
            baseUri: ["'self'"],
            formAction: ["'self'"],
            frameAncestors: ["'none'"],
            ...(isProduction ? { upgradeInsecureRequests: [] } : {}),
          },
        },
    frameguard: { action: "deny" },
    // Strict-Transport-Security only means something over HTTPS, which production is behind.
    strictTransportSecurity: isProduction,
    crossOriginEmbedderPolicy: false,
  });
}
