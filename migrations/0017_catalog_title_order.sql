-- The catalog's "title A–Z" in the order a reader of the interface's language expects
-- (docs/decisions/0046): accents and case only break ties, numbers go by value ("Tome 2" before
-- "Tome 10"), punctuation and spaces are ignored ("¿Quién…?" goes under Q).
-- ICU's root collation gives that order for English and French. The embedded PGlite carries ICU's
-- root data only (a locale such as 'es' falls back to it silently, and BCP 47 options such as
-- 'und-u-kn' are ignored), and PostgreSQL 15 has no tailoring rules: so the options are written
-- in ICU's own syntax, which both read, and Spanish, where ñ is a letter after n, sorts a key in
-- which ñ (composed first) is n followed by U+FFFF, the character ICU's root collation puts after
-- every other.
CREATE COLLATION plume_title (provider = icu, locale = 'und@colNumeric=yes;colAlternate=shifted');
--> statement-breakpoint
CREATE OR REPLACE FUNCTION plume_spanish_title(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT replace(replace(normalize(value, NFC), 'ñ', 'n' || U&'\FFFF'), 'Ñ', 'N' || U&'\FFFF') $$;
--> statement-breakpoint
DROP INDEX "books_catalog_title_idx";--> statement-breakpoint
-- The title is included so that PostgreSQL can read a deep page by offset from the index alone: it
-- would otherwise sort every book again to skip them (Drizzle's schema cannot say INCLUDE).
CREATE INDEX "books_catalog_spanish_title_idx" ON "books" USING btree ((plume_spanish_title("title") collate plume_title),"id") INCLUDE ("title") WHERE "books"."is_published" and "books"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_title_idx" ON "books" USING btree (("title" collate plume_title),"id") WHERE "books"."is_published" and "books"."deleted_at" is null;