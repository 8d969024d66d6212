import { Controller, useFormContext } from "react-hook-form";
import { Dropzone } from "./dropzone";
import type { UploadKind } from "./upload-kinds";

interface DropzoneFieldProps {
  /** The form field holding the selected File (or null). */
  name: "file" | "coverImage";
  kind: UploadKind;
  label: string;
  optional?: boolean;
  disabled: boolean;
  testId: string;
}

/** A Dropzone bound to a field of the surrounding react-hook-form form. */
export function DropzoneField({ name, kind, label, optional = false, disabled, testId }: DropzoneFieldProps) {
  const { control } = useFormContext<Record<DropzoneFieldProps["name"], File | null>>();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <Dropzone
          kind={kind}
          label={label}
          optional={optional}
          file={field.value}
          onChange={field.onChange}
          errorKey={fieldState.error?.message}
          disabled={disabled}
          testId={testId}
          ref={field.ref}
        />
      )}
    />
  );
}
