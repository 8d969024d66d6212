-- The catalog's sort indexes were made DESC NULLS LAST while its queries sort DESC (nulls first):
-- no query could use them, and every catalog page sorted all listed books (docs/performance.md).
-- They now follow the queries' keys exactly, and "most downloaded in a genre" gets its own.
DROP INDEX "books_catalog_newest_idx";--> statement-breakpoint
DROP INDEX "books_catalog_downloads_idx";--> statement-breakpoint
DROP INDEX "books_catalog_rating_idx";--> statement-breakpoint
DROP INDEX "books_catalog_genre_idx";--> statement-breakpoint
CREATE INDEX "books_catalog_genre_downloads_idx" ON "books" USING btree ("genre","download_count" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "books"."is_published" and "books"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_newest_idx" ON "books" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "books"."is_published" and "books"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_downloads_idx" ON "books" USING btree ("download_count" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "books"."is_published" and "books"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_rating_idx" ON "books" USING btree ("rating" DESC NULLS FIRST,"review_count" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "books"."is_published" and "books"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_genre_idx" ON "books" USING btree ("genre","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "books"."is_published" and "books"."deleted_at" is null;