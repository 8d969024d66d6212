import type { ErrorRequestHandler, RequestHandler } from "express";
import type { ApiErrorBody } from "../../shared/api-error.ts";
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

export const apiNotFound: RequestHandler = (req, _res, next) =>
  next(notFound(`No API route for ${req.method} ${req.path}.`));

export const errorHandler: ErrorRequestHandler = (error, req, res, next) => {
  if (res.headersSent) return next(error);
  const known = error instanceof HttpError ? error : fromBodyParser(error ?? {});
  if (known) {
    const body: ApiErrorBody = { message: known.message, code: known.code };
    if (known.fields) body.fields = known.fields;
    res.status(known.status).json(body);
    return;
  }
  const requestId = String(res.locals.requestId ?? "");
  console.error(`[error] ${requestId} ${req.method} ${req.originalUrl}`, error);
  const body: ApiErrorBody = {
    message: `Something went wrong on our side. Quote ${requestId} if you contact us.`,
    code: "internal_error",
    requestId,
  };
  res.status(500).json(body);
};
