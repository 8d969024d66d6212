import { zodResolver } from "@hookform/resolvers/zod";
import { type PasswordChangeInput, passwordChangeSchema } from "@shared/account-settings";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { NewPasswordFields } from "@/features/accounts";
import { SavedStatus } from "@/features/settings/saved-status";
import { useChangePassword } from "@/features/settings/use-account-settings";
import { FormAlert } from "@/ui/form-alert";
import { Panel } from "@/ui/panel";
import { SubmitButton } from "@/ui/submit-button";
import { TextField } from "@/ui/text-field";
import { showServerErrors } from "@/lib/form-errors";

/** A new password, with the current one as proof; every other session ends with it (docs/product.md#settings). */
export function PasswordSection() {
  const { t } = useTranslation();
  const change = useChangePassword();
  const form = useForm<PasswordChangeInput>({
    resolver: zodResolver(passwordChangeSchema),
    defaultValues: { currentPassword: "", password: "", confirmPassword: "" },
  });
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = form;

  const submit = handleSubmit((input) => change.mutate(input, { onSuccess: () => reset(), onError: (error) => showServerErrors(error, form) }));

  return (
    <Panel title={t("settings.password.title")} description={t("settings.password.description")}>
      <form noValidate onSubmit={(event) => void submit(event)} className="mt-5 space-y-4 sm:max-w-md" data-testid="password-form">
        <FormAlert message={errors.root?.server?.message} />
        <TextField
          label={t("settings.currentPassword")}
          type="password"
          autoComplete="current-password"
          required
          errorKey={errors.currentPassword?.message}
          {...register("currentPassword")}
        />
        <NewPasswordFields
          labels={{ password: t("settings.password.password"), confirmPassword: t("settings.password.confirmPassword") }}
          fields={{ password: register("password"), confirmPassword: register("confirmPassword") }}
          errorKeys={{ password: errors.password?.message, confirmPassword: errors.confirmPassword?.message }}
        />
        <div className="flex flex-col gap-3">
          <SubmitButton testId="password-submit" className="sm:self-start" isPending={change.isPending} label={t("settings.password.submit")} pendingLabel={t("settings.saving")} />
          <SavedStatus testId="password-changed" message={change.isSuccess ? t("settings.password.changed") : null} />
        </div>
      </form>
    </Panel>
  );
}
