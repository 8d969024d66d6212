import { useId, type InputHTMLAttributes, type Ref } from "react";
import { useTranslation } from "react-i18next";

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id"> {
  label: string;
  name: string;
  /** Translation key of the field's error: a shared zod message or a server `fields` entry. */
  errorKey?: string;
  hint?: string;
  /** Marks the label "(optional)". */
  optional?: boolean;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input whose hint and error are tied to it for assistive technology. */
export function TextField({ label, errorKey, hint, optional = false, className, ref, ...inputProps }: TextFieldProps) {
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
      <input
        id={id}
        ref={ref}
        aria-invalid={errorKey ? true : undefined}
        aria-describedby={describedBy || undefined}
        className="mt-1 block w-full rounded-md border border-line bg-surface px-3 py-2 text-base text-ink shadow-xs focus-visible:border-accent aria-[invalid=true]:border-danger"
        {...inputProps}
      />
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
