DROP INDEX "payments_pending_idx";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "kind" varchar(20) DEFAULT 'milestone' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "milestone" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "payout_stage" varchar(20) DEFAULT 'queued' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "nonce" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "signed_transaction" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "transaction_hashes" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "chain_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "genesis_hash" varchar(66);--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "token_address" varchar(42);--> statement-breakpoint
CREATE INDEX "payments_due_idx" ON "payments" USING btree ("next_attempt_at","id") WHERE "payments"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "payments_book_idx" ON "payments" USING btree ("book_id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_stage_known" CHECK ("payments"."payout_stage" in ('queued', 'signed', 'broadcast', 'confirming'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_kind_known" CHECK ("payments"."kind" in ('milestone', 'first-book-bonus'));