import i18n from "@/i18n";
import { ApiError } from "@/lib/api";

/**
 * A sentence for the reader: the translation of `errors.<code>` when the locale has one,
 * else the server's own message, else the translation of `fallbackKey` (network failures and the like);
 * followed by the server's log reference when it gave one.
 */
export function errorText(error: unknown, fallbackKey = "errors.unexpected"): string {
  if (!(error instanceof ApiError)) return i18n.t(fallbackKey);
  if (!error.body) return error.message;
  const key = `errors.${error.body.code}`;
  const message = i18n.exists(key) ? i18n.t(key) : error.body.message;
  // An unexpected error carries the id under which the server logged it, for the reader to quote.
  const { requestId } = error.body;
  return requestId ? i18n.t("errors.withReference", { message, requestId }) : message;
}

/** The "<status>: <text>" for a failed call, with the readable text instead of the raw body (docs/product.md#errors). */
export function errorTextWithStatus(error: unknown): string {
  const text = errorText(error);
  return error instanceof ApiError ? `${error.status}: ${text}` : text;
}
