ALTER TABLE "books" ADD COLUMN "epub_cover_url" text;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "epub_failed_version" integer;