ALTER TABLE "books" DROP CONSTRAINT "books_cover_source_known";--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_cover_source_known" CHECK ("books"."cover_source" in ('author', 'first-page', 'generated'));--> statement-breakpoint
-- Until now every cover Plume made of a PDF was its first page: the cover a title change leaves as it is.
UPDATE "books" SET "cover_source" = 'first-page' WHERE "cover_source" = 'generated' AND "mime_type" = 'application/pdf';
