import { type KeyboardEvent, type ReactNode, type RefObject, useEffect, useId, useLayoutEffect, useRef } from "react";
import { createPortal } from "react-dom";

interface ModalDialogProps {
  title: ReactNode;
  description: ReactNode;
  /** What Escape does (and a click outside, with `closesOnOutsideClick`). */
  onDismiss: () => void;
  /** The control the focus starts on. */
  initialFocus: RefObject<HTMLElement | null>;
  /** Where the focus goes on close when the control that opened the dialog is gone (e.g. a deleted row's button). */
  fallbackFocus?: RefObject<HTMLElement | null>;
  /** `alertdialog` for a question that needs an answer. */
  role?: "dialog" | "alertdialog";
  closesOnOutsideClick?: boolean;
  /** Its width's cap, a Tailwind class. */
  widthClassName?: string;
  testId?: string;
  /** What follows the title and the description: the body and the buttons. */
  children: ReactNode;
}

const FOCUSABLE = "button, [href], input, select, textarea, [tabindex]:not([tabindex='-1'])";

/**
 * A modal dialog, mounted only while open: the focus starts on `initialFocus`, stays inside until it
 * closes, then goes back to the control that opened it.
 */
export function ModalDialog({
  title,
  description,
  onDismiss,
  initialFocus,
  fallbackFocus,
  role = "dialog",
  closesOnOutsideClick = false,
  widthClassName = "max-w-md",
  testId,
  children,
}: ModalDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const openerRef = useRef<HTMLElement | null>(null);

  // Before the browser paints the dialog: a key pressed as soon as it shows must already land inside it.
  useLayoutEffect(() => {
    openerRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    initialFocus.current?.focus();
  }, [initialFocus]);
  // The focus goes back once the dialog is gone, after whatever closed it has changed the page (a deleted row).
  useEffect(
    () => () => {
      const opener = openerRef.current;
      if (opener?.isConnected) opener.focus();
      else fallbackFocus?.current?.focus();
    },
    [fallbackFocus],
  );

  const keepFocusInside = (event: KeyboardEvent) => {
    if (event.key === "Escape") {
      event.preventDefault();
      onDismiss();
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
        if (closesOnOutsideClick && event.target === event.currentTarget) onDismiss();
      }}
    >
      <div
        ref={dialogRef}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        onKeyDown={keepFocusInside}
        data-testid={testId}
        className={`max-h-full w-full ${widthClassName} overflow-y-auto rounded-xl border border-line bg-surface p-6 shadow-xl`}
      >
        <h2 id={titleId} className="text-xl font-semibold">
          {title}
        </h2>
        <p id={descriptionId} className="mt-2 text-ink-muted">
          {description}
        </p>
        {children}
      </div>
    </div>,
    document.body,
  );
}
