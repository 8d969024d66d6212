import { zodResolver } from "@hookform/resolvers/zod";
import type { BookCard } from "@shared/books";
import { CHANGELOG_MAX } from "@shared/editions";
import { useEffect, useId, useRef } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { EditionsList } from "@/features/books/book-editions";
import { type EditionFormData, type EditionFormInput, editionFormSchema } from "@/features/books/book-form-schemas";
import { DropzoneField } from "@/features/books/dropzone-field";
import { UploadProgress } from "@/features/books/upload-progress";
import { usePublishEdition } from "@/features/books/use-book-mutations";
import { useBookEditions } from "@/features/books/use-books";
import { FormAlert } from "@/ui/form-alert";
import { SubmitButton } from "@/ui/submit-button";
import { TextAreaField } from "@/ui/text-area-field";
import { showServerErrors } from "@/lib/form-errors";
import { useNumberFormat } from "@/lib/use-number-format";

/**
 * The edit page's new edition (docs/product.md#editions): a new file of the book, in any format, and
 * what changed; below, every edition so far. The file is checked by the server as an upload is.
 */
export function NewEditionForm({ book }: { book: BookCard }) {
  const { t } = useTranslation();
  const headingId = useId();
  const format = useNumberFormat();
  const { data: editions } = useBookEditions(book.id);
  const publish = usePublishEdition(book);
  const form = useForm<EditionFormInput, unknown, EditionFormData>({
    resolver: zodResolver(editionFormSchema),
    defaultValues: { file: null, changelog: "" },
  });
  const { errors } = form.formState;
  const current = editions?.current ?? 1;
  // The dashboard's "New edition" leads here: the page opens on the form.
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (window.location.hash === "#new-edition") section.current?.scrollIntoView?.({ block: "start" });
  }, []);

  const submit = form.handleSubmit((edition) => publish.mutate(edition, { onSuccess: () => form.reset({ file: null, changelog: "" }) }));
  useEffect(() => {
    if (publish.error) showServerErrors(publish.error, form);
  }, [publish.error, form]);

  return (
    <section ref={section} id="new-edition" aria-labelledby={headingId} data-testid="new-edition" className="mt-10 rounded-xl border border-line bg-surface p-5 shadow-sm sm:p-8">
      <h2 id={headingId} className="text-2xl font-semibold">
        {t("editionForm.title")}
      </h2>
      <p className="mt-2 max-w-prose text-ink-muted">{t("editionForm.intro")}</p>
      <p className="mt-2 text-sm" data-testid="current-edition">
        {t("editionForm.current", { number: current, format: t(`bookPage.fileTypes.${book.fileType}`), size: format.fileSize(book.fileSize) })}
      </p>
      <FormProvider {...form}>
        <form noValidate onSubmit={(event) => void submit(event)} className="mt-6">
          <fieldset disabled={publish.isPending} className="space-y-6">
            <FormAlert message={errors.root?.server?.message} />
            <DropzoneField name="file" kind="book" label={t("editionForm.fileLabel")} disabled={publish.isPending} testId="edition-dropzone" />
            <TextAreaField
              label={t("editionForm.changelogLabel")}
              hint={t("editionForm.changelogHint", { max: format.integer(CHANGELOG_MAX) })}
              rows={4}
              maxLength={CHANGELOG_MAX}
              required
              data-testid="edition-changelog"
              errorKey={errors.changelog?.message}
              {...form.register("changelog")}
            />
          </fieldset>
          {publish.isPending && (
            <div className="mt-6">
              <UploadProgress sentFraction={publish.sentFraction} />
            </div>
          )}
          <div className="mt-6 flex justify-end">
            <div className="sm:min-w-56">
              <SubmitButton
                testId="publish-edition"
                isPending={publish.isPending}
                label={t("editionForm.submit", { number: current + 1 })}
                pendingLabel={t("editionForm.submitting")}
              />
            </div>
          </div>
        </form>
      </FormProvider>
      {editions && (
        <>
          <h3 className="mt-8 text-lg font-semibold">{t("editionForm.history")}</h3>
          <EditionsList book={book} editions={editions} withDownloads={false} />
        </>
      )}
    </section>
  );
}
