import type { Config } from "../config.ts";

/** Addresses that listen on every interface: no one can reach the server at them (0.0.0.0 is not a destination). */
const EVERY_INTERFACE = new Set(["0.0.0.0", "::", "[::]"]);

/**
 * The origin a server listening on `host`:`port` is reached at from this machine: localhost when it
 * listens on every interface, else the address it listens on (an IPv6 address in brackets).
 */
export function listeningOrigin(host: string, port: number): string {
  if (EVERY_INTERFACE.has(host)) return `http://localhost:${port}`;
  return new URL(`http://${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}:${port}`).origin;
}

/**
 * The one origin every absolute link starts with and every wallet proof must name (docs/decisions/0053):
 * mail links (password reset, e-mail verification, payment notices), feeds, sitemaps, robots.txt, OPDS,
 * page heads. PUBLIC_URL, which production requires; without it (development, tests) the origin the
 * server listens on. Never a request's Host or X-Forwarded-Host: whoever sends the request writes them,
 * and a reset link mailed to `evil.example` hands its token to evil.example.
 */
export function siteOriginOf(config: Pick<Config, "publicOrigin" | "host">, port: number): string {
  return config.publicOrigin ?? listeningOrigin(config.host, port);
}
