ALTER TABLE "notices" ADD COLUMN "review_id" integer;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "removal_ground" varchar(32);--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "removal_facts" text;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "removed_by" uuid;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_removed_by_users_id_fk" FOREIGN KEY ("removed_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reviews_book_written_idx" ON "reviews" USING btree ("book_id","created_at") WHERE "reviews"."comment" is not null and "reviews"."removed_at" is null;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_removal_stated" CHECK (("reviews"."removed_at" is null) = ("reviews"."removal_ground" is null) and ("reviews"."removed_at" is null) = ("reviews"."removal_facts" is null));