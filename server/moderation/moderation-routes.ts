import { z } from "zod";
import { type ModerationAction, accountModerationSchema, bookModerationSchema, moderationLogQuerySchema, reviewModerationSchema } from "../../shared/moderation.ts";
import { reviewIdSchema } from "../../shared/reviews.ts";
import { decideAboutReview } from "../ratings/reviews-service.ts";
import { authorIdSchema, bookIdSchema } from "../../shared/book-schemas.ts";
import { noticeDismissalSchema, noticeIdSchema, noticeSchema } from "../../shared/notices.ts";
import type { TransparencyReport } from "../../shared/transparency.ts";
import type { NoticeOutcomeKind } from "../mail/mail-texts.ts";
import type { Db } from "../db/client.ts";
import { likelyLanguage } from "../http/request-language.ts";
import type { AbuseLimits } from "../security/rate-limits.ts";
import { routeGroup, routesOf } from "../http/define-route.ts";
import * as answers from "../openapi/answer-schemas.ts";
import { dismissNotice, mailNoticeOutcomes, readNoticeQueue, receiveNotice } from "./notices-service.ts";
import { type DecisionAbout, type DecisionMailing, decideAboutAccount, decideAboutBook, mailDecision, presentDecision, readDecisionLog } from "./moderation-service.ts";
import { decideAppeal, fileAppeal, mailAppealDecided, mailAppealReceived, presentAppeal, readDecisionsForAuthor, readOpenAppeals } from "./appeals-service.ts";
import { appealIdSchema, appealOutcomeSchema, appealSchema, decisionIdSchema } from "../../shared/appeals.ts";
import { readTransparencyReport } from "./transparency-service.ts";

export interface ModerationRoutesDeps {
  db: Db;
  mailing: DecisionMailing;
  limits: AbuseLimits;
}

const route = routesOf<ModerationRoutesDeps>();

