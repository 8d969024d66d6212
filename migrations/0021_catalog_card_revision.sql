ALTER TABLE "catalog_revision" ADD COLUMN "card_revision" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Everything that moves the search revision changes what some card or page shows too: both move.
CREATE OR REPLACE FUNCTION plume_catalog_changed() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  UPDATE catalog_revision SET revision = revision + 1, card_revision = card_revision + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION plume_catalog_cards_changed() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  UPDATE catalog_revision SET card_revision = card_revision + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A book's language is a filter a search ranking is kept per (server/catalog/search-rankings.ts):
-- it joins the columns that move the search revision.
DROP TRIGGER books_catalog_changed ON books;
--> statement-breakpoint
CREATE TRIGGER books_catalog_changed
  AFTER INSERT OR DELETE OR UPDATE OF title, description, genre, language, author_id, is_published, deleted_at, created_at, search_vector ON books
  FOR EACH STATEMENT EXECUTE FUNCTION plume_catalog_changed();
--> statement-breakpoint
-- The rest of what a card shows (server/books/present-book.ts), once per statement. Not the download
-- count, nor updated_at, which every update sets (a counted download too): a kept catalog answer may
-- show them up to its time to live late (docs/decisions/0077). A rating, a cover drawn, a Word book's
-- page count take the revision row's lock until their transaction ends, as edits do (docs/decisions/0018).
CREATE TRIGGER books_cards_changed
  AFTER UPDATE OF file_path, file_size, page_count, cover_image_url, rating, review_count ON books
  FOR EACH STATEMENT EXECUTE FUNCTION plume_catalog_cards_changed();
