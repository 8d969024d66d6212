import i18n from "@/i18n";
import { ApiError } from "@/lib/api";

/**
 * The one sentence a person sees for a failure (docs/product.md#errors): the translation of
 * `errors.<code>` when the locale has one, else the server's own message, else the translation of
 * `fallbackKey` (network failures, and answers without Plume's JSON error, such as a proxy's page);
 * followed by the server's log reference when it gave one. Never the status code: the ApiError's own
 * "<status>: <body>" message is for logs and details.
 */
export function errorText(error: unknown, fallbackKey = "errors.unexpected"): string {
  if (!(error instanceof ApiError) || !error.body) return i18n.t(fallbackKey);
  const key = `errors.${error.body.code}`;
  const message = i18n.exists(key) ? i18n.t(key) : error.body.message;
  // An unexpected error carries the id under which the server logged it, for the reader to quote.
  const { requestId } = error.body;
  return requestId ? i18n.t("errors.withReference", { message, requestId }) : message;
}
