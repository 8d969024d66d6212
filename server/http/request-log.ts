import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { routePatternOf } from "./access.ts";

/**
 * The fields of a request's log line, picked one by one: no header, cookie, query string or body
 * ever reaches the log (docs/decisions/0040). A route the table names is logged by its pattern; what
 * no route matched (the browser app's pages, a miss) by its path without the query.
 */
function requestFields(req: Request, res: Response, durationMs: number) {
  const route = routePatternOf(res);
  // A connection closed before the answer ended (the client left, or the idle timeout closed it) has
  // no status: the 200 Node starts every response with was never sent (docs/decisions/0054).
  const answer = res.writableEnded ? { status: res.statusCode } : { status: null, aborted: true };
  return { requestId: res.locals.requestId as string, method: req.method, ...(route ? { route } : { path: req.path }), ...answer, durationMs };
}

/**
 * One JSON line per finished request, with the id the client was given (server/http/request-id.ts),
 * written once the response finishes or its connection closes. The line pino-http wrote, without its
 * per-request work nothing read: two child loggers and the request serialised into one of them, about
 * a tenth of a catalog page's CPU (docs/decisions/0078).
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = Date.now();
    const done = (error?: Error) => {
      res.off("finish", done).off("close", done).off("error", done);
      const fields = requestFields(req, res, Date.now() - started);
      // The error itself is logged, with its stack, by the error handler; a failed request says so here.
      if (error || res.statusCode >= 500) logger.error({ ...fields, error: (error ?? new Error(`failed with status code ${res.statusCode}`)).message }, "request failed");
      else if (res.writableEnded) logger.info(fields, "request completed");
      else logger.warn(fields, "request aborted");
    };
    res.on("finish", done).on("close", done).on("error", done);
    next();
  };
}
