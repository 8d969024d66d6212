CREATE TABLE "payout_transactions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payout_transactions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"nonce" integer NOT NULL,
	"signed_transaction" text NOT NULL,
	"transaction_hashes" jsonb NOT NULL,
	"broadcast_at" timestamp with time zone,
	"chain_id" integer NOT NULL,
	"genesis_hash" varchar(66) NOT NULL,
	"token_address" varchar(42) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "payout_transaction_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "log_index" integer;--> statement-breakpoint
CREATE INDEX "payout_transactions_nonce_idx" ON "payout_transactions" USING btree ("chain_id","genesis_hash","token_address","nonce");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_payout_transaction_id_payout_transactions_id_fk" FOREIGN KEY ("payout_transaction_id") REFERENCES "public"."payout_transactions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_payout_transaction_idx" ON "payments" USING btree ("payout_transaction_id");--> statement-breakpoint
-- Each payment signed so far had a transaction of its own: it becomes that payment's payout transaction.
INSERT INTO "payout_transactions" ("nonce", "signed_transaction", "transaction_hashes", "broadcast_at", "chain_id", "genesis_hash", "token_address", "created_at")
  SELECT "nonce", "signed_transaction", "transaction_hashes", "broadcast_at", "chain_id", "genesis_hash", "token_address", coalesce("sent_at", "triggered_at")
  FROM "payments"
  WHERE "signed_transaction" IS NOT NULL AND "nonce" IS NOT NULL AND "chain_id" IS NOT NULL AND "genesis_hash" IS NOT NULL AND "token_address" IS NOT NULL;
--> statement-breakpoint
UPDATE "payments" AS p SET "payout_transaction_id" = t."id"
  FROM "payout_transactions" AS t
  WHERE t."signed_transaction" = p."signed_transaction";
--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "signed_transaction";--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "transaction_hashes";--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "broadcast_at";