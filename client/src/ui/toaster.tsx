import { useTranslation } from "react-i18next";
import { dismissToast, pauseToast, resumeToast, useCurrentToast, type Toast } from "@/lib/toast";

function ToastCard({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  const isDestructive = toast.variant === "destructive";
  return (
    <div
      onMouseEnter={pauseToast}
      onMouseLeave={resumeToast}
      onFocus={pauseToast}
      onBlur={resumeToast}
      className={`pointer-events-auto flex w-full items-start gap-3 rounded-lg border p-4 shadow-lg sm:w-96 ${
        isDestructive ? "border-danger bg-danger-soft text-danger" : "border-line bg-surface text-ink"
      }`}
    >
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{toast.title}</p>
        {toast.description && (
          <p className={`mt-1 text-sm ${isDestructive ? "text-danger" : "text-ink-muted"}`}>{toast.description}</p>
        )}
      </div>
      <button
        type="button"
        onClick={() => dismissToast(toast.id)}
        aria-label={t("common.close")}
        className="-m-1 rounded p-1 leading-none hover:bg-black/5"
      >
        <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M4 4l8 8M12 4l-8 8" />
        </svg>
      </button>
    </div>
  );
}

/**
 * Shows the current toast. Both live regions stay in the page so screen readers are already
 * listening when a toast arrives: errors interrupt (alert), everything else waits its turn (status).
 */
export function Toaster() {
  const current = useCurrentToast();
  const card = current && <ToastCard key={current.id} toast={current} />;
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-stretch p-4 sm:left-auto sm:items-end">
      <div role="status" aria-live="polite" aria-atomic="true">
        {current?.variant === "default" && card}
      </div>
      <div role="alert" aria-live="assertive" aria-atomic="true">
        {current?.variant === "destructive" && card}
      </div>
    </div>
  );
}
