import { zodResolver } from "@hookform/resolvers/zod";
import { type AccountDeletionInput, accountDeletionSchema, type AccountDeletionPreview } from "@shared/account-settings";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useDeleteAccount, useDeletionPreview } from "@/features/settings/use-account-settings";
import { ConfirmDialog } from "@/ui/confirm-dialog";
import { FormAlert } from "@/ui/form-alert";
import { buttonClassName, textLinkClassName } from "@/ui/styles";
import { TextField } from "@/ui/text-field";
import { useNumberFormat } from "@/lib/use-number-format";
import { showServerErrors } from "@/lib/form-errors";

/** What deleting does, in the words of docs/product.md#settings, with this account's figures. */
function Consequences({ preview }: { preview: AccountDeletionPreview }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const amount = format.tokenAmount(preview.owedAmount);
  return (
    <ul data-testid="deletion-preview" className="mt-4 list-disc space-y-2 pl-5 text-sm">
      <li>{t("settings.delete.books", { count: preview.books })}</li>
      <li>{t("settings.delete.personal")}</li>
      <li>{t("settings.delete.payments")}</li>
      {preview.owedPayments > 0 && (
        <li className="font-medium wrap-anywhere">
          {preview.walletAddress
            ? t("settings.delete.owedToWallet", { amount, wallet: preview.walletAddress })
            : t("settings.delete.owedForfeited", { amount })}
        </li>
      )}
    </ul>
  );
}

function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const preview = useDeletionPreview();
  const deletion = useDeleteAccount();
  const form = useForm<AccountDeletionInput>({ resolver: zodResolver(accountDeletionSchema), defaultValues: { currentPassword: "" } });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  // A wrong password keeps the dialog open, with the refusal under the field.
  const submit = handleSubmit((input) => deletion.mutate(input, { onError: (error) => showServerErrors(error, form) }));

  return (
    <ConfirmDialog
      title={t("settings.delete.dialogTitle")}
      description={t("settings.delete.dialogDescription")}
      confirmLabel={t("settings.delete.confirm")}
      pendingLabel={t("settings.delete.pending")}
      isPending={deletion.isPending}
      confirmDisabled={!preview.isSuccess}
      confirmTestId="confirm-delete-account"
      onCancel={onClose}
      onConfirm={() => void submit()}
    >
      {preview.isPending ? (
        <p role="status" className="mt-4 text-ink-muted">
          {t("common.loading")}
        </p>
      ) : preview.isError ? (
        <p className="mt-4 text-sm">
          {t("settings.delete.previewError")}{" "}
          <button type="button" onClick={() => void preview.refetch()} className={textLinkClassName}>
            {t("catalog.retry")}
          </button>
        </p>
      ) : (
        <>
          <Consequences preview={preview.data} />
          {/* Enter in the field answers like the dialog's delete button. */}
          <form noValidate onSubmit={(event) => void submit(event)} className="mt-5 space-y-3">
            <FormAlert message={errors.root?.server?.message} />
            <TextField
              label={t("settings.delete.password")}
              type="password"
              autoComplete="current-password"
              required
              errorKey={errors.currentPassword?.message}
              {...register("currentPassword")}
            />
          </form>
        </>
      )}
    </ConfirmDialog>
  );
}

/** The danger zone, last on the screen: nothing happens before the dialog has said what will. */
export function DeleteAccountSection() {
  const { t } = useTranslation();
  const headingId = useId();
  const [isOpen, setIsOpen] = useState(false);
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-danger bg-surface p-5 shadow-sm sm:p-6">
      <h2 id={headingId} className="text-xl font-semibold text-danger">
        {t("settings.delete.title")}
      </h2>
      <p className="mt-1 text-sm text-ink-muted">{t("settings.delete.description")}</p>
      <button type="button" data-testid="delete-account" onClick={() => setIsOpen(true)} className={buttonClassName("dangerOutline", "mt-4")}>
        {t("settings.delete.button")}
      </button>
      {isOpen && <DeleteAccountDialog onClose={() => setIsOpen(false)} />}
    </section>
  );
}
