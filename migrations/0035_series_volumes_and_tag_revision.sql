CREATE UNIQUE INDEX "books_series_volume_key" ON "books" USING btree ("series_id","series_volume") WHERE "books"."series_id" is not null and "books"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "tags_slug_prefix_idx" ON "tags" USING btree ("slug" varchar_pattern_ops);--> statement-breakpoint
-- A book's tags are a filter of the catalog's pages and of the search rankings kept per filter
-- (server/catalog/catalog-answers.ts, search-rankings.ts): a tag put on or taken off a book moves both revisions.
CREATE TRIGGER book_tags_catalog_changed
  AFTER INSERT OR DELETE OR UPDATE ON book_tags
  FOR EACH STATEMENT EXECUTE FUNCTION plume_catalog_changed();
