import { BlockList, isIP } from "node:net";
import type { Request, RequestHandler } from "express";
import { ipKeyGenerator } from "express-rate-limit";
import { logger } from "../system/logger.ts";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /**
       * The address a download is counted against (countingAddressOf), fixed with `req.ip`; undefined
       * when a trusted proxy forwarded something that is not an address: that download is not counted.
       */
      countingAddress?: string;
    }
  }
}

/**
 * Fixes `req.ip` when the request arrives. Express reads it from the socket each time it is asked,
 * and a socket that has been reset has no address any more: a download decided after the client
 * left would be logged with none and escape the per-address cap (docs/decisions/0020). Every later
 * reader (the counting rule, the abuse limits) sees the address the request came from.
 *
 * Behind a trusted proxy that address is what the proxy forwarded, which need not be one (`unknown`,
 * garbage a client wrote where TRUST_PROXY counts one hop too many). Such a request is limited by the
 * address of the proxy it came through, which it shares with every other one like it, and its download
 * is not counted: no address of the reader is known (docs/decisions/0053).
 *
 * A request whose connection is already gone when it arrives has no one to answer and no address to
 * charge it to: it goes no further.
 */
export function fixClientAddress({ proxyTrusted }: { proxyTrusted: boolean }): RequestHandler {
  let warnedNoProxy = proxyTrusted;
  let warnedNotAnAddress = false;
  return (req, _res, next) => {
    const forwarded = req.ip === undefined ? undefined : addressIn(req.ip);
    const address = forwarded ?? req.socket.remoteAddress;
    if (!address) {
      req.socket.destroy();
      return;
    }
    if (forwarded === undefined && !warnedNotAnAddress) {
      warnedNotAnAddress = true;
      logger.warn(
        { forwarded: req.ip?.slice(0, 100) },
        "A trusted proxy forwarded a client address that is not one: such requests are limited by the proxy's own address and their downloads are not counted. Check TRUST_PROXY's hop count and the proxy's X-Forwarded-For (README, Behind a proxy).",
      );
    }
    Object.defineProperty(req, "ip", { value: address, enumerable: true });
    req.countingAddress = forwarded === undefined ? undefined : countingAddressOf(forwarded);
    if (!warnedNoProxy && cameThroughLocalProxy(req)) {
      warnedNoProxy = true;
      logger.warn(
        "Requests arrive through a proxy (X-Forwarded-For from a local address) but TRUST_PROXY is not set: " +
          "every reader has the proxy's address, so the per-address download cap and abuse limits treat them as one. See README, Behind a proxy.",
      );
    }
    next();
  };
}

/** An address with a port, as some proxies forward it: 203.0.113.9:51234, [2001:db8::1]:443, or [2001:db8::1] alone. */
const WITH_PORT = /^(?:(?<v4>[\d.]{7,15})|\[(?<v6>[\da-fA-F:.]{2,45})\])(?::\d{1,5})?$/;

/** The IP address a forwarded value names, without its port; undefined for anything else (`unknown`, a name, garbage). */
export function addressIn(value: string): string | undefined {
  if (isIP(value) !== 0) return value;
  const { v4, v6 } = WITH_PORT.exec(value)?.groups ?? {};
  if (v4 !== undefined && isIP(v4) === 4) return v4;
  if (v6 !== undefined && isIP(v6) === 6) return v6;
  return undefined;
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
