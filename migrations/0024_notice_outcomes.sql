ALTER TABLE "notices" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "closing_facts" text;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "decision_id" integer;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_decision_id_moderation_decisions_id_fk" FOREIGN KEY ("decision_id") REFERENCES "public"."moderation_decisions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_closed_when_settled" CHECK (("notices"."status" = 'open') = ("notices"."closed_at" is null));