CREATE TABLE "e_reader_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" varchar(60) NOT NULL,
	"key_hash" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "reading_positions" (
	"user_id" uuid NOT NULL,
	"book_id" integer NOT NULL,
	"page" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reading_positions_user_id_book_id_pk" PRIMARY KEY("user_id","book_id"),
	CONSTRAINT "reading_positions_page_positive" CHECK ("reading_positions"."page" >= 1)
);
--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "page_count" integer;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "cover_source" varchar(10);--> statement-breakpoint
ALTER TABLE "downloads" ADD COLUMN "channel" varchar(10) DEFAULT 'download' NOT NULL;--> statement-breakpoint
ALTER TABLE "e_reader_keys" ADD CONSTRAINT "e_reader_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_positions" ADD CONSTRAINT "reading_positions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_positions" ADD CONSTRAINT "reading_positions_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "e_reader_keys_hash_key" ON "e_reader_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "e_reader_keys_user_idx" ON "e_reader_keys" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_page_count_positive" CHECK ("books"."page_count" > 0);--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_cover_source_known" CHECK ("books"."cover_source" in ('author', 'generated'));--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_channel_known" CHECK ("downloads"."channel" in ('download', 'read', 'opds'));--> statement-breakpoint
-- Covers given before Plume made its own were all given by their authors.
UPDATE "books" SET "cover_source" = 'author' WHERE "cover_image_url" IS NOT NULL;