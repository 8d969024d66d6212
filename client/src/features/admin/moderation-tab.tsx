import { type LoggedModerationDecision, isReviewAction } from "@shared/moderation";
import type { NoticeGroup, QueuedNotice } from "@shared/notices";
import { authorPath, bookPath, bookReaderPath } from "@shared/book-urls";
import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { AdminSection, QueryBoundary, SectionSkeleton } from "@/features/admin/admin-section";
import { Badge } from "@/features/admin/badge";
import { DecisionDialog, actionOf } from "@/features/admin/moderation-dialog";
import { type ModerationTarget, useDecisionLog, useNoticeQueue } from "@/features/admin/moderation-queries";
import { useAdminFormat } from "@/features/admin/use-admin-format";
import { buttonClassName, panelClassName, textLinkClassName } from "@/ui/styles";
import { ModerationAppeals } from "./moderation-appeals";

const QUEUE_SKELETON = <SectionSkeleton rows={3} />;
const LOG_SKELETON = <SectionSkeleton rows={4} />;

/** How long ago, as the admin panel says spans of time: "3 h", "1.2 days". */
function useAge() {
  const format = useAdminFormat();
  return (at: string) => format.duration(Math.max(0, (Date.now() - Date.parse(at)) / 1000));
}

function NoticeEntry({ notice, onDismiss }: { notice: QueuedNotice; onDismiss: () => void }) {
  const { t } = useTranslation();
  const age = useAge();
  const format = useAdminFormat();
  const named = notice.reporterName || notice.reporterEmail ? [notice.reporterName, notice.reporterEmail && `<${notice.reporterEmail}>`].filter(Boolean).join(" ") : null;
  // Plume's own copy check sends notices too (docs/decisions/0091): it is named as such, not as an anonymous sender.
  const reporter = named ?? t(notice.source === "automated" ? "admin.moderation.automatedSender" : "admin.moderation.anonymous");
  return (
    <li data-testid="moderation-notice" className="space-y-2 px-4 py-3">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={notice.category === "minors" ? "negative" : "warning"}>{t(`report.categories.${notice.category}.label`)}</Badge>
        <span className="text-sm text-ink-muted">
          {t("admin.moderation.noticeMeta", { id: format.id(notice.id), age: age(notice.createdAt) })}
        </span>
      </div>
      <p className="break-words whitespace-pre-line">{notice.explanation}</p>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_minmax(0,1fr)]">
        <dt className="text-ink-muted">{t("admin.moderation.reporter")}</dt>
        <dd className="wrap-anywhere">{reporter}</dd>
        <dt className="text-ink-muted">{t("admin.moderation.address")}</dt>
        <dd className="break-all">
          <a href={notice.url} className={textLinkClassName} rel="noreferrer noopener" target="_blank">
            {notice.url}
          </a>
        </dd>
        {notice.originalWork && (
          <>
            <dt className="text-ink-muted">{t("report.originalWork")}</dt>
            <dd className="break-words">{notice.originalWork}</dd>
          </>
        )}
        {notice.rightsHolder && (
          <>
            <dt className="text-ink-muted">{t("report.rightsHolder")}</dt>
            <dd className="break-words">
              {notice.rightsHolder}
              {notice.sworn && ` (${t("admin.moderation.sworn")})`}
            </dd>
          </>
        )}
      </dl>
      <button type="button" onClick={onDismiss} className={buttonClassName("ghost", "max-sm:w-full")} data-testid="moderation-dismiss">
        {t("admin.moderation.actions.dismiss")}
      </button>
    </li>
  );
}

/** The decisions a group's subject allows in its present state; the server refuses any other with 409. */
function groupTargets(group: NoticeGroup): ModerationTarget[] {
  const { subject } = group;
  if (subject.kind === "account") return [{ kind: "account", accountId: subject.accountId, action: subject.suspended ? "reinstate" : "suspend" }];
  if (subject.kind === "review") return [{ kind: "review", reviewId: subject.reviewId, action: "remove" }];
  const book = (action: "hide" | "remove" | "restore"): ModerationTarget => ({ kind: "book", bookId: subject.bookId, action });
  const suspend: ModerationTarget = { kind: "account", accountId: subject.accountId, action: "suspend" };
  // Its author deleted it: it is in no list to hide it from or bring back to, but a removal still settles what it did.
  if (subject.deletedAt !== null) return subject.moderationState === null || subject.moderationState === "hidden" ? [book("remove"), suspend] : [suspend];
  if (subject.moderationState === null) return [book("hide"), book("remove"), suspend];
  if (subject.moderationState === "hidden") return [book("remove"), book("restore"), suspend];
  return [book("restore"), suspend];
}

