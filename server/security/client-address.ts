import { BlockList, isIP } from "node:net";
import type { Request, RequestHandler } from "express";
import { ipKeyGenerator } from "express-rate-limit";
import { logger } from "../system/logger.ts";

/**
 * Fixes `req.ip` when the request arrives. Express reads it from the socket each time it is asked,
 * and a socket that has been reset has no address any more: a download decided after the client
 * left would be logged with none and escape the per-address cap (docs/decisions/0020). Every later
 * reader (the counting rule, the abuse limits) sees the address the request came from.
 *
 * A request whose connection is already gone when it arrives has no one to answer and no address to
 * charge it to: it goes no further.
 */
export function fixClientAddress({ proxyTrusted }: { proxyTrusted: boolean }): RequestHandler {
  let warned = proxyTrusted;
  return (req, _res, next) => {
    const address = req.ip;
    if (!address) {
      req.socket.destroy();
      return;
    }
    Object.defineProperty(req, "ip", { value: address, enumerable: true });
    if (!warned && cameThroughLocalProxy(req)) {
      warned = true;
      logger.warn(
        "Requests arrive through a proxy (X-Forwarded-For from a local address) but TRUST_PROXY is not set: " +
          "every reader has the proxy's address, so the per-address download cap and abuse limits treat them as one. See README, Behind a proxy.",
      );
    }
    next();
  };
}

const LOCAL_NETWORKS = new BlockList();
LOCAL_NETWORKS.addSubnet("127.0.0.0", 8, "ipv4");
LOCAL_NETWORKS.addSubnet("10.0.0.0", 8, "ipv4");
LOCAL_NETWORKS.addSubnet("172.16.0.0", 12, "ipv4");
LOCAL_NETWORKS.addSubnet("192.168.0.0", 16, "ipv4");
LOCAL_NETWORKS.addAddress("::1", "ipv6");
LOCAL_NETWORKS.addSubnet("fc00::", 7, "ipv6");

/** A proxy in front is on this machine or its private network; a stray header from the internet is no sign of one. */
function cameThroughLocalProxy(req: Request): boolean {
  if (!req.headers["x-forwarded-for"]) return false;
  // An IPv4 client of a dual-stack socket shows as ::ffff:a.b.c.d; the key generator unwraps it.
  const peer = ipKeyGenerator(req.socket.remoteAddress ?? "", false);
  const family = isIP(peer);
  return family !== 0 && LOCAL_NETWORKS.check(peer, family === 4 ? "ipv4" : "ipv6");
}

/** The IPv6 prefix one subscriber gets (RFC 6177): a whole /64 is one address for the counting rule. */
const IPV6_SUBSCRIBER_PREFIX = 64;

/**
 * The address a download is counted against: an IPv4 address as it is (an IPv4-mapped IPv6 address
 * as its IPv4 form), an IPv6 address as its /64 network, so rotating through one's own /64 does not
 * multiply the per-address cap (docs/decisions/0020).
 */
export function countingAddressOf(ip: string): string {
  return ipKeyGenerator(ip, IPV6_SUBSCRIBER_PREFIX);
}

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** One entry of `TRUST_PROXY`'s list: a name Express knows, an address, or an address/prefix. */
export function isTrustedProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
