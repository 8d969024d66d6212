CREATE TABLE "payout_leases" (
	"wallet" varchar(42) PRIMARY KEY NOT NULL,
	"holder" varchar(100) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "broadcast_at" timestamp with time zone;