import type { AdminResetLink } from "@shared/password-reset";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "@/ui/confirm-dialog";
import { CopyButton } from "@/ui/copy-button";
import { ModalDialog } from "@/ui/modal-dialog";
import { buttonClassName } from "@/ui/styles";
import { useAdminResetLink } from "@/features/accounts";
import { errorText } from "@/lib/error-text";
import { toast } from "@/lib/toast";

/** The link, shown once: the server keeps only its hash, so closing this dialog loses it for good. */
function ResetLinkDialog({ name, link, onClose }: { name: string; link: AdminResetLink; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const closeRef = useRef<HTMLButtonElement>(null);
  const time = new Date(link.expiresAt).toLocaleTimeString(i18n.language, { hour: "2-digit", minute: "2-digit" });
  return (
    <ModalDialog
      title={t("passwordReset.admin.linkTitle", { name })}
      description={t("passwordReset.admin.linkBody", { time })}
      onDismiss={onClose}
      initialFocus={closeRef}
      widthClassName="max-w-lg"
      testId="admin-reset-link-dialog"
    >
      <div className="mt-4 flex items-stretch gap-2">
        <code data-testid="admin-reset-link-url" translate="no" className="min-w-0 flex-1 rounded-md border border-line bg-paper px-3 py-2 font-mono text-sm break-all">
          {link.url}
        </code>
        <CopyButton text={link.url} label={t("passwordReset.admin.copy")} copiedLabel={t("passwordReset.admin.copied")} copyErrorMessage={t("passwordReset.admin.copyError")} />
      </div>
      <div className="mt-6 flex justify-end">
        <button ref={closeRef} type="button" onClick={onClose} className={buttonClassName("primary")}>
          {t("passwordReset.admin.close")}
        </button>
      </div>
    </ModalDialog>
  );
}

/** "Reset link" in the admin's users list: a confirmation first, then the link to hand over (docs/product.md#password-reset). */
export function AdminResetLinkButton({ userId, name, describedBy }: { userId: string; name: string; describedBy: string }) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const make = useAdminResetLink();
  const confirm = () =>
    make.mutate(userId, {
      onSuccess: () => setConfirming(false),
      onError: (error) => {
        setConfirming(false);
        toast({ variant: "destructive", title: t("common.error"), description: t("passwordReset.admin.failed", { message: errorText(error) }) });
      },
    });

  return (
    <>
      <button
        type="button"
        aria-describedby={describedBy}
        data-testid="admin-reset-link"
        onClick={() => setConfirming(true)}
        className={buttonClassName("ghost", "max-lg:w-full")}
      >
        {t("passwordReset.admin.button")}
      </button>
      {confirming && (
        <ConfirmDialog
          title={t("passwordReset.admin.confirmTitle", { name })}
          description={t("passwordReset.admin.confirmBody")}
          confirmLabel={t("passwordReset.admin.confirm")}
          pendingLabel={t("passwordReset.admin.pending")}
          isPending={make.isPending}
          onConfirm={confirm}
          onCancel={() => setConfirming(false)}
          confirmTestId="admin-reset-link-confirm"
        />
      )}
      {make.data && <ResetLinkDialog name={name} link={make.data} onClose={() => make.reset()} />}
    </>
  );
}
