CREATE TABLE "catalog_revision" (
	"single" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"revision" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "catalog_revision_single_row" CHECK ("catalog_revision"."single")
);
--> statement-breakpoint
INSERT INTO "catalog_revision" ("single", "revision") VALUES (true, 0);
--> statement-breakpoint
-- Once per statement, whatever the number of rows: renaming an author re-indexes all their books in
-- one UPDATE (0002), and a bulk load moves the number once. The row stays locked until the writing
-- transaction ends, so a search that reads the number sees it move exactly when the change shows.
CREATE OR REPLACE FUNCTION plume_catalog_changed() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  UPDATE catalog_revision SET revision = revision + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Downloads and ratings (download_count, rating, review_count) change no search's matches or
-- ranking, and cards are always read fresh: they do not move the number.
CREATE TRIGGER books_catalog_changed
  AFTER INSERT OR DELETE OR UPDATE OF title, description, genre, author_id, is_published, deleted_at, created_at, search_vector ON books
  FOR EACH STATEMENT EXECUTE FUNCTION plume_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER books_catalog_truncated
  AFTER TRUNCATE ON books
  FOR EACH STATEMENT EXECUTE FUNCTION plume_catalog_changed();
