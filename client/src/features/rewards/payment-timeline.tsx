import { statementAnchor } from "@shared/moderation";
import type { AuthorPayment, PaymentCancellation, PaymentWait } from "@shared/wallet";
import { useTranslation } from "react-i18next";
import { CheckIcon, WalletIcon, WarningIcon } from "@/ui/icons";
import { useDateTimeFormat } from "@/lib/use-date-time-format";
import { useNumberFormat } from "@/lib/use-number-format";
import { textLinkClassName } from "@/ui/styles";

type StepName = "owed" | "wallet" | "sent" | "finalized" | "failed" | "cancelled";
type StepState = "done" | "current" | "upcoming" | "failed";

interface Step {
  name: StepName;
  at: string | null;
  state: StepState;
}

/**
 * Owed → sent → finalized (docs/product.md#what-authors-see). A failed payment ends on its failure
 * instead, after a "sent" step only when it was sent; a cancelled one, never sent, ends on its
 * cancellation (docs/decisions/0090). The first step without its time is the one the payment is at,
 * unless its book holds it under review: then no step is under way, and none looks it. A payment that
 * waits for the author's wallet is at a step of its own, the wallet, before "sent" (docs/product.md#what-authors-see).
 */
function timelineSteps(payment: AuthorPayment): Step[] {
  const ended = payment.status === "failed" || payment.status === "cancelled";
  const last: { name: StepName; at: string | null } =
    payment.status === "failed"
      ? { name: "failed", at: null }
      : payment.status === "cancelled"
        ? { name: "cancelled", at: payment.cancellation?.at ?? null }
        : { name: "finalized", at: payment.completedAt };
  const named: Array<{ name: StepName; at: string | null }> = [
    { name: "owed", at: payment.triggeredAt },
    ...(payment.waiting?.reason === "no-wallet" ? [{ name: "wallet" as const, at: null }] : []),
    ...(ended && !payment.sentAt ? [] : [{ name: "sent" as const, at: payment.sentAt }]),
    last,
  ];
  const current = payment.waiting?.reason === "under-review" ? -1 : named.findIndex((step) => step.at === null);
  return named.map((step, index) => ({
    ...step,
    state: step.name === "failed" || step.name === "cancelled" ? "failed" : step.at !== null ? "done" : index === current ? "current" : "upcoming",
  }));
}

const markerClassNames: Record<StepState, string> = {
  done: "bg-accent text-white",
  current: "border-2 border-amber-500 bg-surface",
  upcoming: "border-2 border-line bg-surface",
  failed: "bg-red-600 text-white",
};

function StepMarker({ state }: { state: StepState }) {
  return (
    <span aria-hidden="true" className={`absolute top-0.5 left-0 grid size-4 place-items-center rounded-full ${markerClassNames[state]}`}>
      {state === "done" && <CheckIcon className="size-3" />}
      {state === "current" && <span className="size-1.5 rounded-full bg-amber-500" />}
      {state === "failed" && <span className="text-[0.625rem] leading-none font-bold">✕</span>}
    </span>
  );
}

/** The link from a held or cancelled payment to the statement of reasons on the dashboard. */
function StatementLink({ decisionId }: { decisionId: number }) {
  const { t } = useTranslation();
  return (
    <a data-testid="payment-statement-link" href={`/dashboard#${statementAnchor(decisionId)}`} className={textLinkClassName}>
      {t("payments.readStatement")}
    </a>
  );
}

/**
 * A payment its book holds while under review (docs/decisions/0090): since when and why, the facts of
 * the decision in force or the kind of notice; never "on its way".
 */
function UnderReviewSentence({ waiting }: { waiting: Extract<PaymentWait, { reason: "under-review" }> }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const date = format.date(waiting.since);
  const { because } = waiting;
  return (
    <div data-testid="payment-wait" data-reason={waiting.reason} className="mt-2 rounded-md border border-line bg-paper px-3 py-2 text-sm">
      <p className="break-words">
        {because.kind === "decision"
          ? t("payments.underReview.decision", { date, facts: because.facts })
          : t(`payments.underReview.${because.category}`, { date })}
      </p>
      <p className="mt-1 text-ink-muted">
        {t("payments.underReview.whatNext")}
        {because.kind === "decision" && (
          <>
            {" "}
            <StatementLink decisionId={because.decisionId} />
          </>
        )}
      </p>
    </div>
  );
}

