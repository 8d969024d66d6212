-- Catalog search: ranked full-text over title (A), author name (B) and description (C),
-- accent- and case-insensitive, with a trigram index on titles for fuzzy matches.
-- These objects live outside the Drizzle schema on purpose: queries reach them through sql``.

-- unaccent() is only STABLE (its dictionary could change), so it cannot appear in an index;
-- pinning the dictionary makes this wrapper safe to declare IMMUTABLE.
CREATE OR REPLACE FUNCTION plume_unaccent(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, value) $$;
--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "search_vector" tsvector;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION plume_book_search_vector() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  author_name text;
BEGIN
  SELECT coalesce(nullif(trim(concat_ws(' ', u.first_name, u.last_name)), ''), split_part(u.email, '@', 1), '')
    INTO author_name
    FROM users u
    WHERE u.id = NEW.author_id;
  NEW.search_vector :=
    setweight(to_tsvector('simple', plume_unaccent(coalesce(NEW.title, ''))), 'A') ||
    setweight(to_tsvector('simple', plume_unaccent(coalesce(author_name, ''))), 'B') ||
    setweight(to_tsvector('simple', plume_unaccent(coalesce(NEW.description, ''))), 'C');
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER books_search_vector_refresh
  BEFORE INSERT OR UPDATE OF title, description, author_id ON books
  FOR EACH ROW EXECUTE FUNCTION plume_book_search_vector();
--> statement-breakpoint
-- Renaming an author re-indexes their books (SET title = title fires the books trigger).
CREATE OR REPLACE FUNCTION plume_author_renamed() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  UPDATE books SET title = title WHERE author_id = NEW.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_name_reindexes_books
  AFTER UPDATE OF first_name, last_name, email ON users
  FOR EACH ROW
  WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name
     OR OLD.last_name IS DISTINCT FROM NEW.last_name
     OR OLD.email IS DISTINCT FROM NEW.email)
  EXECUTE FUNCTION plume_author_renamed();
--> statement-breakpoint
UPDATE books SET title = title;
--> statement-breakpoint
CREATE INDEX "books_search_vector_idx" ON "books" USING gin ("search_vector")
  WHERE "is_published" AND "deleted_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "books_title_trgm_idx" ON "books" USING gin (plume_unaccent(lower("title")) gin_trgm_ops)
  WHERE "is_published" AND "deleted_at" IS NULL;
