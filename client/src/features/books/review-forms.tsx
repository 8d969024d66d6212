import { zodResolver } from "@hookform/resolvers/zod";
import { type PublicReview, type ReplyInput, type ReviewInput, replySchema, reviewSchema } from "@shared/reviews";
import { useId } from "react";
import { useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useReply, useWriteReview } from "@/features/books/use-reviews";
import { showServerErrors } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import { FormAlert } from "@/ui/form-alert";
import { StarIcon } from "@/ui/icons";
import { buttonClassName } from "@/ui/styles";
import { SubmitButton } from "@/ui/submit-button";
import { TextAreaField } from "@/ui/text-area-field";

const STARS = [1, 2, 3, 4, 5] as const;

/** The stars of the review form: five radio buttons in a fieldset, the keyboard's own. */
function StarField({ value, onChange, error }: { value: number; onChange: (rating: number) => void; error?: string }) {
  const { t } = useTranslation();
  const name = useId();
  return (
    <fieldset>
      <legend className="font-semibold">{t("reviews.ratingLabel")}</legend>
      <div className="mt-1 flex">
        {STARS.map((star) => (
          <label key={star} className="cursor-pointer rounded p-1 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent">
            <input type="radio" name={name} value={star} checked={value === star} onChange={() => onChange(star)} className="sr-only" data-testid={`review-star-${star}`} />
            <span className="sr-only">{t("reviews.stars", { rating: star })}</span>
            <StarIcon filled={star <= value} />
          </label>
        ))}
      </div>
      {error && <p className="mt-1 text-sm text-negative">{t(error)}</p>}
    </fieldset>
  );
}

/** Writing or editing the reader's one review, with its stars (docs/product.md#reviews). */
export function ReviewForm({ bookId, initial, onDone }: { bookId: number; initial: { rating: number; text: string }; onDone: () => void }) {
  const { t } = useTranslation();
  const write = useWriteReview(bookId);
  const form = useForm<ReviewInput>({ resolver: zodResolver(reviewSchema), defaultValues: initial });
  const rating = useWatch({ control: form.control, name: "rating" });
  const submit = form.handleSubmit((review) =>
    write.mutate(review, {
      onSuccess: () => {
        toast({ title: t("reviews.published") });
        onDone();
      },
      onError: (error) => showServerErrors(error, form),
    }),
  );
  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="mt-4 max-w-2xl space-y-4" data-testid="review-form">
      <FormAlert message={form.formState.errors.root?.server?.message} />
      <StarField
        value={rating}
        onChange={(star) => form.setValue("rating", star, { shouldValidate: form.formState.isSubmitted })}
        error={form.formState.errors.rating ? "reviews.ratingRequired" : undefined}
      />
      <TextAreaField label={t("reviews.textLabel")} hint={t("reviews.textHint")} required rows={6} errorKey={form.formState.errors.text?.message} data-testid="review-text" {...form.register("text")} />
      <div className="flex flex-wrap gap-3">
        <SubmitButton testId="review-submit" isPending={write.isPending} label={t(initial.text ? "reviews.save" : "reviews.publish")} pendingLabel={t("reviews.publishing")} />
        <button type="button" onClick={onDone} className={buttonClassName("secondary")}>
          {t("reviews.cancel")}
        </button>
      </div>
    </form>
  );
}

export function ReplyForm({ bookId, review, onDone }: { bookId: number; review: PublicReview; onDone: () => void }) {
  const { t } = useTranslation();
  const reply = useReply(bookId, review.id);
  const form = useForm<ReplyInput>({ resolver: zodResolver(replySchema), defaultValues: { text: review.reply?.text ?? "" } });
  const submit = form.handleSubmit((values) => reply.mutate(values, { onSuccess: onDone, onError: (error) => showServerErrors(error, form) }));
  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="mt-3 space-y-3" data-testid="reply-form">
      <FormAlert message={form.formState.errors.root?.server?.message} />
      <TextAreaField label={t("reviews.replyLabel")} hint={t("reviews.replyHint")} required rows={3} errorKey={form.formState.errors.text?.message} data-testid="reply-text" {...form.register("text")} />
      <div className="flex flex-wrap gap-3">
        <SubmitButton testId="reply-submit" isPending={reply.isPending} label={t("reviews.replyPublish")} pendingLabel={t("reviews.publishing")} />
        <button type="button" onClick={onDone} className={buttonClassName("secondary")}>
          {t("reviews.cancel")}
        </button>
      </div>
    </form>
  );
}