/** A payment a removal cancelled: when, the statement's facts, and the way to the statement itself. */
function CancellationSentence({ cancellation }: { cancellation: PaymentCancellation }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  return (
    <p data-testid="payment-cancellation" className="mt-2 rounded-md border border-line bg-paper px-3 py-2 text-sm break-words">
      {t("payments.cancelled", { date: format.date(cancellation.at), facts: cancellation.facts })} <StatementLink decisionId={cancellation.decisionId} />
    </p>
  );
}

/** Why a pending payment waits, in one sentence: a missing wallet is the author's to end, so it stands out. */
function WaitSentence({ waiting }: { waiting: PaymentWait }) {
  const { t } = useTranslation();
  const format = useDateTimeFormat();
  if (waiting.reason === "under-review") return <UnderReviewSentence waiting={waiting} />;
  if (waiting.reason === "no-wallet") {
    return (
      <p data-testid="payment-wait" data-reason={waiting.reason} className="mt-2 flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
        <WalletIcon className="mt-0.5 size-4 shrink-0" />
        {t("payments.wait.no-wallet")}
      </p>
    );
  }
  const text =
    waiting.reason === "hold"
      ? t("payments.wait.hold", { when: format.dateTime(waiting.until) })
      : waiting.reason === "retry"
        ? t("payments.wait.retry", { when: format.moment(waiting.until) })
        : t(`payments.wait.${waiting.reason}`);
  return (
    <p data-testid="payment-wait" data-reason={waiting.reason} className="mt-2 text-sm text-ink-muted">
      {text}
    </p>
  );
}

function FailureSentence({ reason }: { reason: string | null }) {
  const { t } = useTranslation();
  return (
    <p data-testid="payment-failure" className="mt-2 flex items-start gap-2 rounded-md border border-danger/40 bg-danger-soft px-3 py-2 text-sm text-danger">
      <WarningIcon className="mt-0.5 size-4 shrink-0" />
      <span className="min-w-0 break-words">
        {reason ? (
          <>
            {t("payments.failure.withReason")}{" "}
            {/* The chain's or the node's own words, untranslated. */}
            <span lang="en" className="font-mono text-xs">
              {reason}
            </span>
          </>
        ) : (
          t("payments.failure.unknown")
        )}
      </span>
    </p>
  );
}

/** A payment's steps with their times, then why it waits or why it failed; the words carry it all, the markers only repeat them. */
export function PaymentTimeline({ payment }: { payment: AuthorPayment }) {
  const { t } = useTranslation();
  const format = useDateTimeFormat();
  return (
    <div className="mt-3">
      <ol aria-label={t("payments.timeline.label")} data-testid="payment-timeline" className="space-y-2">
        {timelineSteps(payment).map((step) => (
          <li
            key={step.name}
            data-step={step.name}
            data-state={step.state}
            aria-current={step.state === "current" ? "step" : undefined}
            // The line down to the next marker; the last step has none.
            className="relative flex flex-wrap items-baseline justify-between gap-x-3 pl-6 text-sm before:absolute before:top-5 before:-bottom-2 before:left-[7px] before:w-0.5 before:bg-line-strong/30 last:before:hidden"
          >
            <StepMarker state={step.state} />
            <span className={step.state === "upcoming" ? "text-ink-muted" : "font-medium"}>{t(`payments.timeline.${step.name}`)}</span>
            {step.at ? (
              <time dateTime={step.at} className="text-ink-muted tabular-nums">
                {format.dateTime(step.at)}
              </time>
            ) : (
              step.state !== "failed" && <span className="text-ink-muted italic">{t("payments.timeline.notYet")}</span>
            )}
          </li>
        ))}
      </ol>
      {payment.waiting && <WaitSentence waiting={payment.waiting} />}
      {payment.status === "failed" && <FailureSentence reason={payment.failureReason} />}
      {payment.cancellation && <CancellationSentence cancellation={payment.cancellation} />}
    </div>
  );
}
