import { zodResolver } from "@hookform/resolvers/zod";
import { type AppealInput, type AppealKind, type AppealSummary, appealSchema } from "@shared/appeals";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { apiRequest } from "@/lib/api";
import { showServerErrors } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import { CheckboxField } from "@/ui/checkbox-field";
import { FormAlert } from "@/ui/form-alert";
import { buttonClassName } from "@/ui/styles";
import { SubmitButton } from "@/ui/submit-button";
import { TextAreaField } from "@/ui/text-area-field";
import { TextField } from "@/ui/text-field";

const DECISIONS_KEY = ["/api/moderation/decisions"];

/**
 * The author's appeal against a decision about their book (docs/product.md#appeals): a statement, and
 * for a copyright decision the DMCA counter-notice's identity and sworn statements. Validated by the
 * same schema as the call; sent once, then the statement shows the appeal.
 */
export function AppealForm({ decisionId, kind, title, onClose }: { decisionId: number; kind: AppealKind; title: string; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<AppealInput>({
    resolver: zodResolver(appealSchema),
    defaultValues:
      kind === "counter-notice"
        ? { kind, statement: "", legalName: "", postalAddress: "", phone: "", swornMistake: false, consentJurisdiction: false }
        : { kind, statement: "" },
  });
  const send = useMutation({
    mutationFn: async (appeal: AppealInput): Promise<AppealSummary> =>
      (await apiRequest("POST", `/api/moderation/decisions/${decisionId}/appeal`, appeal)).json() as Promise<AppealSummary>,
    onSuccess: async () => {
      toast({ title: t("moderation.appealForm.sent") });
      await queryClient.invalidateQueries({ queryKey: DECISIONS_KEY });
      onClose();
    },
    onError: (error) => showServerErrors(error, form),
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  // The union's fields differ by kind; the form shows the counter-notice's only for that kind.
  const counterErrors = errors as Partial<Record<"legalName" | "postalAddress" | "phone" | "swornMistake" | "consentJurisdiction", { message?: string }>>;
  const counter = kind === "counter-notice";
  const heading = t(counter ? "moderation.appealForm.counterNoticeTitle" : "moderation.appealForm.appealTitle", { title });

  return (
    <form
      noValidate
      aria-label={heading}
      data-testid="appeal-form"
      onSubmit={(event) => void handleSubmit((appeal) => send.mutate(appeal))(event)}
      className="mt-3 space-y-5 rounded-lg border border-line bg-paper p-4"
    >
      <h3 className="font-semibold">{heading}</h3>
      <p className="text-sm text-ink-muted">{t(counter ? "moderation.appealForm.counterNoticeIntro" : "moderation.appealForm.appealIntro")}</p>
      <FormAlert message={errors.root?.server?.message} />
      <TextAreaField label={t("moderation.appealForm.statement")} hint={t("moderation.appealForm.statementHelp")} required errorKey={errors.statement?.message} {...register("statement")} />
      {counter && (
        <>
          <TextField label={t("moderation.appealForm.legalName")} autoComplete="name" required errorKey={counterErrors.legalName?.message} {...register("legalName")} />
          <TextAreaField label={t("moderation.appealForm.postalAddress")} required errorKey={counterErrors.postalAddress?.message} {...register("postalAddress")} />
          <TextField label={t("moderation.appealForm.phone")} type="tel" autoComplete="tel" required errorKey={counterErrors.phone?.message} {...register("phone")} />
          <CheckboxField label={t("moderation.appealForm.swornMistake")} errorKey={counterErrors.swornMistake?.message} {...register("swornMistake")} />
          <CheckboxField label={t("moderation.appealForm.consentJurisdiction")} errorKey={counterErrors.consentJurisdiction?.message} {...register("consentJurisdiction")} />
        </>
      )}
      <div className="flex flex-wrap gap-3">
        <SubmitButton
          testId="appeal-submit"
          className=""
          isPending={send.isPending}
          label={t(counter ? "moderation.appealForm.submitCounterNotice" : "moderation.appealForm.submitAppeal")}
          pendingLabel={t("moderation.appealForm.pending")}
        />
        <button type="button" onClick={onClose} className={buttonClassName("secondary")}>
          {t("moderation.appealForm.cancel")}
        </button>
      </div>
    </form>
  );
}
