import { useTranslation } from "react-i18next";

/** How much of the book has been sent; once all of it is, the server is still checking the file. */
export function UploadProgress({ sentFraction }: { sentFraction: number }) {
  const { t } = useTranslation();
  const percent = Math.round(sentFraction * 100);
  const status = percent < 100 ? t("upload.progress", { percent }) : t("upload.checking");

  return (
    <div>
      <p className="text-sm font-medium text-ink" aria-hidden="true">
        {status}
      </p>
      <div
        role="progressbar"
        data-testid="upload-progress"
        aria-label={t("upload.progressLabel")}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={status}
        className="mt-1.5 h-2.5 overflow-hidden rounded-full bg-accent-soft"
      >
        <div className="h-full rounded-full bg-accent transition-[width] duration-200" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
