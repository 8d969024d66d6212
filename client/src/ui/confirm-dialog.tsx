import { type KeyboardEvent, type ReactNode, type RefObject, useEffect, useId, useLayoutEffect, useRef } from "react";
import { createPortal } from "react-dom";
import { useTranslation } from "react-i18next";
import { Spinner } from "@/ui/icons";
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

/** The element the ref points to when it is called: at close, not when the dialog opened. */
const focusCurrent = (ref: RefObject<HTMLElement | null> | undefined) => ref?.current?.focus();

const FOCUSABLE = "button, [href], input, select, textarea, [tabindex]:not([tabindex='-1'])";

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
  const titleId = useId();
  const descriptionId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);

  const openerRef = useRef<HTMLElement | null>(null);
  // Before the browser paints the dialog: a key pressed as soon as it shows must already land inside it.
  useLayoutEffect(() => {
    openerRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    cancelRef.current?.focus();
  }, []);
  // The focus goes back once the dialog is gone, after whatever closed it has changed the page (a deleted row).
  useEffect(
    () => () => {
      const opener = openerRef.current;
      if (opener?.isConnected) opener.focus();
      else focusCurrent(fallbackFocus);
    },
    [fallbackFocus],
  );

  const cancel = () => {
    if (!isPending) onCancel();
  };

  const keepFocusInside = (event: KeyboardEvent) => {
    if (event.key === "Escape") {
      event.preventDefault();
      cancel();
      return;
    }
    if (event.key !== "Tab" || !dialogRef.current) return;
    const focusable = [...dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div
      className="fixed inset-0 z-50 flex items-end justify-center bg-ink/50 p-4 sm:items-center"
      onClick={(event) => {
        if (event.target === event.currentTarget) cancel();
      }}
    >
      <div
        ref={dialogRef}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        onKeyDown={keepFocusInside}
        className="max-h-full w-full max-w-md overflow-y-auto rounded-xl border border-line bg-surface p-6 shadow-xl"
      >
        <h2 id={titleId} className="text-xl font-semibold">
          {title}
        </h2>
        <p id={descriptionId} className="mt-2 text-ink-muted">
          {description}
        </p>
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
      </div>
    </div>,
    document.body,
  );
}
