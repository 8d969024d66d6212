ALTER TABLE "books" ADD COLUMN "content_rating" varchar(10) DEFAULT 'general' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "show_explicit" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_content_rating_known" CHECK ("books"."content_rating" in ('general', 'teen', 'mature', 'explicit'));--> statement-breakpoint
-- Whether a book is explicit decides which catalog pages and search rankings hold it (docs/decisions/0092):
-- a change of rating moves the revisions the kept answers are checked against.
DROP TRIGGER books_catalog_changed ON books;
--> statement-breakpoint
CREATE TRIGGER books_catalog_changed
  AFTER INSERT OR DELETE OR UPDATE OF title, description, genre, language, author_id, is_published, deleted_at, moderation_state, content_rating, created_at, search_vector ON books
  FOR EACH STATEMENT EXECUTE FUNCTION plume_catalog_changed();
--> statement-breakpoint
-- A visitor's catalog leaves explicit books out (server/books/books-repository.ts, listedFor): each sort
-- index carries the rating, so that a deep page's ids are still read from the index alone (an
-- index-only scan), the rating checked on the index's rows (docs/decisions/0092). Drizzle cannot say
-- INCLUDE: server/db/schema.ts names the same keys.
DROP INDEX "books_catalog_newest_idx";--> statement-breakpoint
DROP INDEX "books_catalog_downloads_idx";--> statement-breakpoint
DROP INDEX "books_catalog_rating_idx";--> statement-breakpoint
DROP INDEX "books_catalog_title_idx";--> statement-breakpoint
DROP INDEX "books_catalog_spanish_title_idx";--> statement-breakpoint
DROP INDEX "books_catalog_genre_idx";--> statement-breakpoint
DROP INDEX "books_catalog_genre_downloads_idx";--> statement-breakpoint
CREATE INDEX "books_catalog_newest_idx" ON "books" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) INCLUDE ("content_rating") WHERE "books"."is_published" and "books"."deleted_at" is null and "books"."moderation_state" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_downloads_idx" ON "books" USING btree ("download_count" DESC NULLS FIRST,"id" DESC NULLS FIRST) INCLUDE ("content_rating") WHERE "books"."is_published" and "books"."deleted_at" is null and "books"."moderation_state" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_rating_idx" ON "books" USING btree ("rating" DESC NULLS FIRST,"review_count" DESC NULLS FIRST,"id" DESC NULLS FIRST) INCLUDE ("content_rating") WHERE "books"."is_published" and "books"."deleted_at" is null and "books"."moderation_state" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_title_idx" ON "books" USING btree (("title" collate plume_title),"id") INCLUDE ("content_rating") WHERE "books"."is_published" and "books"."deleted_at" is null and "books"."moderation_state" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_spanish_title_idx" ON "books" USING btree ((plume_spanish_title("title") collate plume_title),"id") INCLUDE ("title", "content_rating") WHERE "books"."is_published" and "books"."deleted_at" is null and "books"."moderation_state" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_genre_idx" ON "books" USING btree ("genre","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) INCLUDE ("content_rating") WHERE "books"."is_published" and "books"."deleted_at" is null and "books"."moderation_state" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_genre_downloads_idx" ON "books" USING btree ("genre","download_count" DESC NULLS FIRST,"id" DESC NULLS FIRST) INCLUDE ("content_rating") WHERE "books"."is_published" and "books"."deleted_at" is null and "books"."moderation_state" is null;
