CREATE TABLE "appeals" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "appeals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"decision_id" integer NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" varchar(16) NOT NULL,
	"statement" text NOT NULL,
	"legal_name" varchar(200),
	"postal_address" varchar(500),
	"phone" varchar(30),
	"status" varchar(10) DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	"outcome_facts" text,
	"outcome_decision_id" integer,
	CONSTRAINT "appeals_kind_known" CHECK ("appeals"."kind" in ('appeal', 'counter-notice')),
	CONSTRAINT "appeals_status_known" CHECK ("appeals"."status" in ('open', 'granted', 'rejected')),
	CONSTRAINT "appeals_counter_notice_complete" CHECK ("appeals"."kind" <> 'counter-notice' or ("appeals"."legal_name" is not null and "appeals"."postal_address" is not null and "appeals"."phone" is not null)),
	CONSTRAINT "appeals_decided_when_closed" CHECK (("appeals"."status" = 'open') = ("appeals"."decided_at" is null))
);
--> statement-breakpoint
ALTER TABLE "moderation_decisions" DROP CONSTRAINT "moderation_decisions_basis_known";--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_decision_id_moderation_decisions_id_fk" FOREIGN KEY ("decision_id") REFERENCES "public"."moderation_decisions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_outcome_decision_id_moderation_decisions_id_fk" FOREIGN KEY ("outcome_decision_id") REFERENCES "public"."moderation_decisions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "appeals_decision_unique" ON "appeals" USING btree ("decision_id");--> statement-breakpoint
CREATE INDEX "appeals_open_idx" ON "appeals" USING btree ("created_at") WHERE "appeals"."status" = 'open';--> statement-breakpoint
CREATE INDEX "appeals_account_idx" ON "appeals" USING btree ("account_id");--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_basis_known" CHECK ("moderation_decisions"."basis" in ('notice', 'automated', 'own-initiative', 'appeal'));