const MAX_WORDS = 8;

/**
 * A prefix-matching tsquery for what the reader typed: every word must match, the last one as a
 * prefix ("la manan" → "la & manan:*"), so results narrow as they type. Only letters and digits
 * reach the query, so no input can break its syntax. Undefined when nothing searchable is left.
 */
export function toPrefixTsQuery(search: string): string | undefined {
  const words = search
    .normalize("NFC")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, MAX_WORDS);
  if (words.length === 0) return undefined;
  return words.map((word, index) => (index === words.length - 1 ? `${word}:*` : word)).join(" & ");
}