/** Notices anyone sends, the admin's moderation decisions, the statements of reasons their authors read, and their appeals (docs/product.md#moderation). */
export const moderationRoutes = routeGroup("/api", [
  route(
    {
      method: "POST",
      path: "/api/notices",
      access: "public",
      summary: "Report a book or an author to Plume, signed in or not; the acknowledgement is mailed to the address given",
      tag: "moderation",
      // Every attempt from an address counts, a malformed one too; the e-mail's and the subject's limits need the checked body.
      before: (deps) => [deps.limits.noticesFromAddress],
      body: noticeSchema,
      after: (deps) => [deps.limits.noticesAbout],
      answer: { status: 201, description: "The notice's reference.", json: answers.noticeReceiptSchema },
      errors: [400, 404, 429],
    },
    ({ body, caller, req }, { db, mailing }) => receiveNotice(db, mailing, { notice: body, reporter: caller, language: likelyLanguage(req), at: new Date() }),
  ),
  route(
    {
      method: "POST",
      path: "/api/admin/books/:id/moderation",
      access: "admin",
      summary: "Hide, remove or restore a book, with a statement of reasons (409 moderation_conflict when the book's state does not allow it; a book its author deleted can only be removed, else 409 book_deleted)",
      tag: "moderation",
      params: bookIdSchema,
      body: bookModerationSchema,
      answer: { status: 201, description: "The decision, as its statement of reasons.", json: answers.moderationDecisionSchema },
      errors: [400, 404, 409],
    },
    async ({ params, body, caller }, { db, mailing }) => {
      const decision = await decideAboutBook(db, caller, params.id, body, new Date());
      await tellEveryone(db, mailing, decision);
      return presentDecision(decision);
    },
  ),
  route(
    {
      method: "POST",
      path: "/api/admin/reviews/:id/moderation",
      access: "admin",
      summary:
        "Remove or restore a review, with a statement of reasons to its writer; a removal settles the notices about it (409 moderation_conflict when the review's state does not allow it)",
      tag: "moderation",
      params: reviewIdSchema,
      body: reviewModerationSchema,
      answer: { status: 201, description: "The decision, as its statement of reasons.", json: answers.moderationDecisionSchema },
      errors: [400, 404, 409],
    },
    async ({ params, body, caller }, { db, mailing }) => {
      const decision = await decideAboutReview(db, caller, params.id, body, new Date());
      await tellEveryone(db, mailing, decision);
      return presentDecision(decision);
    },
  ),
  route(
    {
      method: "POST",
      path: "/api/admin/users/:id/moderation",
      access: "admin",
      summary: "Suspend or reinstate an account, with a statement of reasons (409 moderation_conflict when its state does not allow it)",
      tag: "moderation",
      params: authorIdSchema,
      body: accountModerationSchema,
      answer: { status: 201, description: "The decision, as its statement of reasons.", json: answers.moderationDecisionSchema },
      errors: [400, 404, 409],
    },
    async ({ params, body, caller }, { db, mailing }) => {
      const decision = await decideAboutAccount(db, caller, params.id, body, new Date());
      await tellEveryone(db, mailing, decision);
      return presentDecision(decision);
    },
  ),
  route(
    {
      method: "GET",
      path: "/api/admin/notices",
      access: "admin",
      summary: "The open notices, grouped by book and by author: those about sexual content involving minors first, then the oldest",
      tag: "moderation",
      answer: { status: 200, description: "The queue.", json: z.array(answers.noticeGroupSchema) },
      errors: [],
    },
    (_call, { db }) => readNoticeQueue(db),
  ),
  route(
    {
      method: "POST",
      path: "/api/admin/notices/:id/dismiss",
      access: "admin",
      summary: "Dismiss an open notice with the reasons its sender is told; nothing is restricted",
      tag: "moderation",
      params: noticeIdSchema,
      body: noticeDismissalSchema,
      answer: { status: 200, description: "The notice as settled.", json: answers.settledNoticeSchema },
      errors: [400, 404],
    },
    async ({ params, body }, { db, mailing }) => {
      const dismissed = await dismissNotice(db, params.id, body.facts, new Date());
      await mailNoticeOutcomes(db, mailing, [dismissed], "dismissed");
      return { id: dismissed.id, status: "dismissed" as const };
    },
  ),
  route(
    {
      method: "GET",
      path: "/api/admin/moderation/decisions",
      access: "admin",
      summary: "Every moderation decision, newest first, a page of 20 at a time: who decided what about which book, review or account, and when",
      tag: "moderation",
      query: moderationLogQuerySchema,
      answer: { status: 200, description: "One page of the log.", json: answers.moderationLogPageSchema },
      errors: [400],
    },
    ({ query }, { db }) => readDecisionLog(db, query.page),
  ),
  route(
    {
      method: "GET",
      path: "/api/transparency",
      access: "public",
      summary: "The transparency report: notices by category and outcome, decisions by action and the median time to a decision, for each of the last 12 months",
      tag: "moderation",
      answer: { status: 200, description: "The report, oldest month first.", json: answers.transparencyReportSchema },
      errors: [],
    },
    async ({ res }, { db }) => {
      res.setHeader("Cache-Control", `public, max-age=${TRANSPARENCY_CACHE_SECONDS}`);
      return cachedTransparencyReport(db, new Date());
    },
  ),
  route(
    {
      method: "GET",
      path: "/api/moderation/decisions",
      access: "signed-in",
      summary: "The statements of reasons about the caller's account, books and reviews, newest first, each with its appeal or how it may be contested",
      tag: "moderation",
      answer: { status: 200, description: "The statements.", json: z.array(answers.decisionForAuthorSchema) },
      errors: [],
    },
    ({ caller }, { db }) => readDecisionsForAuthor(db, caller.id, new Date()),
  ),
  route(
    {
      method: "POST",
      path: "/api/moderation/decisions/:id/appeal",
      access: "signed-in",
      summary:
        "Contest a decision that hides or removes one of the caller's books, or removes their review: an appeal, or for a copyright ground a DMCA counter-notice (409 appeal_closed once contested, lifted or past six months)",
      tag: "moderation",
      params: decisionIdSchema,
      body: appealSchema,
      answer: { status: 201, description: "The appeal, open.", json: answers.appealSummarySchema },
      errors: [400, 404, 409],
    },
    async ({ params, body, caller }, { db, mailing }) => {
      const filed = await fileAppeal(db, caller, params.id, body, new Date());
      await mailAppealReceived(db, mailing, filed);
      return presentAppeal(filed.appeal);
    },
  ),
  route(
    {
      method: "GET",
      path: "/api/admin/appeals",
      access: "admin",
      summary: "The open appeals and counter-notices, oldest first, with the decision each contests",
      tag: "moderation",
      answer: { status: 200, description: "The queue.", json: z.array(answers.appealForReviewSchema) },
      errors: [],
    },
    (_call, { db }) => readOpenAppeals(db),
  ),
  route(
    {
      method: "POST",
      path: "/api/admin/appeals/:id/decision",
      access: "admin",
      summary: "Grant an open appeal, which restores the book or the review, or reject it, with the reasons its author is told",
      tag: "moderation",
      params: appealIdSchema,
      body: appealOutcomeSchema,
      answer: { status: 200, description: "The appeal, decided.", json: answers.appealSummarySchema },
      errors: [400, 404, 409],
    },
    async ({ params, body, caller }, { db, mailing }) => {
      const decided = await decideAppeal(db, caller, params.id, body, new Date());
      await mailAppealDecided(db, mailing, decided);
      return presentAppeal(decided.appeal);
    },
  ),
]);

/** How long the transparency report is reused, by this process and by caches on the way: its figures change slowly. */
const TRANSPARENCY_CACHE_SECONDS = 60;
const transparencyReports = new WeakMap<Db, { until: number; report: Promise<TransparencyReport> }>();

/** The report made at most a minute ago, so a crowd on the public page costs one set of aggregates a minute. */
function cachedTransparencyReport(db: Db, at: Date): Promise<TransparencyReport> {
  const cached = transparencyReports.get(db);
  if (cached && cached.until > at.getTime()) return cached.report;
  const report = readTransparencyReport(db, at);
  transparencyReports.set(db, { until: at.getTime() + TRANSPARENCY_CACHE_SECONDS * 1000, report });
  // A failure is not kept: the next visitor asks the database again.
  report.catch(() => transparencyReports.delete(db));
  return report;
}

/** What a decision tells the senders of the notices it settled; hiding, reinstating and restoring a review settle none. */
const OUTCOME_OF: Partial<Record<ModerationAction, NoticeOutcomeKind>> = { remove: "remove", suspend: "suspend", restore: "dismissed", "remove-review": "remove-review" };

/** Once a decision has committed: its statement to the author, and to each sender of a notice it settled, what came of it. */
async function tellEveryone(db: Db, mailing: DecisionMailing, decision: DecisionAbout): Promise<void> {
  await mailDecision(db, mailing, decision);
  const outcome = OUTCOME_OF[decision.action];
  if (outcome && decision.settledNotices.length > 0) await mailNoticeOutcomes(db, mailing, decision.settledNotices, outcome);
  if (decision.consequence) await tellEveryone(db, mailing, decision.consequence);
}
