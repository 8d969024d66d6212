import { zodResolver } from "@hookform/resolvers/zod";
import {
  type ModerationAction,
  accountModerationSchema,
  bookModerationSchema,
  isRestricting,
  moderationBases,
  moderationGroundKeys,
  reviewDecisionAction,
  reviewModerationSchema,
} from "@shared/moderation";
import { noticeDismissalSchema } from "@shared/notices";
import type { RefObject } from "react";
import { type Resolver, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { type ModerationTarget, useModerationDecision } from "@/features/admin/moderation-queries";
import { showServerErrors } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import { ConfirmDialog } from "@/ui/confirm-dialog";
import { FormAlert } from "@/ui/form-alert";
import { SelectField } from "@/ui/select-field";
import { TextAreaField } from "@/ui/text-area-field";

interface DecisionForm {
  action?: string;
  ground?: string;
  facts: string;
  basis?: string;
}

/** The decision a target is kept as: a review's removal is "remove-review". */
const decisionOf = (target: Exclude<ModerationTarget, { kind: "notice" }>): ModerationAction =>
  target.kind === "review" ? reviewDecisionAction[target.action] : target.action;

/** The action a target stands for, which names the dialog's texts: "dismiss" for a notice. */
export const actionOf = (target: ModerationTarget) => (target.kind === "notice" ? "dismiss" : decisionOf(target));

/** Whether the decision restricts something, and so states the ground it rests on. */
const restricts = (target: ModerationTarget) => target.kind !== "notice" && isRestricting(decisionOf(target));

/**
 * What led to the decision, prefilled: a notice, since the queue is notices; a review's restore is
 * taken from the log, where no notice asks for it.
 */
const basisOf = (target: ModerationTarget) => (target.kind === "review" && target.action === "restore" ? "own-initiative" : "notice");

/** The shared schema the server checks the same request with (docs/product.md#moderation). */
function resolverFor(target: ModerationTarget): Resolver<DecisionForm> {
  const schema =
    target.kind === "notice" ? noticeDismissalSchema : target.kind === "review" ? reviewModerationSchema : target.kind === "book" ? bookModerationSchema : accountModerationSchema;
  return zodResolver(schema) as unknown as Resolver<DecisionForm>;
}

/**
 * The statement of reasons a decision taken from the queue asks for (docs/product.md#moderation): the
 * ground of a restriction, the facts, and what led to it (a notice, prefilled, since the queue is
 * notices); dismissing a notice asks only for the facts its sender is told.
 */
export function DecisionDialog({
  target,
  subject,
  onClose,
  fallbackFocus,
}: {
  target: ModerationTarget;
  subject: string;
  onClose: () => void;
  /** Where the focus goes when the button that opened the dialog left with its group (a settled notice). */
  fallbackFocus: RefObject<HTMLElement | null>;
}) {
  const { t } = useTranslation();
  const decide = useModerationDecision();
  const action = actionOf(target);
  const form = useForm<DecisionForm>({
    resolver: resolverFor(target),
    defaultValues: target.kind === "notice" ? { facts: "" } : { action: target.action, ground: "", facts: "", basis: basisOf(target) },
  });
  const {
    register,
    formState: { errors },
  } = form;

  const submit = form.handleSubmit((values) => {
    const body = target.kind === "notice" ? { facts: values.facts } : values;
    decide.mutate({ target, body } as Parameters<typeof decide.mutate>[0], {
      onSuccess: () => {
        toast({ title: t(`admin.moderation.done.${action}`, { subject }) });
        onClose();
      },
      onError: (error) => showServerErrors(error, form),
    });
  });

  return (
    <ConfirmDialog
      title={t(`admin.moderation.dialog.${action}.title`, { subject })}
      description={t(`admin.moderation.dialog.${action}.description`)}
      confirmLabel={t(`admin.moderation.dialog.${action}.confirm`)}
      pendingLabel={t("admin.moderation.dialog.pending")}
      isPending={decide.isPending}
      onConfirm={() => void submit()}
      onCancel={onClose}
      confirmTestId="moderation-confirm"
      fallbackFocus={fallbackFocus}
    >
      <form
        noValidate
        className="mt-4 space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        {restricts(target) && (
          <SelectField
            label={t("admin.moderation.dialog.ground")}
            placeholder={t("admin.moderation.dialog.groundPlaceholder")}
            options={moderationGroundKeys.map((ground) => ({ value: ground, label: t(`moderation.grounds.${ground}`) }))}
            required
            errorKey={errors.ground?.message}
            data-testid="moderation-ground"
            {...register("ground")}
          />
        )}
        <TextAreaField
          label={t(target.kind === "notice" ? "admin.moderation.dialog.dismissFacts" : "admin.moderation.dialog.facts")}
          hint={t("admin.moderation.dialog.factsHint")}
          required
          errorKey={errors.facts?.message}
          data-testid="moderation-facts"
          {...register("facts")}
        />
        {target.kind !== "notice" && (
          <SelectField
            label={t("admin.moderation.dialog.basis")}
            options={moderationBases.map((basis) => ({ value: basis, label: t(`moderation.bases.${basis}`) }))}
            required
            errorKey={errors.basis?.message}
            {...register("basis")}
          />
        )}
        <FormAlert message={errors.root?.server?.message} />
      </form>
    </ConfirmDialog>
  );
}
