import type { Ref, SelectHTMLAttributes } from "react";
import { FormField, fieldControlClassName, type FormFieldProps } from "@/ui/form-field";

export interface SelectOption {
  value: string;
  label: string;
  /** The option's own language, so a screen reader pronounces "Français" the French way. */
  lang?: string;
}

interface SelectFieldProps extends FormFieldProps, Omit<SelectHTMLAttributes<HTMLSelectElement>, "id" | "children" | "className"> {
  options: SelectOption[];
  /** A first, unselectable entry shown while nothing is chosen. */
  placeholder?: string;
  ref?: Ref<HTMLSelectElement>;
}

/** A labelled drop-down in the same style as the text fields, with the same hint and error. */
export function SelectField({ label, errorKey, hint, optional, className, options, placeholder, ref, ...selectProps }: SelectFieldProps) {
  return (
    <FormField label={label} errorKey={errorKey} hint={hint} optional={optional} className={className}>
      {(control) => (
        <select ref={ref} className={`${fieldControlClassName} min-h-11 hover:border-accent`} {...control} {...selectProps}>
          {placeholder !== undefined && (
            <option value="" disabled>
              {placeholder}
            </option>
          )}
          {options.map((option) => (
            <option key={option.value} value={option.value} lang={option.lang}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}
