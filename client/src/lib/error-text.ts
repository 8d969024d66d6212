import i18n from "@/i18n";
import { ApiError } from "@/lib/api";

/**
 * A sentence for the reader: the translation of `errors.<code>` when the locale has one,
 * else the server's own message, else the translation of `fallbackKey` (network failures and the like).
 */
export function errorText(error: unknown, fallbackKey = "errors.unexpected"): string {
  if (!(error instanceof ApiError)) return i18n.t(fallbackKey);
  if (!error.body) return error.message;
  const key = `errors.${error.body.code}`;
  return i18n.exists(key) ? i18n.t(key) : error.body.message;
}

/** The spec's "<status>: <text>" for a failed call, with the readable text instead of the raw body (spec §8). */
export function errorTextWithStatus(error: unknown): string {
  const text = errorText(error);
  return error instanceof ApiError ? `${error.status}: ${text}` : text;
}
