import type { Ref, TextareaHTMLAttributes } from "react";
import { FormField, fieldControlClassName, type FormFieldProps } from "@/ui/form-field";

interface TextAreaFieldProps extends FormFieldProps, Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "className"> {
  name: string;
  ref?: Ref<HTMLTextAreaElement>;
}

export function TextAreaField({ label, errorKey, hint, optional, className, ref, ...textAreaProps }: TextAreaFieldProps) {
  return (
    <FormField label={label} errorKey={errorKey} hint={hint} optional={optional} className={className}>
      {(control) => <textarea ref={ref} className={`${fieldControlClassName} min-h-32 resize-y`} {...control} {...textAreaProps} />}
    </FormField>
  );
}
