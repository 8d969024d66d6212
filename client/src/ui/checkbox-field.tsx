import { type InputHTMLAttributes, type Ref, useId } from "react";
import { useTranslation } from "react-i18next";

interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "type" | "className"> {
  label: string;
  /** Translation key of the box's error: a shared zod message or a server `fields` entry. */
  errorKey?: string;
  ref?: Ref<HTMLInputElement>;
}

/** A box to tick with its statement beside it, and the error tied to it for assistive technology. */
export function CheckboxField({ label, errorKey, ref, ...inputProps }: CheckboxFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div>
      <div className="flex items-start gap-3">
        <input
          ref={ref}
          id={id}
          type="checkbox"
          aria-invalid={errorKey ? true : undefined}
          aria-describedby={errorKey ? errorId : undefined}
          className="mt-0.5 size-5 shrink-0 accent-accent"
          {...inputProps}
        />
        <label htmlFor={id} className="text-sm">
          {label}
        </label>
      </div>
      {errorKey && (
        <p id={errorId} className="mt-1 text-sm font-medium text-danger">
          {t(errorKey)}
        </p>
      )}
    </div>
  );
}
