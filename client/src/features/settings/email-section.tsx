import { zodResolver } from "@hookform/resolvers/zod";
import { type EmailChangeInput, emailChangeSchema } from "@shared/account-settings";
import type { CurrentUser } from "@shared/auth";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { ResendVerificationButton } from "@/features/accounts";
import { SavedStatus } from "@/features/settings/saved-status";
import { useChangeEmail } from "@/features/settings/use-account-settings";
import { FormAlert } from "@/ui/form-alert";
import { CheckIcon, WarningIcon } from "@/ui/icons";
import { Panel } from "@/ui/panel";
import { SubmitButton } from "@/ui/submit-button";
import { TextField } from "@/ui/text-field";
import { showServerErrors } from "@/lib/form-errors";

function CurrentAddress({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  if (!user.email) return <p className="mt-4 text-sm">{t("settings.email.none")}</p>;
  return (
    <div className="mt-4 space-y-3 rounded-lg border border-line bg-paper p-4" data-testid="current-email">
      <p className="text-sm text-ink-muted">{t("settings.email.current")}</p>
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="min-w-0 font-semibold break-all">{user.email}</span>
        {user.emailVerified ? (
          <span className="inline-flex items-center gap-1 text-sm font-medium text-emerald-800">
            <CheckIcon />
            {t("settings.email.verified")}
          </span>
        ) : (
          <span className="inline-flex items-center gap-1 text-sm font-medium text-amber-900">
            <WarningIcon />
            {t("settings.email.unverified")}
          </span>
        )}
      </p>
      {!user.emailVerified && (
        <>
          <p className="text-sm">{t("settings.email.unverifiedHint")}</p>
          <ResendVerificationButton />
        </>
      )}
    </div>
  );
}

/** The address, whether it is proven, and its change: the new one is unproven until the link mailed to it is opened. */
export function EmailSection({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const change = useChangeEmail();
  const form = useForm<EmailChangeInput>({ resolver: zodResolver(emailChangeSchema), defaultValues: { email: "", currentPassword: "" } });
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = form;

  const submit = handleSubmit((input) => change.mutate(input, { onSuccess: () => reset(), onError: (error) => showServerErrors(error, form) }));

  return (
    <Panel title={t("settings.email.title")} description={t("settings.email.description")}>
      <CurrentAddress user={user} />
      <form noValidate onSubmit={(event) => void submit(event)} className="mt-5 space-y-4" data-testid="email-form">
        <FormAlert message={errors.root?.server?.message} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t(user.email ? "settings.email.newEmail" : "settings.email.addEmail")}
            type="email"
            autoComplete="email"
            required
            errorKey={errors.email?.message}
            {...register("email")}
          />
          <TextField
            label={t("settings.currentPassword")}
            type="password"
            autoComplete="current-password"
            required
            errorKey={errors.currentPassword?.message}
            {...register("currentPassword")}
          />
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <SubmitButton testId="email-submit" className="" isPending={change.isPending} label={t(user.email ? "settings.email.submit" : "settings.email.addSubmit")} pendingLabel={t("settings.saving")} />
          <SavedStatus testId="email-sent" message={change.isSuccess ? t("settings.email.sent", { email: change.data.email }) : null} />
        </div>
      </form>
    </Panel>
  );
}
