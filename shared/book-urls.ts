/**
 * The public addresses of books and authors (docs/product.md#book-pages). A book's address may carry
 * a slug of its title after the id (`/books/42-the-long-winter`); the slug is only for people and
 * search engines, the id alone finds the book, and the canonical address carries the current slug.
 */

const MAX_SLUG_LENGTH = 60;

/** "L'Été à Lyon!" → "l-ete-a-lyon": lower case ASCII words joined by hyphens, empty when nothing is left. */
export function slugOf(title: string): string {
  const words = title
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean);
  let slug = "";
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > MAX_SLUG_LENGTH) break;
    slug = next;
  }
  return slug || words[0]?.slice(0, MAX_SLUG_LENGTH) || "";
}

export function bookPath(book: { id: number; title: string }): string {
  const slug = slugOf(book.title);
  return slug ? `/books/${book.id}-${slug}` : `/books/${book.id}`;
}

export function bookReaderPath(book: { id: number }): string {
  return `/books/${book.id}/read`;
}

export function authorPath(author: { id: string }): string {
  return `/authors/${author.id}`;
}

/** The notice form about a book or an author (docs/product.md#moderation), told which page it was opened from. */
export function reportPath(subject: { book: number } | { author: string } | { review: number }, from: string): string {
  const query = new URLSearchParams("book" in subject ? { book: String(subject.book) } : "review" in subject ? { review: String(subject.review) } : { author: subject.author });
  query.set("from", from);
  return `/report?${query.toString()}`;
}

/**
 * The book id at the start of a `/books/{id}` or `/books/{id}-{slug}` segment, or undefined when the
 * segment does not start with a whole positive number that fits the database's integer.
 */
export function bookIdOfSegment(segment: string): number | undefined {
  const match = /^([1-9][0-9]{0,9})(?:-[a-z0-9-]*)?$/.exec(segment);
  if (!match) return undefined;
  const id = Number(match[1]);
  return id <= 2_147_483_647 ? id : undefined;
}
