-- Accent- and case-insensitive catalog search needs unaccent; fuzzy matching needs pg_trgm.
-- Both are trusted extensions (PostgreSQL 13+), so the database owner may create them.
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;
