import type { RequestHandler, Response } from "express";
import helmet from "helmet";

/**
 * Response headers that close whole classes of attack (OWASP ASVS 3.4): a Content-Security-Policy
 * allowing only the app's own scripts, styles, images and API (the built app has no inline script),
 * no framing by any site, no MIME sniffing, no referrer beyond the origin. The one other origin the page
 * may connect to is WalletConnect's relay, and only where the operator turned WalletConnect on (docs/decisions/0109).
 * Vite's hot reload (`npm run dev`) injects inline scripts and styles, so it alone gets every header
 * but the policy: the built app, whatever NODE_ENV says, is served under it.
 */
export function securityHeaders({
  hotReload,
  isProduction,
  walletConnectRelay,
}: {
  hotReload: boolean;
  isProduction: boolean;
  /** WALLETCONNECT_RELAY_URL when WalletConnect is on. */
  walletConnectRelay?: string | undefined;
}): RequestHandler {
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
            connectSrc: ["'self'", ...(walletConnectRelay ? [new URL(walletConnectRelay).origin] : [])],
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

const POLICY_HEADER = "Content-Security-Policy";

/**
 * Lets one answer's page apply inline stylesheets, each named by its hash ('sha256-…'): the app's page
 * carries its stylesheet inline (server/http/app-page.ts, docs/decisions/0080). Every other answer keeps
 * style-src 'self' alone, and an answer sent without a policy (Vite's hot reload) gets none.
 */
export function allowInlineStyles(res: Response, sources: readonly string[]): void {
  const policy = res.getHeader(POLICY_HEADER);
  if (typeof policy !== "string" || sources.length === 0) return;
  res.setHeader(POLICY_HEADER, policy.replace(/(^|;)style-src ([^;]*)/, `$1style-src $2 ${sources.join(" ")}`));
}
