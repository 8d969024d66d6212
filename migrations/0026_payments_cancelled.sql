ALTER TABLE "payments" DROP CONSTRAINT "payments_status_known";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "cancelled_by_decision_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_cancelled_by_decision_id_moderation_decisions_id_fk" FOREIGN KEY ("cancelled_by_decision_id") REFERENCES "public"."moderation_decisions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_cancelled_by_a_decision" CHECK (("payments"."status" = 'cancelled') = ("payments"."cancelled_by_decision_id" is not null));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_status_known" CHECK ("payments"."status" in ('pending', 'completed', 'failed', 'cancelled'));