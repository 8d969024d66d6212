import { type InputHTMLAttributes, type Ref, useId } from "react";
import { useTranslation } from "react-i18next";

export interface RadioCardOption {
  value: string;
  label: string;
  hint: string;
}

interface RadioCardsFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "value"> {
  legend: string;
  options: readonly RadioCardOption[];
  /** Translation key of the group's error: a shared zod message or a server `fields` entry. */
  errorKey?: string;
  /** Each radio's test id is this prefix and its value. */
  testIdPrefix: string;
  ref?: Ref<HTMLInputElement>;
}

/**
 * A choice among a few options that each need a sentence (a report's category, a book's content
 * rating): a group of radios, each a card with its label and hint, its error tied to the group.
 */
export function RadioCardsField({ legend, options, errorKey, testIdPrefix, ref, ...input }: RadioCardsFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <fieldset aria-describedby={errorKey ? `${id}-error` : undefined}>
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="mt-2 space-y-2">
        {options.map((option) => (
          <label key={option.value} className="flex cursor-pointer items-start gap-3 rounded-md border border-line p-3 has-checked:border-accent has-checked:bg-accent-soft/40">
            <input ref={ref} type="radio" value={option.value} data-testid={`${testIdPrefix}${option.value}`} className="mt-1 size-4 shrink-0 accent-accent" {...input} />
            <span>
              <span className="block font-medium">{option.label}</span>
              <span className="block text-sm text-ink-muted">{option.hint}</span>
            </span>
          </label>
        ))}
      </div>
      {errorKey && (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-danger">
          {t(errorKey)}
        </p>
      )}
    </fieldset>
  );
}
