import { type ModerationDecision, statementAnchor } from "@shared/moderation";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { usePublicConfig } from "@/lib/public-config";
import { useNumberFormat } from "@/lib/use-number-format";
import { Panel } from "@/ui/panel";
import { textLinkClassName } from "@/ui/styles";

/** Where a restricted book's badge leads: the statements below. */
export const MODERATION_STATEMENTS_ANCHOR = "moderation-decisions";
const RESTRICTING = new Set<ModerationDecision["action"]>(["hide", "remove", "suspend"]);

function Statement({ decision, contactEmail }: { decision: ModerationDecision; contactEmail: string | null }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const restricting = RESTRICTING.has(decision.action);
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
          {decision.bookTitle ? t("moderation.statements.about", { title: decision.bookTitle }) : t("moderation.statements.aboutAccount")}
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
      {restricting && (
        <p className="text-sm">
          {beforeContact}
          {contact}
          {afterContact}
        </p>
      )}
    </li>
  );
}

/**
 * The statements of reasons about the author's books and account (docs/product.md#moderation), newest
 * first; nothing shows while there are none.
 */
export function ModerationStatements() {
  const { t } = useTranslation();
  const decisions = useQuery<ModerationDecision[]>({ queryKey: ["/api/moderation/decisions"] });
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
