import type { RequestHandler } from "express";
import helmet from "helmet";

/**
 * Response headers that close whole classes of attack (OWASP ASVS 3.4): a Content-Security-Policy
 * allowing only the app's own scripts, styles, images and API (the built app has no inline script),
 * no framing by any site, no MIME sniffing, no referrer beyond the origin.
 * Vite's development server injects inline scripts and styles for hot reload, so development
 * gets every header but the policy.
 */
export function securityHeaders({ isDevelopment, isProduction }: { isDevelopment: boolean; isProduction: boolean }): RequestHandler {
  return helmet({
    contentSecurityPolicy: isDevelopment
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