function NoticeGroupCard({ group, onDecide }: { group: NoticeGroup; onDecide: (target: ModerationTarget, subject: string) => void }) {
  const { t } = useTranslation();
  const age = useAge();
  const format = useAdminFormat();
  const headingId = useId();
  const { subject } = group;
  const name = subject.kind === "account" ? subject.accountName : subject.title;
  return (
    <article aria-labelledby={headingId} data-testid="moderation-group" className={panelClassName}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={headingId} className="text-lg font-semibold break-words">
            {name}
          </h3>
          <p className="mt-1 text-sm text-ink-muted">
            {subject.kind === "book"
              ? t("admin.moderation.bookBy", { author: subject.accountName })
              : subject.kind === "review"
                ? t("admin.moderation.reviewBy", { author: subject.accountName, title: subject.title, rating: subject.rating })
                : t("admin.moderation.accountSubject")}
            {" · "}
            {t("admin.moderation.groupMeta", { count: group.notices.length, age: age(group.oldestAt) })}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {group.urgent && <Badge tone="negative">{t("admin.moderation.urgent")}</Badge>}
          {subject.kind === "book" && subject.moderationState && <Badge tone="warning">{t(`moderation.states.${subject.moderationState}`)}</Badge>}
          {subject.kind === "book" && subject.deletedAt !== null && <Badge tone="warning">{t("admin.moderation.deletedByAuthor")}</Badge>}
          {subject.kind === "account" && subject.suspended && <Badge tone="warning">{t("moderation.actions.suspend")}</Badge>}
        </div>
      </div>
      {subject.kind === "review" && (
        <blockquote data-testid="moderation-review-text" className="mt-3 border-l-4 border-line pl-3 break-words whitespace-pre-line">
          {subject.text}
        </blockquote>
      )}
      <p className="mt-3">
        {subject.kind === "review" ? (
          <Link href={bookPath({ id: subject.bookId, title: subject.title })} className={textLinkClassName}>
            {t("admin.moderation.openBook")}
          </Link>
        ) : subject.kind === "book" && subject.deletedAt !== null ? (
          <span data-testid="moderation-deleted-book">{t("admin.moderation.deletedBook", { date: format.dateTime(subject.deletedAt) })}</span>
        ) : subject.kind === "book" ? (
          <Link href={bookReaderPath({ id: subject.bookId })} className={textLinkClassName} data-testid="moderation-open-book">
            {t("admin.moderation.openInReader")}
          </Link>
        ) : (
          <Link href={authorPath({ id: subject.accountId })} className={textLinkClassName}>
            {t("admin.moderation.openAuthor")}
          </Link>
        )}
      </p>
      <ul role="list" className="mt-4 divide-y divide-line rounded-lg border border-line bg-paper">
        {group.notices.map((notice) => (
          <NoticeEntry key={notice.id} notice={notice} onDismiss={() => onDecide({ kind: "notice", noticeId: notice.id }, name)} />
        ))}
      </ul>
      <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {groupTargets(group).map((target) => {
          const action = actionOf(target);
          return (
            <button
              key={action}
              type="button"
              data-testid={`moderation-${action}`}
              onClick={() => onDecide(target, target.kind === "account" ? subject.accountName : name)}
              className={buttonClassName(action === "restore" || action === "reinstate" || action === "restore-review" ? "secondary" : "danger")}
            >
              {t(`admin.moderation.actions.${action}`)}
            </button>
          );
        })}
      </div>
    </article>
  );
}

/** Whom a logged decision is about: a book and its author, a review with its book and writer, or an account. */
function loggedSubject(decision: LoggedModerationDecision, t: (key: string, values?: Record<string, string>) => string): string {
  const named = { title: decision.bookTitle ?? "", author: decision.accountName };
  if (isReviewAction(decision.action)) return t("admin.moderation.log.reviewOf", named);
  return decision.bookTitle ? t("admin.moderation.log.bookOf", named) : decision.accountName;
}

