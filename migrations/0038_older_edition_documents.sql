-- KOReader's ids of every edition's files (docs/decisions/0105, addendum): the ids kept so far are the current edition's.
ALTER TABLE "book_documents" ADD COLUMN "edition" integer;--> statement-breakpoint
UPDATE "book_documents" SET "edition" = "books"."edition" FROM "books" WHERE "books"."id" = "book_documents"."book_id";--> statement-breakpoint
ALTER TABLE "book_documents" ALTER COLUMN "edition" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "book_documents" DROP CONSTRAINT "book_documents_book_id_file_pk";--> statement-breakpoint
ALTER TABLE "book_documents" ADD CONSTRAINT "book_documents_book_id_file_edition_pk" PRIMARY KEY("book_id","file","edition");--> statement-breakpoint
ALTER TABLE "book_documents" ADD CONSTRAINT "book_documents_edition_positive" CHECK ("book_documents"."edition" >= 1);--> statement-breakpoint
ALTER TABLE "book_editions" ADD COLUMN "page_count" integer;--> statement-breakpoint
ALTER TABLE "book_editions" ADD CONSTRAINT "book_editions_page_count_positive" CHECK ("book_editions"."page_count" > 0);
