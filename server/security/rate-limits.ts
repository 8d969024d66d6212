import { type RequestHandler, Router } from "express";
import { type Options, ipKeyGenerator, rateLimit } from "express-rate-limit";
import type { RateLimitSettings } from "../config.ts";
import type { Db } from "../db/client.ts";
import { tooManyRequests } from "../http/errors.ts";
import { DatabaseRateLimitStore } from "./rate-limit-store.ts";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** The abuse limits of OWASP ASVS 6.3 and of the reward rules, one middleware list per guarded call. */
export interface AbuseLimits {
  signIn: RequestHandler;
  register: RequestHandler;
  upload: RequestHandler;
  download: RequestHandler;
  rate: RequestHandler;
}

const clientAddress: Options["keyGenerator"] = (req) => ipKeyGenerator(req.ip ?? "");
const signedInAccount: Options["keyGenerator"] = (req) => req.user!.id;
// The identifier as typed, folded the way accounts are looked up, so "Ana" and "ana " share a count.
const signInIdentifier: Options["keyGenerator"] = (req) =>
  String((req.body as { username?: unknown }).username ?? "").normalize("NFKC").trim().toLowerCase();

interface LimitSpec {
  name: string;
  windowMs: number;
  limit: number;
  keyGenerator: Options["keyGenerator"];
  message: string;
  /** Sign-in counts failures only, so a person who signs in often is never locked out. */
  countFailuresOnly?: boolean;
}

export function createAbuseLimits(db: Db, settings: RateLimitSettings): AbuseLimits {
  const limiter = ({ name, windowMs, limit, keyGenerator, message, countFailuresOnly = false }: LimitSpec): RequestHandler =>
    rateLimit({
      windowMs,
      limit,
      keyGenerator,
      store: new DatabaseRateLimitStore(db, `${name}:`),
      standardHeaders: "draft-7",
      legacyHeaders: false,
      skipSuccessfulRequests: countFailuresOnly,
      handler: (_req, res, next) => {
        const minutes = Math.max(1, Math.ceil(Number(res.getHeader("Retry-After") ?? 60) / 60));
        next(tooManyRequests(`${message} Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`));
      },
    });

  return {
    signIn: Router().use(
      limiter({
        name: "sign-in-ip",
        windowMs: 15 * MINUTE_MS,
        limit: settings.signInPerIp,
        keyGenerator: clientAddress,
        message: "Too many failed sign-ins from your network.",
        countFailuresOnly: true,
      }),
      limiter({
        name: "sign-in-account",
        windowMs: 15 * MINUTE_MS,
        limit: settings.signInPerAccount,
        keyGenerator: signInIdentifier,
        message: "Too many failed sign-ins for this account.",
        countFailuresOnly: true,
      }),
    ),
    register: limiter({ name: "register-ip", windowMs: HOUR_MS, limit: settings.registerPerIp, keyGenerator: clientAddress, message: "Too many new accounts from your network." }),
    upload: limiter({ name: "upload-account", windowMs: HOUR_MS, limit: settings.uploadsPerAccount, keyGenerator: signedInAccount, message: "Too many uploads." }),
    download: limiter({ name: "download-account", windowMs: HOUR_MS, limit: settings.downloadsPerAccount, keyGenerator: signedInAccount, message: "Too many downloads." }),
    rate: limiter({ name: "rate-account", windowMs: HOUR_MS, limit: settings.ratingsPerAccount, keyGenerator: signedInAccount, message: "Too many ratings." }),
  };
}
