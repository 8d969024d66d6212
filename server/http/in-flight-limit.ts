import type { RequestHandler } from "express";
import { serverBusy } from "./errors.ts";

/**
 * Serves at most `max` of these requests at once and refuses the next at once with 503 server_busy,
 * before they cost anything. A flood of work that waits in a queue further on (password hashes)
 * would otherwise also queue up everything done before it, until requests waited past the server's
 * idle timeout and were closed unanswered (docs/decisions/0054).
 */
export function inFlightLimit(max: number, message: string): RequestHandler {
  let inFlight = 0;
  return (_req, res, next) => {
    if (inFlight >= max) return next(serverBusy(message));
    inFlight += 1;
    // "close" comes once for every response, answered or not: the slot is always given back.
    res.once("close", () => {
      inFlight -= 1;
    });
    next();
  };
}
