import { useTranslation } from "react-i18next";
import { toMegabytes } from "@/features/books/upload-kinds";

/** A file size in megabytes with two decimals, written the reader's way: "2.37 MB", "2,37 Mo". */
export function FileSizeText({ bytes }: { bytes: number }) {
  const { t } = useTranslation();
  return <>{t("upload.sizeMb", { size: toMegabytes(bytes) })}</>;
}
