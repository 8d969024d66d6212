-- An e-mail address is unique only once proven (docs/decisions/0054): until then several accounts may
-- claim it. The old index kept every address unique, so the proven ones already are.
DROP INDEX "users_email_lower_key";--> statement-breakpoint
CREATE UNIQUE INDEX "users_proven_email_lower_key" ON "users" USING btree (lower("email")) WHERE "users"."email_verified_at" is not null;--> statement-breakpoint
CREATE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));