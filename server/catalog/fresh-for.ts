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

/**
 * A value read fresh for every caller, but shared: a read answers every caller who asked before it
 * started and no caller who asked after. A caller arriving while a read is in flight waits for the
 * next one, which starts when that ends and answers everyone who arrived meanwhile: at most one read
 * in flight, and none older than its caller. A failed read fails its own callers only.
 */
export function readAfterAsked<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<void> | undefined;
  let next: Promise<T> | undefined;
  const start = (): Promise<T> => {
    const value = read();
    const ended: Promise<void> = value.then(
      () => {
        if (inFlight === ended) inFlight = undefined;
      },
      () => {
        if (inFlight === ended) inFlight = undefined;
      },
    );
    inFlight = ended;
    return value;
  };
  return () => {
    if (next) return next;
    if (!inFlight) return start();
    next = inFlight.then(() => {
      next = undefined;
      return start();
    });
    return next;
  };
}
