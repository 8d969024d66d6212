/** Every string of a text tree (a locale file or part of one), in order. */
export function stringsOf(tree: unknown): string[] {
  if (typeof tree === "string") return [tree];
  if (typeof tree === "object" && tree !== null) return Object.values(tree).flatMap(stringsOf);
  return [];
}
