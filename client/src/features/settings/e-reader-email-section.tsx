import { zodResolver } from "@hookform/resolvers/zod";
import { type EReaderEmailInput, eReaderEmailSchema } from "@shared/account-settings";
import type { CurrentUser } from "@shared/auth";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { SavedStatus } from "@/features/settings/saved-status";
import { useUpdateEReaderEmail } from "@/features/settings/use-account-settings";
import { CopyableValue } from "@/ui/copyable-value";
import { FormAlert } from "@/ui/form-alert";
import { Panel } from "@/ui/panel";
import { buttonClassName } from "@/ui/styles";
import { SubmitButton } from "@/ui/submit-button";
import { TextField } from "@/ui/text-field";
import { showServerErrors } from "@/lib/form-errors";
import { usePublicConfig } from "@/lib/public-config";

/** Which devices take books by mail, and what a Kindle needs before it accepts Plume's: its owner's approval of the sender. */
function WhichAddress() {
  const { t } = useTranslation();
  const { data: config } = usePublicConfig();
  return (
    <div className="mt-5 space-y-2 rounded-lg border border-line bg-paper p-4 text-sm">
      <h3 className="font-semibold">{t("settings.eReaderEmail.kindleTitle")}</h3>
      <p>{t("settings.eReaderEmail.kindleAddress")}</p>
      <p>{t("settings.eReaderEmail.kindleSender", { productName: config?.productName ?? "Plume" })}</p>
      {config && (
        <CopyableValue
          value={config.mailSender}
          copyLabel={t("settings.eReaderEmail.copySender")}
          copiedMessage={t("settings.eReaderEmail.senderCopied")}
          copyErrorMessage={t("eReaders.copyError")}
          testId="mail-sender"
        />
      )}
      <p className="pt-2 text-ink-muted">{t("settings.eReaderEmail.others")}</p>
    </div>
  );
}

const addressOf = (user: CurrentUser): EReaderEmailInput => ({ eReaderEmail: user.eReaderEmail ?? "" });

/**
 * The address "Send to my e-reader" mails books to (docs/product.md#send-to-e-reader): saved as typed,
 * checked as the account's e-mail is; saving it empty, or "Remove the address", clears it.
 */
export function EReaderEmailSection({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const update = useUpdateEReaderEmail();
  const form = useForm<EReaderEmailInput>({ resolver: zodResolver(eReaderEmailSchema), defaultValues: addressOf(user) });
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = form;

  const save = (input: EReaderEmailInput) =>
    update.mutate(input, {
      onSuccess: (saved) => reset(addressOf(saved)),
      onError: (error) => showServerErrors(error, form),
    });
  const submit = handleSubmit(save);
  const saved = update.isSuccess && !isDirty ? update.data.eReaderEmail : undefined;

  return (
    <Panel title={t("settings.eReaderEmail.title")} description={t("settings.eReaderEmail.description")}>
      <p className="mt-4 text-sm break-words" data-testid="e-reader-email-current">
        {user.eReaderEmail ? t("settings.eReaderEmail.current", { email: user.eReaderEmail }) : t("settings.eReaderEmail.none")}
      </p>
      <form noValidate onSubmit={(event) => void submit(event)} className="mt-4 space-y-4" data-testid="e-reader-email-form">
        <FormAlert message={errors.root?.server?.message} />
        <TextField
          label={t("settings.eReaderEmail.label")}
          type="email"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="name@kindle.com"
          errorKey={errors.eReaderEmail?.message}
          {...register("eReaderEmail")}
        />
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">
          <SubmitButton testId="e-reader-email-submit" className="" isPending={update.isPending} label={t("settings.eReaderEmail.submit")} pendingLabel={t("settings.saving")} />
          {user.eReaderEmail && (
            <button type="button" data-testid="e-reader-email-clear" disabled={update.isPending} onClick={() => save({ eReaderEmail: "" })} className={buttonClassName("secondary")}>
              {t("settings.eReaderEmail.clear")}
            </button>
          )}
          {/* Said until the field is changed again, so it never vouches for an unsaved address. */}
          <SavedStatus
            testId="e-reader-email-saved"
            message={saved === undefined ? null : saved ? t("settings.eReaderEmail.saved", { email: saved }) : t("settings.eReaderEmail.cleared")}
          />
        </div>
      </form>
      <WhichAddress />
    </Panel>
  );
}
