ALTER TABLE "downloads" ADD COLUMN "not_counted_reason" varchar(20);--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_not_counted_reason_known" CHECK ("downloads"."not_counted_reason" in ('unpublished', 'own-book', 'repeat-reader', 'no-address', 'address-cap'));--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_counted_has_no_reason" CHECK (not ("downloads"."counted" and "downloads"."not_counted_reason" is not null));--> statement-breakpoint
-- Earlier downloads: the reasons that can still be told for certain. Whether a book was unpublished
-- then, or an address over its cap, cannot be, and stays unknown (null).
UPDATE "downloads" AS d SET "not_counted_reason" = 'own-book'
  FROM "books" AS b
  WHERE b."id" = d."book_id" AND NOT d."counted" AND d."user_id" = b."author_id";
--> statement-breakpoint
UPDATE "downloads" AS d SET "not_counted_reason" = 'repeat-reader'
  WHERE NOT d."counted" AND d."not_counted_reason" IS NULL AND d."user_id" IS NOT NULL
    AND EXISTS (SELECT 1 FROM "downloads" AS e WHERE e."book_id" = d."book_id" AND e."user_id" = d."user_id" AND e."id" < d."id");
--> statement-breakpoint
UPDATE "downloads" SET "not_counted_reason" = 'no-address'
  WHERE NOT "counted" AND "not_counted_reason" IS NULL AND "ip_address" IS NULL;
--> statement-breakpoint
UPDATE "payments" SET "sent_at" = "broadcast_at" WHERE "broadcast_at" IS NOT NULL;
