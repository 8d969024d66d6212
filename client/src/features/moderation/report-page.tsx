import { zodResolver } from "@hookform/resolvers/zod";
import { type NoticeInput, type NoticeReceipt, noticeCategories, noticeSchema } from "@shared/notices";
import { useMutation } from "@tanstack/react-query";
import { useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, useSearch } from "wouter";
import { useAuth } from "@/features/accounts";
import { useAuthorProfile, useBook } from "@/features/books";
import { apiRequest } from "@/lib/api";
import { showServerErrors } from "@/lib/form-errors";
import { CheckboxField } from "@/ui/checkbox-field";
import { FormAlert } from "@/ui/form-alert";
import { PageFrame } from "@/ui/page-frame";
import { RadioCardsField } from "@/ui/radio-cards-field";
import { textLinkClassName } from "@/ui/styles";
import { SubmitButton } from "@/ui/submit-button";
import { TextAreaField } from "@/ui/text-area-field";
import { TextField } from "@/ui/text-field";

/** What the Report links put in the address: the book, the author or the review, and the page they were on. */
function subjectOf(search: string): { bookId?: number; authorId?: string; reviewId?: number; from: string } {
  const query = new URLSearchParams(search);
  const book = Number(query.get("book"));
  const review = Number(query.get("review"));
  const author = query.get("author") ?? undefined;
  const from = query.get("from") ?? "";
  // Only this site's own pages: the field is filled in, never a way to carry another address here.
  const sameSite = from.startsWith("/") && !from.startsWith("//") ? `${window.location.origin}${from}` : window.location.origin;
  const subject = Number.isInteger(book) && book > 0 ? { bookId: book } : Number.isInteger(review) && review > 0 ? { reviewId: review } : author ? { authorId: author } : {};
  return { ...subject, from: sameSite };
}

function useSendNotice() {
  return useMutation({
    mutationFn: async (notice: NoticeInput): Promise<NoticeReceipt> => (await apiRequest("POST", "/api/notices", notice)).json() as Promise<NoticeReceipt>,
  });
}

/**
 * The notice form (docs/product.md#moderation): anyone reports the book or the author its Report link
 * named, with the category, an explanation, the address, their name and e-mail (not for the minors
 * category), good faith, and for copyright the original work, its rights holder and the sworn statement.
 */
export function ReportPage() {
  const { t } = useTranslation();
  const { bookId, authorId, reviewId, from } = subjectOf(useSearch());
  const { user } = useAuth();
  const book = useBook(bookId);
  const author = useAuthorProfile(authorId);
  const send = useSendNotice();
  const form = useForm<NoticeInput>({
    resolver: zodResolver(noticeSchema),
    defaultValues: {
      bookId,
      authorId,
      reviewId,
      url: from,
      explanation: "",
      name: user ? [user.firstName, user.lastName].filter(Boolean).join(" ") : "",
      email: user?.email ?? "",
      goodFaith: false,
      sworn: false,
    },
  });
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = form;
  const category = useWatch({ control, name: "category" });
  const named = book.data?.title ?? author.data?.author.displayName;
  // A review is named by the book it is about, which its page's address carries: the Report link's "from".
  const title =
    reviewId !== undefined
      ? t("report.titleReview")
      : named
        ? t("report.titleOf", { title: named })
        : t(bookId === undefined ? "report.titleAuthor" : "report.titleBook");

  if (bookId === undefined && authorId === undefined && reviewId === undefined) return <PageFrame title={t("report.titleAuthor")} description={t("report.missingSubject")} />;
  if (send.isSuccess) {
    const email = send.variables.email;
    return (
      <PageFrame title={t("report.sentTitle")} description={t("report.sentBody", { reference: send.data.id })} headingTestId="report-sent">
        <p className="mt-4 max-w-prose">{email ? t("report.sentMailed", { email }) : t("report.sentAnonymous")}</p>
        <Link href={new URL(from).pathname} className={`mt-6 inline-block ${textLinkClassName}`}>
          {t("report.back")}
        </Link>
      </PageFrame>
    );
  }
  const submit = handleSubmit((notice) => send.mutate(notice, { onError: (error) => showServerErrors(error, form) }));
  const optionalIdentity = category === "minors";

  return (
    <PageFrame title={title} description={t("report.intro")}>
      <form noValidate onSubmit={(event) => void submit(event)} className="mt-8 max-w-2xl space-y-6">
        <FormAlert message={errors.root?.server?.message} />
        <RadioCardsField
          legend={t("report.category")}
          options={noticeCategories.map((value) => ({ value, label: t(`report.categories.${value}.label`), hint: t(`report.categories.${value}.hint`) }))}
          errorKey={errors.category?.message}
          testIdPrefix="report-category-"
          {...register("category")}
        />
        <TextAreaField label={t("report.explanation")} hint={t("report.explanationHint")} required errorKey={errors.explanation?.message} {...register("explanation")} />
        <TextField label={t("report.url")} hint={t("report.urlHint")} type="url" required errorKey={errors.url?.message} {...register("url")} />
        {category === "copyright" && (
          <>
            <TextAreaField label={t("report.originalWork")} hint={t("report.originalWorkHint")} required errorKey={errors.originalWork?.message} {...register("originalWork")} />
            <TextField label={t("report.rightsHolder")} hint={t("report.rightsHolderHint")} required errorKey={errors.rightsHolder?.message} {...register("rightsHolder")} />
          </>
        )}
        <TextField label={t("report.name")} autoComplete="name" optional={optionalIdentity} required={!optionalIdentity} errorKey={errors.name?.message} {...register("name")} />
        <TextField
          label={t("report.email")}
          hint={t("report.emailHint")}
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          optional={optionalIdentity}
          required={!optionalIdentity}
          errorKey={errors.email?.message}
          {...register("email")}
        />
        {category === "copyright" && <CheckboxField label={t("report.sworn")} errorKey={errors.sworn?.message} {...register("sworn")} />}
        <CheckboxField label={t("report.goodFaith")} errorKey={errors.goodFaith?.message} data-testid="report-good-faith" {...register("goodFaith")} />
        {errors.bookId?.message && <FormAlert message={t(errors.bookId.message)} />}
        <SubmitButton testId="report-submit" isPending={send.isPending} label={t("report.submit")} pendingLabel={t("report.pending")} />
      </form>
    </PageFrame>
  );
}
