-- An author keeps one first book (docs/decisions/0066): the one whose bonus was paid, else the earliest.
-- Others marked by hand lose the mark; a bonus already paid stays paid (first_book_bonus_paid is kept).
UPDATE "books" SET "first_book" = false
WHERE "first_book" AND "id" NOT IN (
  SELECT DISTINCT ON ("author_id") "id" FROM "books" WHERE "first_book" ORDER BY "author_id", "first_book_bonus_paid" DESC, "id"
);--> statement-breakpoint
CREATE UNIQUE INDEX "books_one_first_book_per_author" ON "books" USING btree ("author_id") WHERE "books"."first_book";
