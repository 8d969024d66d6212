import { type ReactNode, type RefObject, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Spinner } from "@/ui/icons";
import { ModalDialog } from "@/ui/modal-dialog";
import { buttonClassName } from "@/ui/styles";

interface ConfirmDialogProps {
  title: string;
  description: string;
  confirmLabel: string;
  pendingLabel: string;
  isPending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  confirmTestId?: string;
  /** Where the focus goes on close when the control that opened the dialog is gone (e.g. a deleted row's button). */
  fallbackFocus?: RefObject<HTMLElement | null>;
  /** What the answer needs besides the question: what it would do, a password. */
  children?: ReactNode;
  /** The answer cannot be given yet (what it would do is still loading). */
  confirmDisabled?: boolean;
}

/**
 * A modal question with a destructive answer. It is mounted only while open: the focus starts on
 * "cancel", stays inside until it closes (Escape, cancel, a click outside), then goes back.
 */
export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  pendingLabel,
  isPending,
  onConfirm,
  onCancel,
  confirmTestId,
  fallbackFocus,
  children,
  confirmDisabled = false,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const cancel = () => {
    if (!isPending) onCancel();
  };

  return (
    <ModalDialog title={title} description={description} onDismiss={cancel} initialFocus={cancelRef} fallbackFocus={fallbackFocus} role="alertdialog" closesOnOutsideClick>
      {children}
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {/* aria-disabled rather than disabled while the answer is pending, so the focus stays in the dialog. */}
        <button ref={cancelRef} type="button" onClick={cancel} aria-disabled={isPending} className={buttonClassName("secondary")}>
          {t("common.cancel")}
        </button>
        <button
          type="button"
          data-testid={confirmTestId}
          onClick={() => {
            if (!isPending && !confirmDisabled) onConfirm();
          }}
          aria-disabled={isPending || confirmDisabled}
          aria-busy={isPending}
          className={buttonClassName("danger")}
        >
          {isPending && <Spinner />}
          {isPending ? pendingLabel : confirmLabel}
        </button>
      </div>
    </ModalDialog>
  );
}
