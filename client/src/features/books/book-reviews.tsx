import { bookPath, reportPath } from "@shared/book-urls";
import type { BookCard } from "@shared/books";
import type { PublicReview, ReviewSort, ReviewViewer } from "@shared/reviews";
import { Suspense, lazy, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { useAuth } from "@/features/accounts";
import { useDeleteReview, useHelpful, useReply, useReviews } from "@/features/books/use-reviews";
import { errorText } from "@/lib/error-text";
import { loadOtherScreenTexts } from "@/lib/i18n";
import { toast } from "@/lib/toast";
import { useNumberFormat } from "@/lib/use-number-format";
import { loginPathReturningTo, useReturnPath } from "@/lib/use-return-path";
import { StarIcon } from "@/ui/icons";
import { buttonClassName, textLinkClassName } from "@/ui/styles";

const STARS = [1, 2, 3, 4, 5] as const;
// The shared schemas (zod, react-hook-form) come only with the forms, once a reader opens one.
const SORTS = ["newest", "helpful"] as const satisfies readonly ReviewSort[];
const reviewForms = () => Promise.all([import("@/features/books/review-forms"), loadOtherScreenTexts()]).then(([module]) => module);
const ReviewForm = lazy(() => reviewForms().then((module) => ({ default: module.ReviewForm })));
const ReplyForm = lazy(() => reviewForms().then((module) => ({ default: module.ReplyForm })));

function useDate() {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? "en", { dateStyle: "medium" });
  return (iso: string) => format.format(new Date(iso));
}

function failed(error: unknown) {
  toast({ variant: "destructive", title: errorText(error) });
}

/** Five stars read out as "4 out of 5 stars". */
function Stars({ rating }: { rating: number }) {
  const { t } = useTranslation();
  return (
    <span role="img" aria-label={t("reviewList.stars", { rating })} className="inline-flex text-accent">
      {STARS.map((star) => (
        <StarIcon key={star} filled={star <= rating} className="size-4" />
      ))}
    </span>
  );
}

/** One review: the reader, the stars, the date, "edited", the words as text, the author's reply, "Helpful (3)" and Report. */
function ReviewItem({ book, review, viewer, signedIn }: { book: BookCard; review: PublicReview; viewer: ReviewViewer | null; signedIn: boolean }) {
  const { t } = useTranslation();
  const date = useDate();
  const format = useNumberFormat();
  const helpful = useHelpful(book.id, review.id);
  const reply = useReply(book.id, review.id);
  const [replying, setReplying] = useState(false);
  const canVote = signedIn && !review.mine;
  const authorName = book.author.displayName ?? "";
  return (
    <li data-testid="review" data-review-id={review.id} className="py-5">
      <article aria-label={review.readerName}>
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span className="font-semibold break-words">{review.readerName}</span>
          <Stars rating={review.rating} />
          <span className="text-sm text-ink-muted">
            <time dateTime={review.createdAt}>{date(review.createdAt)}</time>
            {review.editedAt && ` · ${t("reviewList.edited")}`}
          </span>
        </p>
        <p lang={book.language} className="mt-2 max-w-prose break-words whitespace-pre-line" data-testid="review-body">
          {review.text}
        </p>
        {review.reply && !replying && (
          <div className="mt-3 ml-4 border-l-4 border-line pl-3" data-testid="review-reply">
            <p className="text-sm font-semibold">
              {t("reviewList.reply")} · {authorName} · <time dateTime={review.reply.at}>{date(review.reply.at)}</time>
            </p>
            <p className="mt-1 max-w-prose break-words whitespace-pre-line">{review.reply.text}</p>
          </div>
        )}
        {replying && (
          <Suspense fallback={null}>
            <ReplyForm bookId={book.id} review={review} onDone={() => setReplying(false)} />
          </Suspense>
        )}
        <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
          {canVote ? (
            <button
              type="button"
              aria-pressed={review.votedHelpful}
              data-testid="review-helpful"
              disabled={helpful.isPending}
              onClick={() => helpful.mutate(!review.votedHelpful, { onError: failed })}
              className={buttonClassName(review.votedHelpful ? "primary" : "secondary")}
            >
              {t("reviewList.helpfulCount", { n: format.integer(review.helpfulCount) })}
            </button>
          ) : (
            <span className="text-ink-muted" data-testid="review-helpful-count">
              {t("reviewList.helpfulCount", { n: format.integer(review.helpfulCount) })}
            </span>
          )}
          {!review.mine && (
            <Link href={reportPath({ review: review.id }, bookPath(book))} aria-label={t("reviewList.reportLabel", { name: review.readerName })} className={textLinkClassName} data-testid="review-report">
              {t("reviewList.report")}
            </Link>
          )}
          {viewer?.isAuthor && !replying && (
            <>
              <button type="button" onClick={() => setReplying(true)} className={textLinkClassName} data-testid="reply-open">
                {t(review.reply ? "reviewList.replyEdit" : "reviewList.replyAction")}
              </button>
              {review.reply && (
                <button
                  type="button"
                  onClick={() => window.confirm(t("reviewList.replyDeleteConfirm")) && reply.mutate(null, { onError: failed })}
                  className={textLinkClassName}
                  data-testid="reply-delete"
                >
                  {t("reviewList.replyDelete")}
                </button>
              )}
            </>
          )}
        </div>
      </article>
    </li>
  );
}

