import type { RequestHandler } from "express";
import type { z } from "zod";
import { validationFailed } from "./errors.ts";
import { englishMessage } from "./messages.ts";

type Source = "body" | "query" | "params";

/** Turns zod issues into the API's field map (field → translation key) and one readable sentence. */
export function toValidationError(error: z.ZodError) {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? issue.path.join(".") : "body";
    // zod's own messages (wrong type, unknown key) are English sentences, not keys: keep a generic key for those.
    fields[field] ??= issue.message.includes(".") && !issue.message.includes(" ") ? issue.message : "validation.invalid";
  }
  const sentence = Object.entries(fields)
    .map(([field, key]) => `${field}: ${englishMessage(key)}`)
    .join("; ");
  return validationFailed(`Invalid request. ${sentence}`, fields);
}

/**
 * Parses a part of the request with a shared zod schema and keeps the parsed value
 * (trimmed, defaults applied) in `res.locals[source]`, so handlers read only clean input.
 * The body is also replaced, for middleware that reads `req.body` itself (passport-local).
 */
export function validate<S extends z.ZodType>(source: Source, schema: S): RequestHandler {
  return (req, res, next) => {
    const input = source === "body" && req.body === undefined ? {} : req[source];
    const result = schema.safeParse(input);
    if (!result.success) return next(toValidationError(result.error));
    res.locals[source] = result.data;
    if (source === "body") req.body = result.data;
    next();
  };
}
