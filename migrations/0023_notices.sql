CREATE TABLE "notices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"category" varchar(16) NOT NULL,
	"book_id" integer,
	"account_id" uuid NOT NULL,
	"url" text NOT NULL,
	"explanation" text NOT NULL,
	"reporter_name" varchar(200),
	"reporter_email" varchar(255),
	"reporter_account_id" uuid,
	"language" varchar(2) NOT NULL,
	"original_work" text,
	"rights_holder" varchar(200),
	"sworn" boolean DEFAULT false NOT NULL,
	"status" varchar(12) DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notices_category_known" CHECK ("notices"."category" in ('copyright', 'illegal', 'private-data', 'hate-violence', 'minors', 'spam', 'harmful-file')),
	CONSTRAINT "notices_status_known" CHECK ("notices"."status" in ('open', 'actioned', 'dismissed')),
	CONSTRAINT "notices_language_known" CHECK ("notices"."language" in ('en', 'es', 'fr')),
	CONSTRAINT "notices_reporter_known" CHECK ("notices"."category" = 'minors' or ("notices"."reporter_name" is not null and "notices"."reporter_email" is not null)),
	CONSTRAINT "notices_copyright_complete" CHECK ("notices"."category" <> 'copyright' or ("notices"."original_work" is not null and "notices"."rights_holder" is not null and "notices"."sworn"))
);
--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_reporter_account_id_users_id_fk" FOREIGN KEY ("reporter_account_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notices_open_idx" ON "notices" USING btree ("created_at") WHERE "notices"."status" = 'open';--> statement-breakpoint
CREATE INDEX "notices_book_idx" ON "notices" USING btree ("book_id");--> statement-breakpoint
CREATE INDEX "notices_account_idx" ON "notices" USING btree ("account_id");