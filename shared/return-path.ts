/**
 * The path to return to after sign-in: only a same-site path ("/dashboard?tab=admin"),
 * never another site ("//evil.test", "https://…", "/\\evil.test"), else "/".
 */
export function safeReturnPath(candidate: string | null | undefined): string {
  if (!candidate || candidate.length > 2048) return "/";
  if (!candidate.startsWith("/") || candidate.startsWith("//") || candidate.startsWith("/\\")) return "/";
  // Control characters and backslashes can be folded into "//" by browsers.
  if (/[\p{Cc}\\]/u.test(candidate)) return "/";
  return candidate;
}
