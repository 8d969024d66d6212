/**
 * A value read at most once per `ttlMs`: callers within that time share the last answer, and
 * callers arriving while it is being read share that one read (a burst makes one query, not one
 * each). A failed read is not kept: the next caller tries again.
 */
export function freshFor<T>(ttlMs: number, read: () => Promise<T>, now: () => number = Date.now): () => Promise<T> {
  let kept: { value: Promise<T>; readAt: number } | undefined;
  return () => {
    if (kept && now() - kept.readAt < ttlMs) return kept.value;
    const value = read();
    const entry = { value, readAt: now() };
    kept = entry;
    value.catch(() => {
      if (kept === entry) kept = undefined;
    });
    return value;
  };
}
