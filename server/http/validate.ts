import type { z } from "zod";
import { validationFailed } from "./errors.ts";
import { englishMessage } from "./messages.ts";

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
