/** The name of the unique constraint a statement broke, or undefined for any other error. */
export function violatedUniqueConstraint(error: unknown): string | undefined {
  // node-postgres and PGlite both expose the SQLSTATE and constraint; Drizzle may wrap them in `cause`.
  for (let current = error; current && typeof current === "object"; current = (current as { cause?: unknown }).cause) {
    const { code, constraint } = current as { code?: string; constraint?: string };
    if (code === "23505") return constraint ?? "";
  }
  return undefined;
}
