CREATE TABLE "chain_scan_cursors" (
	"chain" varchar(200) PRIMARY KEY NOT NULL,
	"next_block" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_transfers" (
	"chain" varchar(200) NOT NULL,
	"transaction_hash" varchar(66) NOT NULL,
	"log_index" integer NOT NULL,
	"to_address" varchar(42) NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	CONSTRAINT "chain_transfers_chain_transaction_hash_log_index_pk" PRIMARY KEY("chain","transaction_hash","log_index")
);
