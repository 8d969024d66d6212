import type { StorageUsage } from "@shared/books";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";

/** Refreshed with the book reads (use-book-mutations.ts): publishing or deleting a book changes it. */
export const STORAGE_USAGE_KEY = "/api/account/storage";

/** What the signed-in account's books keep, and the most they may keep (docs/product.md#storage). */
export function useStorageUsage() {
  return useQuery<StorageUsage>({ queryKey: [STORAGE_USAGE_KEY] });
}

const MB = 1024 * 1024;
const GB = 1024 * MB;

/** A stored size as people say it, in the interface's language: "0.04 MB", "120 MB", "1 GB", "1,5 Go". */
export function useStorageSize(): (bytes: number) => string {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  return useMemo(() => {
    const formats = [1, 2].map((digits) => new Intl.NumberFormat(language, { maximumFractionDigits: digits }));
    return (bytes: number) => {
      if (bytes >= GB) return t("storage.gigabytes", { value: formats[0]!.format(bytes / GB) });
      // A small book still shows as something, not as "0 MB".
      return t("storage.megabytes", { value: formats[bytes < MB ? 1 : 0]!.format(bytes / MB) });
    };
  }, [language, t]);
}
