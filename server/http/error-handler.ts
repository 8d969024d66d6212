import type { IncomingMessage } from "node:http";
import type { ErrorRequestHandler, Request, RequestHandler } from "express";
import type { ApiErrorBody } from "../../shared/api-error.ts";
import { logger } from "../system/logger.ts";
import { routePatternOf } from "./access.ts";
import { HttpError, invalidJson, notFound, payloadTooLarge } from "./errors.ts";

/** body-parser signals its refusals with a `type` and a status; they are the client's fault, not ours. */
function fromBodyParser(error: { type?: string; status?: number }): HttpError | undefined {
  if (error.type === "entity.parse.failed") return invalidJson();
  if (error.type === "entity.too.large") return payloadTooLarge();
  if (typeof error.status === "number" && error.status >= 400 && error.status < 500) {
    return new HttpError(error.status, "bad_request", "The request could not be read.");
  }
  return undefined;
}

/** The 404 of a path no route answers: the same for an unknown path and for a route that is off (no METRICS_TOKEN). */
export const apiMiss = (req: Request) => notFound(`No API route for ${req.method} ${req.path}.`);

export const apiNotFound: RequestHandler = (req, _res, next) => next(apiMiss(req));

/** How long a refused request's body may keep arriving before the answer goes all the same. */
const UNREAD_BODY_WAIT_MS = 10_000;

/**
 * Resolves once the client has sent all of its request. A request refused before its body was read
 * (an upload without a session, or over a limit) is still arriving; answered at once, a client that
 * asked to close the connection after it would have it closed under the upload it is still sending,
 * and would see a broken pipe instead of the answer. Its bytes are read and dropped meanwhile.
 */
function requestReceived(req: IncomingMessage): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, UNREAD_BODY_WAIT_MS);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    req.once("end", done).once("close", done).once("error", done).resume();
  });
}

/** What Express reports when the client left while a file was on its way (a page changed as it loaded). */
const clientLeft = (error: unknown) => (error as { code?: unknown } | null)?.code === "ECONNABORTED";

export const errorHandler: ErrorRequestHandler = (error, req, res, next) => {
  // Nobody is left to answer, and nothing went wrong on this side: not an error to log.
  if (clientLeft(error)) return;
  if (res.headersSent) return next(error);
  const known = error instanceof HttpError ? error : fromBodyParser(error ?? {});
  if (known) {
    const body: ApiErrorBody = { message: known.message, code: known.code };
    if (known.fields) body.fields = known.fields;
    if (known.retryAfterSeconds !== undefined) res.setHeader("Retry-After", String(known.retryAfterSeconds));
    // Too large: the rest of the body is exactly what must not be read; the connection closes under it.
    const ready = known.status === 413 ? Promise.resolve() : requestReceived(req);
    void ready.then(() => {
      if (!res.headersSent) res.status(known.status).json(body);
    });
    return;
  }
  const requestId = String(res.locals.requestId ?? "");
  // The route's pattern, not the URL: a query string can carry a token.
  logger.error({ err: error, requestId, method: req.method, route: routePatternOf(res) ?? req.path }, "unexpected error");
  const body: ApiErrorBody = {
    message: `Something went wrong on our side. Quote ${requestId} if you contact us.`,
    code: "internal_error",
    requestId,
  };
  res.status(500).json(body);
};
