import { zodResolver } from "@hookform/resolvers/zod";
import { BOOK_LANGUAGES, DEFAULT_CONTENT_RATING } from "@shared/books";
import { useEffect } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { PageFrame } from "@/ui/page-frame";
import { textLinkClassName } from "@/ui/styles";
import { FormAlert } from "@/ui/form-alert";
import { SubmitButton } from "@/ui/submit-button";
import { BookDetailsFields } from "@/features/books/book-details-fields";
import { uploadFormSchema, type UploadFormData, type UploadFormInput } from "@/features/books/book-form-schemas";
import { BookPreview } from "@/features/books/book-preview";
import { DropzoneField } from "@/features/books/dropzone-field";
import { StorageUsage } from "@/features/books/storage-usage";
import { UploadProgress } from "@/features/books/upload-progress";
import { usePublishBook } from "@/features/books/use-book-mutations";
import { useEpubPrefill } from "@/features/books/use-epub-prefill";
import { showServerErrors } from "@/lib/form-errors";

export function UploadPage() {
  const { t, i18n } = useTranslation();
  const publish = usePublishBook();
  const form = useForm<UploadFormInput, unknown, UploadFormData>({
    resolver: zodResolver(uploadFormSchema),
    defaultValues: {
      file: null,
      coverImage: null,
      title: "",
      genre: "",
      // Most authors write in the language they use the site in.
      language: BOOK_LANGUAGES.find((language) => language === i18n.resolvedLanguage) ?? "en",
      description: "",
      contentRating: DEFAULT_CONTENT_RATING,
      seriesId: "",
      seriesVolume: "",
      tags: "",
    },
  });
  const [title, genre, language, file, coverImage] = useWatch({
    control: form.control,
    name: ["title", "genre", "language", "file", "coverImage"],
  });

  const { detailsFilled, packageCover } = useEpubPrefill(form, file);

  // React ignores what onSubmit returns; handleSubmit's promise rejects only if this callback throws, and mutate never does.
  const submit = form.handleSubmit((book) => publish.mutate(book));
  // After the re-render that enables the fields again, so the first field in error can take the focus.
  useEffect(() => {
    if (publish.error) showServerErrors(publish.error, form);
  }, [publish.error, form]);

  return (
    <PageFrame title={t("upload.title")} description={t("upload.subtitle")}>
      <p className="mt-2 text-ink-muted">
        <Link href="/author-guide" className={textLinkClassName}>
          {t("upload.guideLink")}
        </Link>
      </p>
      <StorageUsage className="mt-4" />
      <FormProvider {...form}>
        {/* Below the large breakpoint the preview sits between the fields and the publish button, so it is seen before publishing. */}
        <form noValidate onSubmit={(event) => void submit(event)} className="mt-8 grid items-start gap-x-8 gap-y-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <fieldset disabled={publish.isPending} className="min-w-0 space-y-6 rounded-xl border border-line bg-surface p-5 shadow-sm sm:p-8">
            <FormAlert message={form.formState.errors.root?.server?.message} />
            <DropzoneField name="file" kind="book" label={t("upload.bookFileLabel")} disabled={publish.isPending} testId="book-dropzone" />
            <p role="status" className="-mt-4 text-sm text-ink-muted empty:hidden" data-testid="epub-details-read">
              {detailsFilled ? t("upload.epubDetailsRead") : ""}
            </p>
            <DropzoneField name="coverImage" kind="cover" label={t("upload.coverLabel")} optional disabled={publish.isPending} testId="cover-dropzone" />
            {/* docs/product.md#covers: the cover Plume makes when the author gives none. */}
            <p className="-mt-4 text-sm text-ink-muted">{t("covers.whenNone")}</p>
            <BookDetailsFields />
          </fieldset>
          <BookPreview
            title={title}
            genre={genre}
            language={language}
            file={file}
            // The EPUB's own cover is what the book gets without the author's (docs/product.md#covers).
            coverImage={coverImage ?? packageCover}
            className="lg:sticky lg:top-6 lg:col-start-2 lg:row-span-2 lg:row-start-1"
          />
          <div className="space-y-4">
            {publish.isPending && <UploadProgress sentFraction={publish.sentFraction} />}
            <SubmitButton testId="publish-button" isPending={publish.isPending} label={t("upload.publish")} pendingLabel={t("upload.publishing")} />
          </div>
        </form>
      </FormProvider>
    </PageFrame>
  );
}
