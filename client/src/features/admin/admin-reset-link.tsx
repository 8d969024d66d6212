import type { AdminResetLink } from "@shared/password-reset";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "@/ui/confirm-dialog";
import { CopyIcon } from "@/ui/icons";
import { buttonClassName } from "@/ui/styles";
import { useAdminResetLink } from "@/features/accounts";
import { errorText } from "@/lib/error-text";
import { toast } from "@/lib/toast";

/** The link, shown once: the server keeps only its hash, so closing this dialog loses it for good. */
function ResetLinkDialog({ name, link, onClose }: { name: string; link: AdminResetLink; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const descriptionId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  const [copied, setCopied] = useState(false);
  const time = new Date(link.expiresAt).toLocaleTimeString(i18n.language, { hour: "2-digit", minute: "2-digit" });

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeRef.current?.focus();
    return () => opener?.focus();
  }, []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link.url);
      setCopied(true);
    } catch {
      toast({ variant: "destructive", title: t("common.error"), description: t("passwordReset.admin.copyError") });
    }
  };
  const keyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") onClose();
  };

  return createPortal(
    <div className="fixed inset-0 z-50 flex items-end justify-center bg-ink/50 p-4 sm:items-center">
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        onKeyDown={keyDown}
        data-testid="admin-reset-link-dialog"
        className="w-full max-w-lg rounded-xl border border-line bg-surface p-6 shadow-xl"
      >
        <h2 id={titleId} className="text-xl font-semibold">
          {t("passwordReset.admin.linkTitle", { name })}
        </h2>
        <p id={descriptionId} className="mt-2 text-ink-muted">
          {t("passwordReset.admin.linkBody", { time })}
        </p>
        <div className="mt-4 flex items-stretch gap-2">
          <code data-testid="admin-reset-link-url" translate="no" className="min-w-0 flex-1 rounded-md border border-line bg-paper px-3 py-2 font-mono text-sm break-all">
            {link.url}
          </code>
          <button type="button" onClick={() => void copy()} className={buttonClassName("secondary")}>
            <CopyIcon />
            {t(copied ? "passwordReset.admin.copied" : "passwordReset.admin.copy")}
          </button>
        </div>
        <div className="mt-6 flex justify-end">
          <button ref={closeRef} type="button" onClick={onClose} className={buttonClassName("primary")}>
            {t("passwordReset.admin.close")}
          </button>
        </div>
      </div>
    </div>,
    document.body,
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
