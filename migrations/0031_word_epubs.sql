ALTER TABLE "books" ADD COLUMN "epub_title" varchar(255);--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "epub_language" varchar(10);--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "epub_cover_url" text;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "epub_failed_version" integer;--> statement-breakpoint
-- A card lists the book's files (docs/decisions/0096): the made EPUB's size moves the card revision, as the
-- own file's does, so a kept catalog answer never offers an EPUB that is not there, nor misses one made.
DROP TRIGGER books_cards_changed ON books;
--> statement-breakpoint
CREATE TRIGGER books_cards_changed
  AFTER UPDATE OF file_path, file_size, mime_type, epub_size, page_count, cover_image_url, rating, review_count ON books
  FOR EACH STATEMENT EXECUTE FUNCTION plume_catalog_cards_changed();
