CREATE TABLE "payout_health" (
	"wallet" varchar(42) PRIMARY KEY NOT NULL,
	"state" varchar(20) NOT NULL,
	"gas_balance" varchar(78) NOT NULL,
	"token_balance" varchar(78) NOT NULL,
	"balances_checked_at" timestamp with time zone NOT NULL,
	"finality_mode" varchar(20) NOT NULL,
	"finality_lag_blocks" integer NOT NULL,
	"finality_lag_seconds" integer NOT NULL,
	"fee_needed" varchar(78),
	"since" timestamp with time zone NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payout_health_state_known" CHECK ("payout_health"."state" in ('sending', 'low-gas', 'low-pme', 'finality-lag', 'fee-ceiling')),
	CONSTRAINT "payout_health_mode_known" CHECK ("payout_health"."finality_mode" in ('finalized-tag', 'depth'))
);
