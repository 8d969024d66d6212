import { useId } from "react";
import { useTranslation } from "react-i18next";
import { useStorageSize, useStorageUsage } from "@/features/books/use-storage";

/**
 * "Using 120 MB of 1 GB", with a bar: how much of their storage the author's books keep (docs/product.md#storage).
 * Nothing while it loads or if it cannot be read: the upload's own answer still says when a book does not fit.
 */
export function StorageUsage({ className }: { className?: string }) {
  const { t } = useTranslation();
  const usage = useStorageUsage();
  const size = useStorageSize();
  const labelId = useId();
  if (!usage.data) return null;
  const { usedBytes, limitBytes } = usage.data;
  const text = t("storage.usage", { used: size(usedBytes), limit: size(limitBytes) });
  const percent = Math.min(100, Math.round((usedBytes / limitBytes) * 100));
  return (
    <div data-testid="storage-usage" className={className}>
      <p id={labelId} className="text-sm font-medium text-ink">
        {text}
      </p>
      <div
        role="meter"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={limitBytes}
        aria-valuenow={Math.min(usedBytes, limitBytes)}
        aria-valuetext={text}
        className="mt-1.5 h-2 max-w-sm overflow-hidden rounded-full bg-accent-soft"
      >
        <div className={`h-full rounded-full ${percent >= 90 ? "bg-danger" : "bg-accent"}`} style={{ width: `${percent}%` }} />
      </div>
      <p className="mt-1.5 text-sm text-ink-muted">{t("storage.hint")}</p>
    </div>
  );
}
