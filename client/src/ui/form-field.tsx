import { useId, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** What the control inside a FormField spreads on itself, so its label, hint and error belong to it. */
export interface FieldControlProps {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

export interface FormFieldProps {
  label: string;
  /** Translation key of the field's error: a shared zod message or a server `fields` entry. */
  errorKey?: string;
  hint?: string;
  /** Marks the label "(optional)". */
  optional?: boolean;
  className?: string;
}

/** Shared look of inputs, selects and text areas. */
export const fieldControlClassName =
  "mt-1 block w-full rounded-md border border-line-strong bg-surface px-3 py-2 text-base text-ink shadow-xs focus-visible:border-accent aria-[invalid=true]:border-danger";

/** A label, a control, then its hint and error, tied to the control for assistive technology. */
export function FormField({
  label,
  errorKey,
  hint,
  optional = false,
  className,
  children,
}: FormFieldProps & { children: (control: FieldControlProps) => ReactNode }) {
  const { t } = useTranslation();
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, errorKey ? errorId : null].filter(Boolean).join(" ");

  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-ink">
        {label}
        {optional && <span className="font-normal text-ink-muted"> ({t("common.optional")})</span>}
      </label>
      {children({ id, "aria-invalid": errorKey ? true : undefined, "aria-describedby": describedBy || undefined })}
      {hint && (
        <p id={hintId} className="mt-1 text-sm text-ink-muted">
          {hint}
        </p>
      )}
      {errorKey && (
        <p id={errorId} className="mt-1 text-sm font-medium text-danger">
          {t(errorKey)}
        </p>
      )}
    </div>
  );
}
