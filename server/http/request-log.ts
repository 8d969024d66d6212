import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import { routePatternOf } from "./access.ts";

/**
 * The fields of a request's log line, picked one by one: no header, cookie, query string or body
 * ever reaches the log (docs/decisions/0040). A route the table names is logged by its pattern; what
 * no route matched (the browser app's pages, a miss) by its path without the query.
 */
function requestFields(req: IncomingMessage, res: ServerResponse, durationMs: number) {
  const route = routePatternOf(res as Response);
  // A connection closed before the answer ended (the client left, or the idle timeout closed it) has
  // no status: the 200 Node starts every response with was never sent (docs/decisions/0054).
  const answer = res.writableEnded ? { status: res.statusCode } : { status: null, aborted: true };
  return { method: req.method, ...(route ? { route } : { path: (req as Request).path }), ...answer, durationMs };
}

/** One JSON line per finished request, with the id the client was given (server/http/request-id.ts). */
export function requestLog(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (_req, res) => String((res as Response).locals.requestId),
    // The request and response objects themselves are never bound: only the fields above are written.
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: "requestId", responseTime: "durationMs" },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : res.writableEnded ? "info" : "warn"),
    customSuccessObject: (req, res, value: { durationMs: number }) => requestFields(req, res, value.durationMs),
    // The error itself is logged, with its stack, by the error handler; an aborted request says so here.
    customErrorObject: (req, res, error, value: { durationMs: number }) => ({ ...requestFields(req, res, value.durationMs), error: error.message }),
    customSuccessMessage: (_req, res) => (res.writableEnded ? "request completed" : "request aborted"),
    customErrorMessage: () => "request failed",
  }) as RequestHandler;
}
