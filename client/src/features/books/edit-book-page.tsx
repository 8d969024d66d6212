import { zodResolver } from "@hookform/resolvers/zod";
import type { BookCard } from "@shared/books";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "wouter";
import { BookCover } from "@/features/books/book-cover";
import { PageFrame } from "@/ui/page-frame";
import { FormAlert } from "@/ui/form-alert";
import { buttonClassName, textLinkClassName } from "@/ui/styles";
import { SubmitButton } from "@/ui/submit-button";
import { BookDetailsFields } from "@/features/books/book-details-fields";
import { editFormSchema, type EditFormData, type EditFormInput } from "@/features/books/book-form-schemas";
import { DropzoneField } from "@/features/books/dropzone-field";
import { NewEditionForm } from "@/features/books/new-edition-form";
import { useAuth } from "@/features/accounts";
import { useUpdateBook } from "@/features/books/use-book-mutations";
import { showServerErrors } from "@/lib/form-errors";
import { useBookPlacement } from "@/features/series";
import { type BookPlacement, formatVolume } from "@shared/series-and-tags";

/** A book id is a positive integer; anything else ("abc", "1.5", "-3", nothing) is not an id. */
function parseBookId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9]\d*$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}

/** A screen that cannot show the form: why, and the way back to the author's books. */
function EditBookNotice({ title, description }: { title: string; description: string }) {
  const { t } = useTranslation();
  return (
    <PageFrame title={title} description={description}>
      <Link href="/dashboard" className={`mt-6 inline-block ${textLinkClassName}`}>
        {t("editBook.backToDashboard")}
      </Link>
    </PageFrame>
  );
}

/** The form's outline while the book loads, so the page does not jump when it arrives. */
function EditBookSkeleton() {
  const { t } = useTranslation();
  const bar = "animate-pulse rounded-md bg-line/70 motion-reduce:animate-none";
  return (
    <PageFrame title={t("editBook.title")} description={t("editBook.loading")}>
      <div aria-hidden="true" className="mt-8 grid gap-8 rounded-xl border border-line bg-surface p-5 shadow-sm sm:p-8 md:grid-cols-[12rem_minmax(0,1fr)]">
        <div className={`aspect-[2/3] w-36 md:w-full ${bar}`} />
        <div className="space-y-6">
          <div className={`h-28 ${bar}`} />
          <div className={`h-11 ${bar}`} />
          <div className="grid gap-5 sm:grid-cols-2">
            <div className={`h-11 ${bar}`} />
            <div className={`h-11 ${bar}`} />
          </div>
          <div className={`h-36 ${bar}`} />
        </div>
      </div>
    </PageFrame>
  );
}

function EditBookForm({ book, placement }: { book: BookCard; placement: BookPlacement }) {
  const { t } = useTranslation();
  const update = useUpdateBook(book.id);
  const form = useForm<EditFormInput, unknown, EditFormData>({
    resolver: zodResolver(editFormSchema),
    defaultValues: {
      title: book.title,
      genre: book.genre ?? "",
      language: book.language,
      description: book.description ?? "",
      contentRating: book.contentRating,
      coverImage: null,
      seriesId: placement.series ? String(placement.series.id) : "",
      seriesVolume: placement.series ? formatVolume(placement.series.volume) : "",
      tags: placement.tags.map((tag) => tag.name).join(", "),
    },
  });

  // React ignores what onSubmit returns; handleSubmit's promise rejects only if this callback throws, and mutate never does.
  const submit = form.handleSubmit((changes) => update.mutate(changes));
  // After the re-render that enables the fields again, so the first field in error can take the focus.
  useEffect(() => {
    if (update.error) showServerErrors(update.error, form);
  }, [update.error, form]);

  return (
    <PageFrame title={t("editBook.title")} description={t("editBook.subtitle", { title: book.title })}>
      <FormProvider {...form}>
        <form
          noValidate
          onSubmit={(event) => void submit(event)}
          className="mt-8 grid gap-8 rounded-xl border border-line bg-surface p-5 shadow-sm sm:p-8 md:grid-cols-[12rem_minmax(0,1fr)]"
        >
          <figure>
            <div className="w-36 md:w-full">
              <BookCover book={book} initialClassName="text-6xl" className="rounded-md shadow-sm" sizes="(min-width: 768px) 16rem, 9rem" />
            </div>
            <figcaption className="mt-2 text-sm text-ink-muted">{t("editBook.currentCover")}</figcaption>
          </figure>
          <div className="min-w-0">
            <fieldset disabled={update.isPending} className="space-y-6">
              <FormAlert message={form.formState.errors.root?.server?.message} />
              <DropzoneField name="coverImage" kind="cover" label={t("editBook.newCoverLabel")} optional disabled={update.isPending} testId="cover-dropzone" />
              <BookDetailsFields />
            </fieldset>
            <div className="mt-8 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <Link href="/dashboard" className={buttonClassName("secondary", "sm:min-w-32")}>
                {t("editBook.cancel")}
              </Link>
              <div className="sm:min-w-48">
                <SubmitButton testId="save-button" isPending={update.isPending} label={t("editBook.save")} pendingLabel={t("editBook.saving")} />
              </div>
            </div>
          </div>
        </form>
      </FormProvider>
      <NewEditionForm book={book} />
    </PageFrame>
  );
}

function EditBookLoader({ bookId }: { bookId: number }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { data: book, isPending, isError } = useQuery<BookCard>({ queryKey: ["/api/books", bookId] });
  // Its series, volume and tags, which the form shows and sends back (docs/product.md#series-and-tags).
  const placement = useBookPlacement(bookId);

  if (isPending || placement.isPending) return <EditBookSkeleton />;
  if (isError || !book || !placement.data) return <EditBookNotice title={t("editBook.notFoundTitle")} description={t("editBook.notFoundDescription")} />;
  if (book.author.id !== user?.id) {
    return <EditBookNotice title={t("editBook.notAuthorTitle")} description={t("editBook.notAuthorDescription", { title: book.title })} />;
  }
  return <EditBookForm book={book} placement={placement.data} />;
}

export function EditBookPage() {
  const { t } = useTranslation();
  const { id } = useParams<{ id?: string }>();
  const bookId = parseBookId(id);

  if (bookId === null) return <EditBookNotice title={t("editBook.title")} description={t("editBook.invalidId")} />;
  // Keyed by id, so moving to another book's page starts from that book's values.
  return <EditBookLoader key={bookId} bookId={bookId} />;
}
