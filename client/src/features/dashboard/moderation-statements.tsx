import type { DecisionForAuthor } from "@shared/appeals";
import { isReviewAction, statementAnchor } from "@shared/moderation";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { usePublicConfig } from "@/lib/public-config";
import { useNumberFormat } from "@/lib/use-number-format";
import { Panel } from "@/ui/panel";
import { buttonClassName, textLinkClassName } from "@/ui/styles";
import { AppealForm } from "./appeal-form";

/** Where a restricted book's badge leads: the statements below. */
export const MODERATION_STATEMENTS_ANCHOR = "moderation-decisions";

/** A suspended account cannot sign in to appeal: it writes to the contact address. */
function WriteToContest({ contactEmail }: { contactEmail: string | null }) {
  const { t } = useTranslation();
  const contact = contactEmail ? (
    <a href={`mailto:${contactEmail}`} className={textLinkClassName}>
      {contactEmail}
    </a>
  ) : (
    <Link href="/contact" className={textLinkClassName}>
      {t("moderation.statements.contestPage")}
    </Link>
  );
  const [beforeContact, afterContact] = t("moderation.statements.contest", { contact: "\u0000" }).split("\u0000");
  return (
    <p className="text-sm">
      {beforeContact}
      {contact}
      {afterContact}
    </p>
  );
}

/** Where the author stands on contesting a decision: the appeal sent and its outcome, or the way to send one (docs/product.md#appeals). */
function ContestState({ decision, contactEmail }: { decision: DecisionForAuthor; contactEmail: string | null }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const [appealing, setAppealing] = useState(false);
  const { appeal, contest } = decision;
  if (appeal) {
    const said =
      appeal.status === "open"
        ? t(appeal.kind === "counter-notice" ? "moderation.statements.counterNoticeOpen" : "moderation.statements.appealOpen", { date: format.date(appeal.createdAt) })
        : t(appeal.status === "granted" ? "moderation.statements.appealGranted" : "moderation.statements.appealRejected", { date: format.date(appeal.decidedAt!) });
    return (
      <div data-testid="appeal-state" data-status={appeal.status} className="rounded-md bg-accent-soft/50 p-3 text-sm">
        <p>{said}</p>
        {appeal.outcomeFacts && <p className="mt-1 break-words whitespace-pre-line">{t("moderation.statements.appealReasons", { facts: appeal.outcomeFacts })}</p>}
      </div>
    );
  }
  if (contest) {
    return (
      <div>
        <p className="text-sm">{t("moderation.statements.contestBook", { date: format.date(contest.until) })}</p>
        {appealing ? (
          <AppealForm decisionId={decision.id} kind={contest.kind} title={decision.bookTitle ?? ""} onClose={() => setAppealing(false)} />
        ) : (
          <button type="button" data-testid="appeal-open" onClick={() => setAppealing(true)} className={buttonClassName("secondary", "mt-3")}>
            {t(contest.kind === "counter-notice" ? "moderation.statements.counterNoticeAction" : "moderation.statements.appealAction")}
          </button>
        )}
      </div>
    );
  }
  return decision.action === "suspend" ? <WriteToContest contactEmail={contactEmail} /> : null;
}

function Statement({ decision, contactEmail }: { decision: DecisionForAuthor; contactEmail: string | null }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  return (
    <li
      id={statementAnchor(decision.id)}
      data-testid="moderation-statement"
      data-action={decision.action}
      className="scroll-mt-24 space-y-2 py-4 first:pt-0 last:pb-0"
    >
      <p className="font-semibold">
        {t(`moderation.actions.${decision.action}`)}
        <span className="text-ink-muted"> · </span>
        <span className="font-normal break-words">
          {isReviewAction(decision.action)
            ? t("moderation.statements.aboutReview", { title: decision.bookTitle ?? "" })
            : decision.bookTitle
              ? t("moderation.statements.about", { title: decision.bookTitle })
              : t("moderation.statements.aboutAccount")}
        </span>
      </p>
      <p className="text-sm text-ink-muted">{t("moderation.statements.decidedOn", { date: format.date(decision.createdAt) })}</p>
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_minmax(0,1fr)]">
        {decision.ground && (
          <>
            <dt className="font-medium">{t("moderation.statements.ground")}</dt>
            <dd>{t(`moderation.grounds.${decision.ground}`)}</dd>
          </>
        )}
        <dt className="font-medium">{t("moderation.statements.basis")}</dt>
        <dd>{t(`moderation.bases.${decision.basis}`)}</dd>
        <dt className="font-medium">{t("moderation.statements.facts")}</dt>
        <dd className="break-words whitespace-pre-line">{decision.facts}</dd>
      </dl>
      <ContestState decision={decision} contactEmail={contactEmail} />
    </li>
  );
}

/**
 * The statements of reasons about the account, its books and its reviews (docs/product.md#moderation),
 * newest first; nothing shows while there are none.
 */
export function ModerationStatements() {
  const { t } = useTranslation();
  const decisions = useQuery<DecisionForAuthor[]>({ queryKey: ["/api/moderation/decisions"] });
  const { data: config } = usePublicConfig();
  const none = decisions.isSuccess && decisions.data.length === 0;
  if (decisions.isPending || none) return null;
  return (
    <div id={MODERATION_STATEMENTS_ANCHOR} className="scroll-mt-24">
      <Panel title={t("moderation.statements.title")} description={t("moderation.statements.description")}>
        {decisions.isError ? (
          <p className="mt-4 text-ink-muted">{t("moderation.statements.fetchError")}</p>
        ) : (
          <ul role="list" className="mt-4 divide-y divide-line">
            {decisions.data.map((decision) => (
              <Statement key={decision.id} decision={decision} contactEmail={config?.contactEmail ?? null} />
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}
