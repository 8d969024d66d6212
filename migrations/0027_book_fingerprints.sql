CREATE TABLE "book_fingerprint_bands" (
	"band" integer NOT NULL,
	"hash" integer NOT NULL,
	"book_id" integer NOT NULL,
	CONSTRAINT "book_fingerprint_bands_band_hash_book_id_pk" PRIMARY KEY("band","hash","book_id")
);
--> statement-breakpoint
CREATE TABLE "book_fingerprints" (
	"book_id" integer PRIMARY KEY NOT NULL,
	"signature" integer[],
	"word_count" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "book_fingerprints_word_count_nonnegative" CHECK ("book_fingerprints"."word_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "notices" DROP CONSTRAINT "notices_reporter_known";--> statement-breakpoint
ALTER TABLE "notices" DROP CONSTRAINT "notices_copyright_complete";--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "file_sha256" varchar(64);--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "source" varchar(10) DEFAULT 'form' NOT NULL;--> statement-breakpoint
ALTER TABLE "book_fingerprint_bands" ADD CONSTRAINT "book_fingerprint_bands_book_id_book_fingerprints_book_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."book_fingerprints"("book_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "book_fingerprints" ADD CONSTRAINT "book_fingerprints_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "book_fingerprint_bands_book_idx" ON "book_fingerprint_bands" USING btree ("book_id");--> statement-breakpoint
CREATE INDEX "books_file_sha256_idx" ON "books" USING btree ("file_sha256") WHERE "books"."deleted_at" is null;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_source_known" CHECK ("notices"."source" in ('form', 'automated'));--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_reporter_known" CHECK ("notices"."category" = 'minors' or "notices"."source" = 'automated' or ("notices"."reporter_name" is not null and "notices"."reporter_email" is not null));--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_copyright_complete" CHECK ("notices"."category" <> 'copyright' or ("notices"."original_work" is not null and "notices"."rights_holder" is not null and ("notices"."sworn" or "notices"."source" = 'automated')));