function DecisionLogEntry({ decision, onDecide }: { decision: LoggedModerationDecision; onDecide: (target: ModerationTarget, subject: string) => void }) {
  const { t } = useTranslation();
  const format = useAdminFormat();
  // A review's removal in force is lifted from here: no notice brings a removed review back to the queue.
  const restorable = decision.action === "remove-review" && decision.inEffect && decision.reviewId !== null ? decision.reviewId : null;
  return (
    <li data-testid="moderation-log-entry" data-action={decision.action} className="space-y-1 px-4 py-3">
      <p className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-semibold">{t(`moderation.actions.${decision.action}`)}</span>
        <span className="break-words">{loggedSubject(decision, t)}</span>
      </p>
      <p className="text-sm text-ink-muted">
        {t("admin.moderation.log.byWhen", { who: decision.decidedBy ?? t("admin.moderation.log.automated"), when: format.dateTime(decision.createdAt) })}
        {decision.ground && ` · ${t(`moderation.grounds.${decision.ground}`)}`}
        {` · ${t(`moderation.bases.${decision.basis}`)}`}
      </p>
      {isReviewAction(decision.action) &&
        (decision.reviewExcerpt === null ? (
          <p className="text-sm text-ink-muted">{t("admin.moderation.log.reviewGone")}</p>
        ) : (
          <blockquote data-testid="moderation-log-review" className="border-l-4 border-line pl-3 text-sm break-words">
            {decision.reviewExcerpt}
          </blockquote>
        ))}
      <p className="text-sm break-words whitespace-pre-line">{decision.facts}</p>
      {restorable !== null && (
        <button
          type="button"
          data-testid="moderation-restore-review"
          onClick={() => onDecide({ kind: "review", reviewId: restorable, action: "restore" }, decision.bookTitle ?? "")}
          className={buttonClassName("secondary", "mt-2 max-sm:w-full")}
        >
          {t("admin.moderation.actions.restore-review")}
        </button>
      )}
    </li>
  );
}

/** Every decision, newest first, a page at a time: who, when, what (docs/product.md#moderation). */
function DecisionLog({ onDecide }: { onDecide: (target: ModerationTarget, subject: string) => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const [page, setPage] = useState(1);
  const log = useDecisionLog(page);
  return (
    <AdminSection headingId={headingId} title={t("admin.moderation.log.heading")} description={t("admin.moderation.log.description")} testId="moderation-log">
      <QueryBoundary query={log} loadErrorKey="admin.moderation.log.loadError" skeleton={LOG_SKELETON}>
        {({ decisions, hasMore }) => (
          <>
            {decisions.length === 0 ? (
              <p className="text-ink-muted">{t("admin.moderation.log.empty")}</p>
            ) : (
              <ul role="list" className="divide-y divide-line rounded-lg border border-line bg-surface">
                {decisions.map((decision) => (
                  <DecisionLogEntry key={decision.id} decision={decision} onDecide={onDecide} />
                ))}
              </ul>
            )}
            {(page > 1 || hasMore) && (
              <nav aria-label={t("admin.moderation.log.pages")} className="mt-4 flex gap-2">
                <button type="button" disabled={page === 1} onClick={() => setPage(page - 1)} className={buttonClassName("secondary")}>
                  {t("admin.moderation.log.newer")}
                </button>
                <button type="button" disabled={!hasMore} onClick={() => setPage(page + 1)} className={buttonClassName("secondary")}>
                  {t("admin.moderation.log.older")}
                </button>
              </nav>
            )}
          </>
        )}
      </QueryBoundary>
    </AdminSection>
  );
}

/**
 * The moderation tab (docs/product.md#moderation): the open notices grouped by book and by author,
 * those about minors first, then the oldest, each group with the decisions its state allows; then
 * the log of every decision.
 */
export function ModerationTab() {
  const { t } = useTranslation();
  const headingId = useId();
  const queue = useNoticeQueue();
  const [deciding, setDeciding] = useState<{ target: ModerationTarget; subject: string } | null>(null);
  const tabTop = useRef<HTMLDivElement>(null);
  return (
    <div ref={tabTop} tabIndex={-1} className="space-y-12 outline-none" data-testid="admin-moderation">
      <AdminSection headingId={headingId} title={t("admin.moderation.heading")} description={t("admin.moderation.description")} testId="moderation-queue">
        <QueryBoundary query={queue} loadErrorKey="admin.moderation.loadError" skeleton={QUEUE_SKELETON}>
          {(groups) =>
            groups.length === 0 ? (
              <p className="text-ink-muted">{t("admin.moderation.empty")}</p>
            ) : (
              <div className="space-y-6">
                {groups.map((group) => (
                  <NoticeGroupCard
                    key={
                      group.subject.kind === "book"
                        ? `book-${group.subject.bookId}`
                        : group.subject.kind === "review"
                          ? `review-${group.subject.reviewId}`
                          : `account-${group.subject.accountId}`
                    }
                    group={group}
                    onDecide={(target, subject) => setDeciding({ target, subject })}
                  />
                ))}
              </div>
            )
          }
        </QueryBoundary>
      </AdminSection>
      <ModerationAppeals />
      <DecisionLog onDecide={(target, subject) => setDeciding({ target, subject })} />
      {deciding && <DecisionDialog target={deciding.target} subject={deciding.subject} onClose={() => setDeciding(null)} fallbackFocus={tabTop} />}
    </div>
  );
}
