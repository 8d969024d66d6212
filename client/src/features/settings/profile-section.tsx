import { zodResolver } from "@hookform/resolvers/zod";
import { type ProfileInput, profileSchema } from "@shared/account-settings";
import type { CurrentUser } from "@shared/auth";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { SavedStatus } from "@/features/settings/saved-status";
import { useUpdateProfile } from "@/features/settings/use-account-settings";
import { FormAlert } from "@/ui/form-alert";
import { Panel } from "@/ui/panel";
import { SubmitButton } from "@/ui/submit-button";
import { TextField } from "@/ui/text-field";
import { showServerErrors } from "@/lib/form-errors";

const profileOf = (user: CurrentUser): ProfileInput => ({ firstName: user.firstName ?? "", lastName: user.lastName ?? "", username: user.username });

export function ProfileSection({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const update = useUpdateProfile();
  const form = useForm<ProfileInput>({ resolver: zodResolver(profileSchema), defaultValues: profileOf(user) });
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = form;

  const submit = handleSubmit((profile) =>
    update.mutate(profile, {
      // The saved names, as the server trimmed them, become the form's new starting point.
      onSuccess: (saved) => reset(profileOf(saved)),
      onError: (error) => showServerErrors(error, form),
    }),
  );

  return (
    <Panel title={t("settings.profile.title")} description={t("settings.profile.description")}>
      <form noValidate onSubmit={(event) => void submit(event)} className="mt-5 space-y-4" data-testid="profile-form">
        <FormAlert message={errors.root?.server?.message} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label={t("settings.profile.firstName")} autoComplete="given-name" required errorKey={errors.firstName?.message} {...register("firstName")} />
          <TextField label={t("settings.profile.lastName")} autoComplete="family-name" required errorKey={errors.lastName?.message} {...register("lastName")} />
        </div>
        <TextField
          label={t("settings.profile.username")}
          hint={t("settings.profile.usernameHint")}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          errorKey={errors.username?.message}
          {...register("username")}
        />
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <SubmitButton testId="profile-submit" className="" isPending={update.isPending} label={t("settings.profile.submit")} pendingLabel={t("settings.saving")} />
          {/* Said until the form is changed again, so it never vouches for unsaved text. */}
          <SavedStatus testId="profile-saved" message={update.isSuccess && !isDirty ? t("settings.profile.saved") : null} />
        </div>
      </form>
    </Panel>
  );
}
