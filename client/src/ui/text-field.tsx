import type { InputHTMLAttributes, Ref } from "react";
import { FormField, fieldControlClassName, type FormFieldProps } from "@/ui/form-field";

interface TextFieldProps extends FormFieldProps, Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "className"> {
  name: string;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input whose hint and error are tied to it for assistive technology. */
export function TextField({ label, errorKey, hint, optional, className, ref, ...inputProps }: TextFieldProps) {
  return (
    <FormField label={label} errorKey={errorKey} hint={hint} optional={optional} className={className}>
      {(control) => <input ref={ref} className={fieldControlClassName} {...control} {...inputProps} />}
    </FormField>
  );
}
