import { z } from "zod";
import { wholeNumber } from "./book-schemas.ts";
import type { ModerationState } from "./moderation.ts";

/**
 * What anyone may report about a book, an author or a review (docs/product.md#moderation): the categories of the
 * notice form, in the order the form lists them. Notices of sexual content involving minors go first
 * in the admin's queue, and may be sent without a name or an e-mail address.
 */
export const noticeCategories = ["copyright", "illegal", "private-data", "hate-violence", "minors", "spam", "harmful-file"] as const;
export type NoticeCategory = (typeof noticeCategories)[number];

/**
 * The categories whose open notices hold the reported book's payments until the notice is settled
 * (docs/product.md#rewards): the ones that say the book may not be the author's to be paid for.
 */
export const paymentHoldingCategories = ["copyright", "illegal"] as const satisfies readonly NoticeCategory[];
export type PaymentHoldingCategory = (typeof paymentHoldingCategories)[number];

/** Who sent a notice: someone through the form, or Plume's own check of an upload, which found a near copy (docs/decisions/0091). */
export const noticeSources = ["form", "automated"] as const;
export type NoticeSource = (typeof noticeSources)[number];

export const NOTICE_EXPLANATION_MIN = 20;
export const NOTICE_EXPLANATION_MAX = 5_000;

const text = (max: number, tooLong: string) => z.string().trim().max(max, tooLong);
const optionalText = (max: number, tooLong: string) =>
  text(max, tooLong)
    .optional()
    .transform((value) => (value ? value : undefined));

/**
 * POST /api/notices and the report form: a category, the book or the author reported, the address it
 * was seen at, an explanation and a statement of good faith; a name and an e-mail address except for
 * the minors category; for copyright, the original work, its rights holder and the sworn statement.
 */
export const noticeSchema = z
  .object({
    category: z.enum(noticeCategories, { error: "validation.noticeCategoryInvalid" }),
    bookId: z.number({ error: "validation.bookIdInvalid" }).int("validation.bookIdInvalid").min(1, "validation.bookIdInvalid").max(2_147_483_647, "validation.bookIdInvalid").optional(),
    authorId: z.uuid("validation.userIdInvalid").optional(),
    // A review reported (docs/product.md#reviews): the third subject beside a book and an author.
    reviewId: z.number({ error: "validation.reviewIdInvalid" }).int("validation.reviewIdInvalid").min(1, "validation.reviewIdInvalid").max(2_147_483_647, "validation.reviewIdInvalid").optional(),
    url: z.url({ protocol: /^https?$/, error: "validation.noticeUrlInvalid" }).max(2_000, "validation.noticeUrlInvalid"),
    explanation: text(NOTICE_EXPLANATION_MAX, "validation.noticeExplanationTooLong").min(NOTICE_EXPLANATION_MIN, "validation.noticeExplanationTooShort"),
    name: optionalText(200, "validation.noticeNameTooLong"),
    email: z
      .email("validation.emailInvalid")
      .max(255, "validation.emailInvalid")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    // A box the form ticks: false is refused with the same message as a missing one.
    goodFaith: z.boolean({ error: "validation.noticeGoodFaithRequired" }).refine((given) => given, "validation.noticeGoodFaithRequired"),
    originalWork: optionalText(1_000, "validation.noticeOriginalWorkTooLong"),
    rightsHolder: optionalText(200, "validation.noticeRightsHolderTooLong"),
    sworn: z.boolean({ error: "validation.noticeSwornRequired" }).optional(),
  })
  .superRefine((notice, context) => {
    const missing = (path: string, message: string) => context.addIssue({ code: "custom", path: [path], message });
    const subjects = [notice.bookId, notice.authorId, notice.reviewId].filter((subject) => subject !== undefined);
    if (subjects.length !== 1) missing("bookId", "validation.noticeSubjectRequired");
    if (notice.category !== "minors") {
      if (!notice.name) missing("name", "validation.noticeNameRequired");
      if (!notice.email) missing("email", "validation.noticeEmailRequired");
    }
    if (notice.category === "copyright") {
      if (!notice.originalWork) missing("originalWork", "validation.noticeOriginalWorkRequired");
      if (!notice.rightsHolder) missing("rightsHolder", "validation.noticeRightsHolderRequired");
      if (notice.sworn !== true) missing("sworn", "validation.noticeSwornRequired");
    }
  });
export type NoticeInput = z.input<typeof noticeSchema>;
export type Notice = z.output<typeof noticeSchema>;

/** What POST /api/notices answers: the notice's reference, quoted in its acknowledgement. */
export interface NoticeReceipt {
  id: number;
  receivedAt: string;
}

/** A notice in the admin's queue: everything its sender gave, for the admin alone. */
export interface QueuedNotice {
  id: number;
  category: NoticeCategory;
  /** "automated": Plume's own check sent it, with no reporter to answer. */
  source: NoticeSource;
  explanation: string;
  url: string;
  reporterName: string | null;
  reporterEmail: string | null;
  originalWork: string | null;
  rightsHolder: string | null;
  sworn: boolean;
  createdAt: string;
}

/** The open notices about one book, or about one author as a whole. */
export interface NoticeGroup {
  subject:
    | {
        kind: "book";
        bookId: number;
        title: string;
        moderationState: ModerationState | null;
        /** When its author deleted it, if they did: its notices stay open, and it can still be removed (docs/product.md#moderation). */
        deletedAt: string | null;
        accountId: string;
        accountName: string;
      }
    | { kind: "account"; accountId: string; accountName: string; suspended: boolean }
    | { kind: "review"; reviewId: number; bookId: number; title: string; text: string; rating: number; accountId: string; accountName: string };
  /** Whether a notice of the group is about sexual content involving minors: those groups come first. */
  urgent: boolean;
  oldestAt: string;
  notices: QueuedNotice[];
}

export const DISMISSAL_FACTS_MIN = 10;
export const DISMISSAL_FACTS_MAX = 2_000;

/** POST /api/admin/notices/:id/dismiss: why the notice does not lead to a restriction, told to its sender. */
export const noticeDismissalSchema = z.object({
  facts: z
    .string({ error: "validation.moderationFactsRequired" })
    .trim()
    .min(DISMISSAL_FACTS_MIN, "validation.moderationFactsRequired")
    .max(DISMISSAL_FACTS_MAX, "validation.moderationFactsTooLong"),
});

export const noticeIdSchema = z.object({ id: wholeNumber("validation.noticeIdInvalid").pipe(z.number().min(1, "validation.noticeIdInvalid")) });

/** What dismissing a notice answers. */
export interface SettledNotice {
  id: number;
  status: "actioned" | "dismissed";
}
