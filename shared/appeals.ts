import { z } from "zod";
import { wholeNumber } from "./book-schemas.ts";
import { MODERATION_FACTS_MAX, type ModerationAction, type ModerationDecision, type ModerationGround } from "./moderation.ts";

/**
 * How an author contests a decision that restricts their book (docs/product.md#appeals): a written
 * appeal, or for a copyright removal the counter-notice of the US DMCA §512(g)(3), whose statements
 * Plume forwards to the senders of the notices the decision upheld.
 */
export const appealKinds = ["appeal", "counter-notice"] as const;
export type AppealKind = (typeof appealKinds)[number];

export const appealStatuses = ["open", "granted", "rejected"] as const;
export type AppealStatus = (typeof appealStatuses)[number];

/** The decisions an author can contest from the dashboard: hiding or removing one of their books, or removing their review (docs/decisions/0111). */
export const APPEALABLE_ACTIONS = ["hide", "remove", "remove-review"] as const;

/** How long after a decision it can be contested: the six months of the EU Digital Services Act, Art. 20. */
export const APPEAL_WINDOW_DAYS = 183;

/** A copyright ground is contested by a counter-notice; any other by an appeal. */
export const appealKindFor = (ground: ModerationGround | null): AppealKind => (ground === "law-copyright" ? "counter-notice" : "appeal");

export const APPEAL_STATEMENT_MIN = 20;
export const APPEAL_STATEMENT_MAX = 5_000;

const statement = z
  .string({ error: "validation.appealStatementTooShort" })
  .trim()
  .min(APPEAL_STATEMENT_MIN, "validation.appealStatementTooShort")
  .max(APPEAL_STATEMENT_MAX, "validation.appealStatementTooLong");

/** A box the form ticks: false is refused with the same message as a missing one. */
const ticked = (message: string) => z.boolean({ error: message }).refine((given) => given, message);

/**
 * POST /api/moderation/decisions/:id/appeal and the dashboard's form. A counter-notice adds what
 * §512(g)(3) asks: the sender's legal name, postal address and telephone, the statement under penalty
 * of perjury that the material (a book, a review) was removed by mistake, and the consent to a court's jurisdiction.
 */
export const appealSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("appeal"), statement }),
    z.object({
      kind: z.literal("counter-notice"),
      statement,
      legalName: z.string({ error: "validation.appealLegalNameRequired" }).trim().min(2, "validation.appealLegalNameRequired").max(200, "validation.appealLegalNameRequired"),
      postalAddress: z
        .string({ error: "validation.appealPostalAddressRequired" })
        .trim()
        .min(10, "validation.appealPostalAddressRequired")
        .max(500, "validation.appealPostalAddressRequired"),
      phone: z
        .string({ error: "validation.appealPhoneInvalid" })
        .trim()
        .regex(/^\+?[0-9 ().-]{6,30}$/, "validation.appealPhoneInvalid"),
      swornMistake: ticked("validation.appealSwornRequired"),
      consentJurisdiction: ticked("validation.appealJurisdictionRequired"),
    }),
  ],
  { error: "validation.appealKindInvalid" },
);
export type AppealInput = z.input<typeof appealSchema>;
export type Appeal = z.output<typeof appealSchema>;

/** The admin's answer to an appeal: granted lifts the restriction, rejected keeps it; either way with the reasons both sides are told. */
export const appealOutcomeSchema = z.object({
  outcome: z.enum(["granted", "rejected"], { error: "validation.appealOutcomeInvalid" }),
  facts: z
    .string({ error: "validation.moderationFactsRequired" })
    .trim()
    .min(10, "validation.moderationFactsRequired")
    .max(MODERATION_FACTS_MAX, "validation.moderationFactsTooLong"),
});
export type AppealOutcome = z.infer<typeof appealOutcomeSchema>;

export const appealIdSchema = z.object({ id: wholeNumber("validation.appealIdInvalid").pipe(z.number().min(1, "validation.appealIdInvalid")) });
export const decisionIdSchema = z.object({ id: wholeNumber("validation.decisionIdInvalid").pipe(z.number().min(1, "validation.decisionIdInvalid")) });

/** An appeal as its author reads it beside the statement it contests. */
export interface AppealSummary {
  id: number;
  kind: AppealKind;
  status: AppealStatus;
  createdAt: string;
  decidedAt: string | null;
  outcomeFacts: string | null;
}

/** A statement of reasons as its author reads it: with the appeal sent against it, or how and until when one may be. */
export interface DecisionForAuthor extends ModerationDecision {
  appeal: AppealSummary | null;
  /** How this decision can be contested from the dashboard now, and until when; null when it cannot. */
  contest: { kind: AppealKind; until: string } | null;
}

/** An open appeal as the admin's queue shows it, with the decision it contests. */
export interface AppealForReview extends AppealSummary {
  statement: string;
  legalName: string | null;
  postalAddress: string | null;
  phone: string | null;
  decision: { id: number; action: ModerationAction; ground: ModerationGround | null; facts: string; createdAt: string };
  /** The book decided about, or the one the review is of. */
  book: { id: number; title: string } | null;
  /** The review a contested removal is about, with its words; null for a book's, or once its writer deleted it. */
  review: { id: number; text: string } | null;
  account: { id: string; name: string };
}

export const APPEAL_CLOSED = "appeal_closed";
