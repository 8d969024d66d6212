import i18n from "@/lib/i18n";
import { ApiError } from "@/lib/api";

/**
 * The one sentence a person sees for a failure (docs/product.md#errors): the translation of
 * `errors.<code>` or `screenErrors.<code>` when the locale has one, else the server's own message, else the translation of
 * `fallbackKey` (network failures, and answers without Plume's JSON error, such as a proxy's page);
 * followed by the server's log reference when it gave one. Never the status code: the ApiError's own
 * "<status>: <body>" message is for logs and details.
 */
/**
 * Codes that only the screens past the first ones meet (an upload, the reader, the settings) keep their
 * texts with those screens', out of the first visit's script (docs/decisions/0016).
 */
const ERROR_SECTIONS = ["errors", "screenErrors"] as const;

/** A wait in the reader's language: minutes up to two hours, then hours ("45 minutes", "3 horas"). */
function waitText(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  const [amount, unit] = minutes <= 120 ? [minutes, "minute"] : [Math.ceil(minutes / 60), "hour"];
  return new Intl.NumberFormat(i18n.language, { style: "unit", unit, unitDisplay: "long" }).format(amount);
}

export function errorText(error: unknown, fallbackKey = "errors.unexpected"): string {
  if (!(error instanceof ApiError) || !error.body) return i18n.t(fallbackKey);
  const code = error.body.code;
  const key = ERROR_SECTIONS.map((section) => `${section}.${code}`).find((candidate) => i18n.exists(candidate));
  // A limit says how long it holds: "wait a moment" for an hour's window would be untrue.
  const message =
    code === "rate_limited" && error.retryAfterSeconds !== null
      ? i18n.t("errors.rate_limited_wait", { wait: waitText(error.retryAfterSeconds) })
      : key
        ? i18n.t(key)
        : error.body.message;
  // An unexpected error carries the id under which the server logged it, for the reader to quote.
  const { requestId } = error.body;
  return requestId ? i18n.t("errors.withReference", { message, requestId }) : message;
}
