CREATE TABLE "books" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "books_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"title" varchar(255) NOT NULL,
	"description" text,
	"genre" varchar(100),
	"language" varchar(10) DEFAULT 'en' NOT NULL,
	"author_id" uuid NOT NULL,
	"file_name" varchar(255) NOT NULL,
	"file_path" text NOT NULL,
	"file_size" bigint NOT NULL,
	"mime_type" varchar(100) NOT NULL,
	"cover_image_url" text,
	"download_count" integer DEFAULT 0 NOT NULL,
	"rating" numeric(3, 2) DEFAULT '0' NOT NULL,
	"review_count" integer DEFAULT 0 NOT NULL,
	"is_published" boolean DEFAULT true NOT NULL,
	"first_book" boolean DEFAULT false NOT NULL,
	"first_book_bonus_paid" boolean DEFAULT false NOT NULL,
	"paid_milestones" integer DEFAULT 0 NOT NULL,
	"first_download_date" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "books_language_known" CHECK ("books"."language" in ('en', 'es', 'fr')),
	CONSTRAINT "books_download_count_nonnegative" CHECK ("books"."download_count" >= 0),
	CONSTRAINT "books_review_count_nonnegative" CHECK ("books"."review_count" >= 0),
	CONSTRAINT "books_rating_range" CHECK ("books"."rating" between 0 and 5),
	CONSTRAINT "books_paid_milestones_nonnegative" CHECK ("books"."paid_milestones" >= 0),
	CONSTRAINT "books_file_size_positive" CHECK ("books"."file_size" > 0)
);
--> statement-breakpoint
CREATE TABLE "downloads" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "downloads_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"book_id" integer NOT NULL,
	"user_id" uuid,
	"ip_address" varchar(45),
	"counted" boolean DEFAULT false NOT NULL,
	"downloaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"book_id" integer,
	"author_id" uuid NOT NULL,
	"author_wallet" varchar(42),
	"tokens_sent" varchar(78),
	"transaction_hash" varchar(66),
	"paid_at" timestamp with time zone,
	"idempotency_key" varchar(120) NOT NULL,
	"metadata" jsonb,
	"amount" numeric(10, 2) NOT NULL,
	"currency" varchar(10) DEFAULT 'PME' NOT NULL,
	"wallet_address" varchar(42),
	"status" varchar(20) DEFAULT 'pending' NOT NULL,
	"download_threshold" integer,
	"triggered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "payments_idempotency_key_key" UNIQUE("idempotency_key"),
	CONSTRAINT "payments_status_known" CHECK ("payments"."status" in ('pending', 'completed', 'failed')),
	CONSTRAINT "payments_amount_positive" CHECK ("payments"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reviews_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"book_id" integer NOT NULL,
	"user_id" uuid NOT NULL,
	"rating" integer NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reviews_one_per_reader_key" UNIQUE("book_id","user_id"),
	CONSTRAINT "reviews_rating_range" CHECK ("reviews"."rating" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"sid" varchar(255) PRIMARY KEY NOT NULL,
	"sess" json NOT NULL,
	"expire" timestamp (6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"username" varchar(50) NOT NULL,
	"email" varchar(255),
	"password" text NOT NULL,
	"first_name" varchar(100),
	"last_name" varchar(100),
	"profile_image_url" text,
	"wallet_address" varchar(42),
	"total_downloads" integer DEFAULT 0 NOT NULL,
	"total_earnings" numeric(10, 2) DEFAULT '0' NOT NULL,
	"last_sign_in_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_total_downloads_nonnegative" CHECK ("users"."total_downloads" >= 0),
	CONSTRAINT "users_total_earnings_nonnegative" CHECK ("users"."total_earnings" >= 0)
);
--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "books_author_idx" ON "books" USING btree ("author_id");--> statement-breakpoint
CREATE INDEX "books_catalog_newest_idx" ON "books" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "books"."is_published" and "books"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_downloads_idx" ON "books" USING btree ("download_count" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "books"."is_published" and "books"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_rating_idx" ON "books" USING btree ("rating" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "books"."is_published" and "books"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_title_idx" ON "books" USING btree (lower("title"),"id") WHERE "books"."is_published" and "books"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "books_catalog_genre_idx" ON "books" USING btree ("genre","created_at" DESC NULLS LAST) WHERE "books"."is_published" and "books"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "downloads_one_counted_per_reader_key" ON "downloads" USING btree ("book_id","user_id") WHERE "downloads"."counted";--> statement-breakpoint
CREATE INDEX "downloads_book_ip_time_idx" ON "downloads" USING btree ("book_id","ip_address","downloaded_at");--> statement-breakpoint
CREATE INDEX "downloads_book_counted_time_idx" ON "downloads" USING btree ("book_id","downloaded_at") WHERE "downloads"."counted";--> statement-breakpoint
CREATE INDEX "downloads_user_time_idx" ON "downloads" USING btree ("user_id","downloaded_at");--> statement-breakpoint
CREATE INDEX "payments_author_triggered_idx" ON "payments" USING btree ("author_id","triggered_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payments_pending_idx" ON "payments" USING btree ("triggered_at") WHERE "payments"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "reviews_user_idx" ON "reviews" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expire_idx" ON "sessions" USING btree ("expire");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_key" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_key" ON "users" USING btree (lower("email"));