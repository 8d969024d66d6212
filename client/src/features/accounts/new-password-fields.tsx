import type { UseFormRegisterReturn } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { TextField } from "@/ui/text-field";

interface NewPasswordFieldsProps {
  labels: { password: string; confirmPassword: string };
  fields: { password: UseFormRegisterReturn<"password">; confirmPassword: UseFormRegisterReturn<"confirmPassword"> };
  /** The translation keys of each field's error, from the form's state. */
  errorKeys: { password?: string; confirmPassword?: string };
}

/** A new password and its confirmation, with the password rules as a hint (shared/auth.ts), wherever one is chosen. */
export function NewPasswordFields({ labels, fields, errorKeys }: NewPasswordFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        label={labels.password}
        type="password"
        autoComplete="new-password"
        required
        hint={t("auth.register.passwordHint")}
        errorKey={errorKeys.password}
        {...fields.password}
      />
      <TextField
        label={labels.confirmPassword}
        type="password"
        autoComplete="new-password"
        required
        errorKey={errorKeys.confirmPassword}
        {...fields.confirmPassword}
      />
    </>
  );
}
