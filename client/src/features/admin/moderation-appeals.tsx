import { zodResolver } from "@hookform/resolvers/zod";
import { type AppealForReview, type AppealOutcome, type AppealSummary, appealOutcomeSchema } from "@shared/appeals";
import { bookPath } from "@shared/book-urls";
import { isReviewAction } from "@shared/moderation";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { apiRequest } from "@/lib/api";
import { showServerErrors } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import { useNumberFormat } from "@/lib/use-number-format";
import { FormAlert } from "@/ui/form-alert";
import { buttonClassName, panelClassName, textLinkClassName } from "@/ui/styles";
import { TextAreaField } from "@/ui/text-area-field";
import { AdminSection, QueryBoundary, SectionSkeleton } from "./admin-section";

const APPEALS_KEY = "/api/admin/appeals";

/** The admin grants or rejects one appeal with the reasons its author is told (docs/product.md#appeals). */
function AppealDecisionForm({ appeal }: { appeal: AppealForReview }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<AppealOutcome>({ resolver: zodResolver(appealOutcomeSchema), defaultValues: { facts: "" } });
  const aboutReview = isReviewAction(appeal.decision.action);
  const decide = useMutation({
    mutationFn: async (outcome: AppealOutcome): Promise<AppealSummary> =>
      (await apiRequest("POST", `/api/admin/appeals/${appeal.id}/decision`, outcome)).json() as Promise<AppealSummary>,
    onSuccess: async (decided) => {
      toast({ title: t(decided.status === "rejected" ? "admin.appeals.rejected" : aboutReview ? "admin.appeals.grantedReview" : "admin.appeals.granted") });
      // A granted appeal restores the book or the review: the notices' queue, the catalog and the average move with it.
      await queryClient.invalidateQueries();
    },
    onError: (error) => showServerErrors(error, form),
  });
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors },
  } = form;
  const submitAs = (outcome: AppealOutcome["outcome"]) => () => setValue("outcome", outcome);
  return (
    <form noValidate onSubmit={(event) => void handleSubmit((outcome) => decide.mutate(outcome))(event)} className="mt-4 space-y-3">
      <FormAlert message={errors.root?.server?.message} />
      <TextAreaField label={t("admin.appeals.facts")} hint={t("admin.appeals.factsHint")} required errorKey={errors.facts?.message} {...register("facts")} />
      <div className="flex flex-wrap gap-3">
        <button type="submit" disabled={decide.isPending} onClick={submitAs("granted")} data-testid="appeal-grant" className={buttonClassName("primary")}>
          {t(aboutReview ? "admin.appeals.grantReview" : "admin.appeals.grant")}
        </button>
        <button type="submit" disabled={decide.isPending} onClick={submitAs("rejected")} data-testid="appeal-reject" className={buttonClassName("dangerOutline")}>
          {t("admin.appeals.reject")}
        </button>
      </div>
    </form>
  );
}

function AppealCard({ appeal }: { appeal: AppealForReview }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const { decision } = appeal;
  return (
    <li data-testid="admin-appeal" className={panelClassName}>
      <p className="font-semibold">
        {t(`admin.appeals.kinds.${appeal.kind}`)}
        <span className="text-ink-muted"> · </span>
        {appeal.book ? (
          <Link href={bookPath(appeal.book)} className={textLinkClassName}>
            {appeal.book.title}
          </Link>
        ) : (
          appeal.account.name
        )}
      </p>
      <p className="text-sm text-ink-muted">{t("admin.appeals.sent", { name: appeal.account.name, date: format.date(appeal.createdAt) })}</p>
      <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_minmax(0,1fr)]">
        <dt className="font-medium">{t("admin.appeals.contested")}</dt>
        <dd>
          {t(`moderation.actions.${decision.action}`)}
          {decision.ground && ` — ${t(`moderation.grounds.${decision.ground}`)}`} ({format.date(decision.createdAt)})
        </dd>
        {appeal.review && (
          <>
            <dt className="font-medium">{t("admin.appeals.review")}</dt>
            <dd data-testid="admin-appeal-review" className="break-words whitespace-pre-line">
              {appeal.review.text}
            </dd>
          </>
        )}
        <dt className="font-medium">{t("moderation.statements.facts")}</dt>
        <dd className="break-words whitespace-pre-line">{decision.facts}</dd>
        <dt className="font-medium">{t("admin.appeals.statement")}</dt>
        <dd className="break-words whitespace-pre-line">{appeal.statement}</dd>
        {appeal.legalName && (
          <>
            <dt className="font-medium">{t("admin.appeals.identity")}</dt>
            <dd className="break-words">
              {appeal.legalName}, {appeal.postalAddress}, {appeal.phone}
            </dd>
          </>
        )}
      </dl>
      <AppealDecisionForm appeal={appeal} />
    </li>
  );
}

/** The open appeals and counter-notices, oldest first, each decided with its reasons (docs/product.md#appeals). */
export function ModerationAppeals() {
  const { t } = useTranslation();
  const appeals = useQuery<AppealForReview[]>({ queryKey: [APPEALS_KEY] });
  return (
    <AdminSection headingId="admin-appeals-heading" title={t("admin.appeals.title")} description={t("admin.appeals.description")} testId="admin-appeals">
      <QueryBoundary query={appeals} loadErrorKey="admin.appeals.loadError" skeleton={<SectionSkeleton rows={2} />}>
        {(open) =>
          open.length === 0 ? (
            <p className="text-ink-muted">{t("admin.appeals.none")}</p>
          ) : (
            <ul role="list" className="space-y-4">
              {open.map((appeal) => (
                <AppealCard key={appeal.id} appeal={appeal} />
              ))}
            </ul>
          )
        }
      </QueryBoundary>
    </AdminSection>
  );
}
