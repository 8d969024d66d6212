ALTER TABLE "downloads" ADD COLUMN "edition" integer;--> statement-breakpoint
ALTER TABLE "reading_positions" ADD COLUMN "edition" integer;--> statement-breakpoint
CREATE INDEX "book_editions_file_sha256_idx" ON "book_editions" USING btree ("file_sha256");