-- A review's removal becomes a moderation decision like a book's (docs/decisions/0111).
ALTER TABLE "moderation_decisions" DROP CONSTRAINT "moderation_decisions_action_known";--> statement-breakpoint
ALTER TABLE "moderation_decisions" DROP CONSTRAINT "moderation_decisions_ground_when_restricting";--> statement-breakpoint
ALTER TABLE "moderation_decisions" DROP CONSTRAINT "moderation_decisions_book_when_about_a_book";--> statement-breakpoint
ALTER TABLE "notices" DROP CONSTRAINT "notices_status_known";--> statement-breakpoint
ALTER TABLE "reviews" DROP CONSTRAINT "reviews_removal_stated";--> statement-breakpoint
ALTER TABLE "reviews" DROP CONSTRAINT "reviews_removed_by_users_id_fk";--> statement-breakpoint
DROP INDEX "reviews_book_written_idx";--> statement-breakpoint
ALTER TABLE "notices" ALTER COLUMN "status" SET DATA TYPE varchar(16);--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD COLUMN "review_id" integer;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "moderation_decision_id" integer;--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_moderation_decision_id_moderation_decisions_id_fk" FOREIGN KEY ("moderation_decision_id") REFERENCES "public"."moderation_decisions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_review_only_for_a_review" CHECK ("moderation_decisions"."review_id" is null or "moderation_decisions"."action" in ('remove-review', 'restore-review'));--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_action_known" CHECK ("moderation_decisions"."action" in ('hide', 'remove', 'restore', 'suspend', 'reinstate', 'remove-review', 'restore-review'));--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_ground_when_restricting" CHECK (("moderation_decisions"."action" in ('hide', 'remove', 'suspend', 'remove-review')) = ("moderation_decisions"."ground" is not null));--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_book_when_about_a_book" CHECK (("moderation_decisions"."action" in ('hide', 'remove', 'restore', 'remove-review', 'restore-review')) = ("moderation_decisions"."book_id" is not null));--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_status_known" CHECK ("notices"."status" in ('open', 'actioned', 'dismissed', 'writer-deleted'));--> statement-breakpoint
-- Every review removed until now gets its decision, as its statement stood on the review: on a notice
-- when one about it was settled as acted on, else on the admin's own initiative.
INSERT INTO "moderation_decisions" ("action", "book_id", "review_id", "account_id", "ground", "basis", "facts", "decided_by", "created_at")
SELECT 'remove-review', r."book_id", r."id", r."user_id", r."removal_ground",
  CASE WHEN EXISTS (SELECT 1 FROM "notices" n WHERE n."review_id" = r."id" AND n."status" = 'actioned') THEN 'notice' ELSE 'own-initiative' END,
  r."removal_facts", r."removed_by", r."removed_at"
FROM "reviews" r WHERE r."removed_at" IS NOT NULL ORDER BY r."removed_at", r."id";--> statement-breakpoint
UPDATE "reviews" r SET "moderation_decision_id" = d."id" FROM "moderation_decisions" d WHERE d."review_id" = r."id" AND d."action" = 'remove-review';--> statement-breakpoint
-- The notices those removals upheld now name the decision, as a book's do.
UPDATE "notices" n SET "decision_id" = d."id" FROM "moderation_decisions" d
WHERE d."review_id" = n."review_id" AND d."action" = 'remove-review' AND n."status" = 'actioned' AND n."decision_id" IS NULL;--> statement-breakpoint
-- A review its writer deleted settled its notices as dismissed until now; they were never decided on.
UPDATE "notices" SET "status" = 'writer-deleted' WHERE "status" = 'dismissed' AND "closing_facts" = 'The review was deleted by its writer.';--> statement-breakpoint
CREATE INDEX "moderation_decisions_review_idx" ON "moderation_decisions" USING btree ("review_id");--> statement-breakpoint
CREATE INDEX "reviews_book_written_idx" ON "reviews" USING btree ("book_id","created_at") WHERE "reviews"."comment" is not null and "reviews"."moderation_decision_id" is null;--> statement-breakpoint
ALTER TABLE "reviews" DROP COLUMN "removed_at";--> statement-breakpoint
ALTER TABLE "reviews" DROP COLUMN "removal_ground";--> statement-breakpoint
ALTER TABLE "reviews" DROP COLUMN "removal_facts";--> statement-breakpoint
ALTER TABLE "reviews" DROP COLUMN "removed_by";