/** What the caller may do: log in, take the book first, write their review, or see and change it. */
function OwnReview({ book, viewer }: { book: BookCard; viewer: ReviewViewer | null }) {
  const { t } = useTranslation();
  const returnPath = useReturnPath();
  const remove = useDeleteReview(book.id);
  const [editing, setEditing] = useState(false);
  if (!viewer) {
    return (
      <p className="mt-4">
        <Link href={loginPathReturningTo(returnPath)} className={textLinkClassName}>
          {t("reviewList.signIn")}
        </Link>
      </p>
    );
  }
  if (viewer.isAuthor) return <p className="mt-4 text-ink-muted">{t("reviewList.ownBook")}</p>;
  if (editing) {
    return (
      <Suspense fallback={null}>
        <ReviewForm bookId={book.id} initial={{ rating: viewer.review?.rating ?? viewer.rating, text: viewer.review?.text ?? "" }} onDone={() => setEditing(false)} />
      </Suspense>
    );
  }
  if (viewer.review) {
    return (
      <div className="mt-4 flex flex-wrap gap-3" data-testid="own-review-actions">
        <button type="button" onClick={() => setEditing(true)} className={buttonClassName("secondary")} data-testid="review-edit">
          {t("reviewList.edit")}
        </button>
        <button
          type="button"
          onClick={() =>
            window.confirm(t("reviewList.deleteConfirm")) &&
            remove.mutate(undefined, { onSuccess: () => toast({ title: t("reviewList.deleted") }), onError: failed })
          }
          className={buttonClassName("secondary")}
          data-testid="review-delete"
        >
          {t("reviewList.delete")}
        </button>
      </div>
    );
  }
  if (!viewer.tookBook) return <p className="mt-4 text-ink-muted">{t("reviewList.takeFirst")}</p>;
  return (
    <p className="mt-4">
      <button type="button" onClick={() => setEditing(true)} className={buttonClassName("primary")} data-testid="review-write">
        {t("reviewList.write")}
      </button>
    </p>
  );
}

/**
 * A book's reviews on its page (docs/product.md#reviews): loaded after the page is drawn, sorted
 * newest or most helpful first, a page at a time, with the reader's own review and the author's replies.
 */
export function BookReviews({ book }: { book: BookCard }) {
  const { t } = useTranslation();
  const headingId = useId();
  const sortId = useId();
  const { user } = useAuth();
  const [sort, setSort] = useState<ReviewSort>("newest");
  const reviews = useReviews(book.id, sort);
  const pages = reviews.data?.pages ?? [];
  const first = pages[0];
  const viewer = first?.viewer ?? null;
  const shown = pages.flatMap((page) => page.reviews);
  return (
    <section aria-labelledby={headingId} data-testid="book-reviews" className="mt-12 border-t border-line pt-8">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id={headingId} className="text-xl font-semibold">
          {t("reviewList.heading")}
          {first && first.total > 0 && <span className="ml-2 text-base font-normal text-ink-muted">({first.total})</span>}
        </h2>
        <div className="flex items-center gap-2 text-sm">
          <label htmlFor={sortId}>{t("reviewList.sort")}</label>
          <select id={sortId} value={sort} onChange={(event) => setSort(event.target.value as ReviewSort)} className="rounded border border-line bg-paper px-2 py-1" data-testid="review-sort">
            {SORTS.map((value) => (
              <option key={value} value={value}>
                {t(`reviewList.${value}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      {reviews.isPending ? (
        <p className="mt-4 text-ink-muted">{t("reviewList.loading")}</p>
      ) : reviews.isError ? (
        <p className="mt-4 text-negative">{t("reviewList.loadError")}</p>
      ) : (
        <>
          <OwnReview book={book} viewer={user ? viewer : null} />
          {shown.length === 0 ? (
            <p className="mt-4 text-ink-muted">{t("reviewList.empty")}</p>
          ) : (
            <ul role="list" className="mt-4 divide-y divide-line" data-testid="review-list">
              {shown.map((review) => (
                <ReviewItem key={review.id} book={book} review={review} viewer={viewer} signedIn={user !== null && user !== undefined} />
              ))}
            </ul>
          )}
          {reviews.hasNextPage && (
            <button type="button" disabled={reviews.isFetchingNextPage} onClick={() => void reviews.fetchNextPage()} className={`mt-4 ${buttonClassName("secondary")}`} data-testid="reviews-more">
              {t("reviewList.more")}
            </button>
          )}
        </>
      )}
    </section>
  );
}
