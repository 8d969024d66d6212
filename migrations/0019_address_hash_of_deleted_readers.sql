-- The keyed hash of a download's counting address (docs/decisions/0049): it outlives the account's deletion for
-- the counting window and the admin's look-back, so deleting accounts no longer refills an address's cap.
ALTER TABLE "downloads" ADD COLUMN "address_hash" varchar(64);--> statement-breakpoint
CREATE INDEX "downloads_book_address_hash_time_idx" ON "downloads" USING btree ("book_id","address_hash","downloaded_at") WHERE "downloads"."address_hash" is not null;--> statement-breakpoint
CREATE INDEX "downloads_address_hash_time_idx" ON "downloads" USING btree ("downloaded_at") WHERE "downloads"."address_hash" is not null;