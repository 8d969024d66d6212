CREATE TABLE "moderation_decisions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "moderation_decisions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"action" varchar(16) NOT NULL,
	"book_id" integer,
	"account_id" uuid NOT NULL,
	"ground" varchar(32),
	"basis" varchar(16) NOT NULL,
	"facts" text NOT NULL,
	"decided_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "moderation_decisions_action_known" CHECK ("moderation_decisions"."action" in ('hide', 'remove', 'restore', 'suspend', 'reinstate')),
	CONSTRAINT "moderation_decisions_basis_known" CHECK ("moderation_decisions"."basis" in ('notice', 'automated', 'own-initiative')),
	CONSTRAINT "moderation_decisions_ground_when_restricting" CHECK (("moderation_decisions"."action" in ('hide', 'remove', 'suspend')) = ("moderation_decisions"."ground" is not null)),
	CONSTRAINT "moderation_decisions_book_when_about_a_book" CHECK (("moderation_decisions"."action" in ('hide', 'remove', 'restore')) = ("moderation_decisions"."book_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "downloads" DROP CONSTRAINT "downloads_not_counted_reason_known";--> statement-breakpoint
-- A book moderation restricts leaves every list, as an unpublished one does: each partial index of
-- the catalog and the search gains the condition (docs/product.md#moderation).
DROP INDEX "books_catalog_newest_idx";--> statement-breakpoint
DROP INDEX "books_catalog_downloads_idx";--> statement-breakpoint
DROP INDEX "books_catalog_rating_idx";--> statement-breakpoint
DROP INDEX "books_catalog_title_idx";--> statement-breakpoint
DROP INDEX "books_catalog_spanish_title_idx";--> statement-breakpoint
DROP INDEX "books_catalog_genre_idx";--> statement-breakpoint
DROP INDEX "books_catalog_genre_downloads_idx";--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "moderation_state" varchar(16);--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "moderation_decision_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "moderation_decisions_account_idx" ON "moderation_decisions" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "moderation_decisions_book_idx" ON "moderation_decisions" USING btree ("book_id");--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_moderation_decision_id_moderation_decisions_id_fk" FOREIGN KEY ("moderation_decision_id") REFERENCES "public"."moderation_decisions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "books_catalog_newest_idx" ON "books" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "books"."is_published" and "books"."deleted_at" is null and "books"."moderation_state" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_downloads_idx" ON "books" USING btree ("download_count" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "books"."is_published" and "books"."deleted_at" is null and "books"."moderation_state" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_rating_idx" ON "books" USING btree ("rating" DESC NULLS FIRST,"review_count" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "books"."is_published" and "books"."deleted_at" is null and "books"."moderation_state" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_title_idx" ON "books" USING btree (("title" collate plume_title),"id") WHERE "books"."is_published" and "books"."deleted_at" is null and "books"."moderation_state" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_spanish_title_idx" ON "books" USING btree ((plume_spanish_title("title") collate plume_title),"id") INCLUDE ("title") WHERE "books"."is_published" and "books"."deleted_at" is null and "books"."moderation_state" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_genre_idx" ON "books" USING btree ("genre","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "books"."is_published" and "books"."deleted_at" is null and "books"."moderation_state" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_genre_downloads_idx" ON "books" USING btree ("genre","download_count" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "books"."is_published" and "books"."deleted_at" is null and "books"."moderation_state" is null;--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_moderation_state_known" CHECK ("books"."moderation_state" in ('hidden', 'removed-terms', 'removed-legal'));--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_moderation_state_decided" CHECK (("books"."moderation_state" is null) = ("books"."moderation_decision_id" is null));--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_not_counted_reason_known" CHECK ("downloads"."not_counted_reason" in ('unpublished', 'moderation-review', 'own-book', 'repeat-reader', 'no-address', 'address-cap'));--> statement-breakpoint
DROP INDEX "books_search_vector_idx";--> statement-breakpoint
DROP INDEX "books_title_trgm_idx";--> statement-breakpoint
CREATE INDEX "books_search_vector_idx" ON "books" USING gin ("search_vector")
  WHERE "is_published" AND "deleted_at" IS NULL AND "moderation_state" IS NULL;
--> statement-breakpoint
CREATE INDEX "books_title_trgm_idx" ON "books" USING gin (plume_unaccent(lower("title")) gin_trgm_ops)
  WHERE "is_published" AND "deleted_at" IS NULL AND "moderation_state" IS NULL;
--> statement-breakpoint
-- Hiding, removing or restoring a book changes what the catalog and its kept answers hold.
DROP TRIGGER books_catalog_changed ON books;
--> statement-breakpoint
CREATE TRIGGER books_catalog_changed
  AFTER INSERT OR DELETE OR UPDATE OF title, description, genre, language, author_id, is_published, deleted_at, moderation_state, created_at, search_vector ON books
  FOR EACH STATEMENT EXECUTE FUNCTION plume_catalog_changed();
