import { z } from "zod";

/**
 * A book moderation restricts (docs/product.md#moderation): hidden while under review (404 to the
 * public), or removed for a breach of the terms (410) or on a legal ground (451, RFC 7725).
 */
export const moderationStates = ["hidden", "removed-terms", "removed-legal"] as const;
export type ModerationState = (typeof moderationStates)[number];

/**
 * What the admin may decide about a book, an account or a review (docs/product.md#moderation). Each
 * decision is a statement of reasons kept for good: the log of who restricted what, when and why.
 */
export const bookModerationActions = ["hide", "remove", "restore"] as const;
export const accountModerationActions = ["suspend", "reinstate"] as const;
/** A review's removal and its restore (docs/decisions/0111): decisions about its writer, like a book's about its author. */
export const reviewModerationActions = ["remove-review", "restore-review"] as const;
export const moderationActions = [...bookModerationActions, ...accountModerationActions, ...reviewModerationActions] as const;
export type ModerationAction = (typeof moderationActions)[number];
export type ReviewModerationAction = (typeof reviewModerationActions)[number];

export const isReviewAction = (action: ModerationAction): action is ReviewModerationAction => (reviewModerationActions as readonly string[]).includes(action);

/** The decisions that restrict something, and so state the ground they rest on. */
export const restrictingActions = ["hide", "remove", "suspend", "remove-review"] as const satisfies readonly ModerationAction[];
export const isRestricting = (action: ModerationAction): boolean => (restrictingActions as readonly string[]).includes(action);

/**
 * What led to a decision: someone's notice, Plume's own automated check, the admin on their own
 * initiative, or the author's appeal (docs/product.md#appeals).
 */
export const moderationBases = ["notice", "automated", "own-initiative", "appeal"] as const;
export type ModerationBasis = (typeof moderationBases)[number];

/**
 * The grounds a restriction may rest on: a clause of Plume's terms (a removal answers 410 Gone) or
 * the law (a removal answers 451 Unavailable For Legal Reasons, RFC 7725). The terms page states each.
 */
export const moderationGrounds = {
  "terms-not-own-work": "terms",
  "terms-spam": "terms",
  "terms-harmful-file": "terms",
  "terms-hate-violence": "terms",
  "terms-private-data": "terms",
  "terms-sexual-content": "terms",
  "law-copyright": "law",
  "law-illegal-content": "law",
  "law-child-safety": "law",
  "law-privacy": "law",
} as const satisfies Record<string, "terms" | "law">;
export type ModerationGround = keyof typeof moderationGrounds;
export const moderationGroundKeys = Object.keys(moderationGrounds) as [ModerationGround, ...ModerationGround[]];

export const MODERATION_FACTS_MAX = 2_000;

/** The repeat-infringer policy (docs/product.md#repeat-infringers): this many copyright removals in effect suspend an account. */
export const REPEAT_INFRINGER_STRIKES = 3;

/** A restriction states its ground and the facts it rests on; lifting one states why. */
const statement = {
  facts: z
    .string({ error: "validation.moderationFactsRequired" })
    .trim()
    .min(10, "validation.moderationFactsRequired")
    .max(MODERATION_FACTS_MAX, "validation.moderationFactsTooLong"),
  basis: z.enum(moderationBases, { error: "validation.moderationBasisInvalid" }),
};

const ground = z.enum(moderationGroundKeys, { error: "validation.moderationGroundInvalid" });
const removal = z.object({ action: z.literal("remove"), ground, ...statement });
const restore = z.object({ action: z.literal("restore"), ...statement });

export const bookModerationSchema = z.discriminatedUnion("action", [z.object({ action: z.literal("hide"), ground, ...statement }), removal, restore], {
  error: "validation.moderationActionInvalid",
});
export type BookModerationInput = z.infer<typeof bookModerationSchema>;

/**
 * POST /api/admin/reviews/:id/moderation and the admin's dialog: a book's removal and restore, the
 * same statement of reasons; a review has no "hidden while under review" (docs/decisions/0111).
 */
export const reviewModerationSchema = z.discriminatedUnion("action", [removal, restore], { error: "validation.moderationActionInvalid" });
export type ReviewModerationInput = z.infer<typeof reviewModerationSchema>;
/** The decision a review's removal or restore is kept as. */
export const reviewDecisionAction = { remove: "remove-review", restore: "restore-review" } as const satisfies Record<ReviewModerationInput["action"], ReviewModerationAction>;

export const accountModerationSchema = z.discriminatedUnion(
  "action",
  [
    z.object({ action: z.literal("suspend"), ground, ...statement }),
    z.object({ action: z.literal("reinstate"), ...statement }),
  ],
  { error: "validation.moderationActionInvalid" },
);
export type AccountModerationInput = z.infer<typeof accountModerationSchema>;

/** A statement of reasons as its author and the admin read it. */
export interface ModerationDecision {
  id: number;
  action: ModerationAction;
  /** The book decided about, or the one the review decided about is of; null for an account's. */
  bookId: number | null;
  bookTitle: string | null;
  /** The review decided about; null for a book's or an account's, and once its writer deleted it. */
  reviewId: number | null;
  accountId: string;
  ground: ModerationGround | null;
  basis: ModerationBasis;
  facts: string;
  createdAt: string;
}

/** The id of a statement's entry on the author's dashboard: where a held or cancelled payment links to (docs/decisions/0090). */
export const statementAnchor = (decisionId: number) => `moderation-decision-${decisionId}`;

/** The codes of the 409s that refuse a decision that does not fit the book's or account's state. */
export const MODERATION_CONFLICT = "moderation_conflict";

/** A decision in the admin's log (docs/product.md#moderation): the statement, whom it is about and who decided. */
export interface LoggedModerationDecision extends ModerationDecision {
  accountName: string;
  /** The admin who decided; null for Plume's automated checks. */
  decidedBy: string | null;
  /** A review's first words, for the admin to tell which it was; null for any other decision, or a review deleted since. */
  reviewExcerpt: string | null;
  /** Whether the decision still restricts its book or review: a review's removal in force can be restored from the log. */
  inEffect: boolean;
}

/** How many characters of a review the admin's log shows. */
export const REVIEW_EXCERPT_LENGTH = 120;

export const MODERATION_LOG_PAGE_SIZE = 20;
/** How far back the log pages: older decisions stay in the database and in each author's dashboard. */
export const MODERATION_LOG_MAX_PAGE = 500;

/** GET /api/admin/moderation/decisions?page=N: the log, newest first, a page at a time. */
export const moderationLogQuerySchema = z.object({
  page: z
    .string()
    .regex(/^\d{1,9}$/, "validation.pageInvalid")
    .transform(Number)
    .pipe(z.number().min(1, "validation.pageInvalid").max(MODERATION_LOG_MAX_PAGE, "validation.pageInvalid"))
    .default(1),
});

export interface ModerationLogPage {
  decisions: LoggedModerationDecision[];
  page: number;
  hasMore: boolean;
}
