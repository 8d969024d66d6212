CREATE TABLE "book_documents" (
	"book_id" integer NOT NULL,
	"file" varchar(8) NOT NULL,
	"partial_md5" varchar(32) NOT NULL,
	CONSTRAINT "book_documents_book_id_file_pk" PRIMARY KEY("book_id","file"),
	CONSTRAINT "book_documents_file_known" CHECK ("book_documents"."file" in ('file', 'epub'))
);
--> statement-breakpoint
CREATE TABLE "e_reader_key_digests" (
	"md5" varchar(32) PRIMARY KEY NOT NULL,
	"key_id" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "epub_size" bigint;--> statement-breakpoint
ALTER TABLE "reading_positions" ADD COLUMN "percentage" real;--> statement-breakpoint
ALTER TABLE "reading_positions" ADD COLUMN "locator" text;--> statement-breakpoint
ALTER TABLE "reading_positions" ADD COLUMN "format" varchar(8);--> statement-breakpoint
ALTER TABLE "reading_positions" ADD COLUMN "device" varchar(100);--> statement-breakpoint
ALTER TABLE "reading_positions" ADD COLUMN "device_id" varchar(100);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "e_reader_email" varchar(255);--> statement-breakpoint
ALTER TABLE "book_documents" ADD CONSTRAINT "book_documents_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "e_reader_key_digests" ADD CONSTRAINT "e_reader_key_digests_key_id_e_reader_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."e_reader_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "book_documents_partial_md5_idx" ON "book_documents" USING btree ("partial_md5");--> statement-breakpoint
CREATE INDEX "e_reader_key_digests_key_idx" ON "e_reader_key_digests" USING btree ("key_id");--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_epub_size_positive" CHECK ("books"."epub_size" > 0);--> statement-breakpoint
ALTER TABLE "reading_positions" ADD CONSTRAINT "reading_positions_percentage_range" CHECK ("reading_positions"."percentage" between 0 and 1);--> statement-breakpoint
ALTER TABLE "reading_positions" ADD CONSTRAINT "reading_positions_format_known" CHECK ("reading_positions"."format" in ('pdf', 'epub', 'word'));