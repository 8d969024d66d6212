import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import { ApiError } from "@/lib/api";
import { errorText } from "@/lib/error-text";
import { isUnauthorizedError } from "@/lib/login-redirect";

/** Where a form keeps an error that belongs to no single field; the forms read it as `errors.root.server`. */
const FORM_ERROR = "root.server";

/**
 * Shows a failed submission in the form, and only there (docs/product.md#errors): each server `fields`
 * entry under its own field (the value is a translation key), else one message for the whole form.
 * A lost session shows nothing here: it has its own toast and the way back to the login screen
 * (query-client.ts).
 */
export function showServerErrors<T extends FieldValues>(error: unknown, form: Pick<UseFormReturn<T>, "getValues" | "setError">): void {
  if (isUnauthorizedError(error)) return;
  const formFields = form.getValues();
  const serverFields = error instanceof ApiError ? (error.body?.fields ?? {}) : {};
  const fieldErrors = Object.entries(serverFields).filter(([name]) => name in formFields);

  for (const [name, messageKey] of fieldErrors) {
    form.setError(name as Path<T>, { type: "server", message: messageKey }, { shouldFocus: true });
  }
  if (fieldErrors.length === 0) form.setError(FORM_ERROR, { type: "server", message: errorText(error) });
}
