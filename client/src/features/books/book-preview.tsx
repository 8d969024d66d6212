import type { BookLanguage } from "@shared/books";
import { toGenreKey } from "@shared/genres";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { BookCover } from "@/features/books/book-cover";
import { FileSizeText } from "@/features/books/file-size-text";
import { fileTypeLabel } from "@/features/books/upload-kinds";
import { useImagePreview } from "@/features/books/use-image-preview";

interface BookPreviewProps {
  title: string;
  genre: string;
  language: BookLanguage | undefined;
  file: File | null;
  coverImage: File | null;
  className?: string;
}

/** The book as it will look, updated while the author fills in the form. */
export function BookPreview({ title, genre, language, file, coverImage, className = "" }: BookPreviewProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const coverUrl = useImagePreview(coverImage);
  const shownTitle = title.trim() || t("upload.untitled");
  const genreKey = toGenreKey(genre);
  const facts = [genreKey ? t(`genres.${genreKey}`) : null, language ? t(`languages.${language}`) : null].filter(Boolean).join(" · ");

  return (
    <aside aria-labelledby={headingId} className={`rounded-xl border border-line bg-surface p-5 shadow-sm sm:p-6 ${className}`}>
      <h2 id={headingId} className="text-xl font-semibold">
        {t("upload.previewTitle")}
      </h2>
      <div className="mt-4 flex gap-4 lg:flex-col">
        <div className="w-28 shrink-0 sm:w-36 lg:mx-auto lg:w-44">
          {/* Not yet a book: id 0 only picks the placeholder's tint. */}
          <BookCover book={{ id: 0, title, coverImageUrl: coverUrl }} initialClassName="text-5xl" className="rounded-md shadow-sm" sizes="11rem" />
        </div>
        <div className="min-w-0 flex-1">
          <p className={`font-serif text-lg leading-snug font-semibold break-words ${title.trim() ? "text-ink" : "text-ink-muted"}`}>
            {shownTitle}
          </p>
          {facts && <p className="mt-1 text-sm text-ink-muted">{facts}</p>}
          {file ? (
            <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
              <dt className="text-ink-muted">{t("upload.fileLabel")}</dt>
              <dd className="truncate font-medium" title={file.name}>
                {file.name}
              </dd>
              <dt className="text-ink-muted">{t("upload.sizeLabel")}</dt>
              <dd className="font-medium">
                <FileSizeText bytes={file.size} />
              </dd>
              <dt className="text-ink-muted">{t("upload.typeLabel")}</dt>
              <dd className="font-medium">{fileTypeLabel(file)}</dd>
            </dl>
          ) : (
            <p className="mt-3 text-sm text-ink-muted">{t("upload.noFile")}</p>
          )}
        </div>
      </div>
    </aside>
  );
}
