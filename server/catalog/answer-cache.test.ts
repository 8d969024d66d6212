import { describe, expect, it } from "vitest";
import { AnswerCache } from "./answer-cache.ts";

/** A cache whose answers are strings counted by their length, on a clock the test moves. */
function cacheOf(limits: { entries?: number; bytes?: number; ttlMs?: number } = {}) {
  const clock = { now: 0 };
  const made: string[] = [];
  const revisionsRead: string[] = [];
  const cache = new AnswerCache<string>({ entries: 10, bytes: 1_000, ttlMs: 5_000, ...limits }, (value) => value.length, () => clock.now);
  const ask = (key: string, revision: number, value = `${key}@${revision}`) =>
    cache.get(
      key,
      async () => {
        revisionsRead.push(key);
        return revision;
      },
      async () => {
        made.push(key);
        return value;
      },
    );
  /** Asked once already, so that the next ask keeps its answer. */
  const askedBefore = async (...keys: string[]) => {
    for (const key of keys) await ask(key, 0);
    made.length = 0;
    revisionsRead.length = 0;
  };
  return { cache, clock, made, revisionsRead, ask, askedBefore };
}

describe("AnswerCache", () => {
  it("makes a key asked for the first time and keeps nothing of it, not even reading the revision", async () => {
    const { ask, made, revisionsRead, cache } = cacheOf();
    expect(await ask("a", 1)).toBe("a@1");
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
    expect(revisionsRead).toEqual([]);
    expect(await ask("a", 1)).toBe("a@1");
    expect(await ask("a", 1)).toBe("a@1");
    expect(made).toEqual(["a", "a"]);
    expect(revisionsRead).toEqual(["a", "a"]);
  });

  it("remembers as many keys asked once as it keeps answers: a key asked again after more others is asked for the first time", async () => {
    const { ask, made, cache } = cacheOf({ entries: 2 });
    await ask("a", 1);
    await ask("b", 1);
    await ask("c", 1);
    await ask("a", 1);
    await ask("c", 1);
    expect(cache.size.entries).toBe(1);
    await ask("c", 1);
    expect(made).toEqual(["a", "b", "c", "a", "c"]);
  });

  it("makes an answer once per key and revision, sharing one making among callers asking meanwhile", async () => {
    const { ask, made, askedBefore } = cacheOf();
    await askedBefore("a", "b");
    expect(await Promise.all([ask("a", 1), ask("a", 1), ask("a", 1)])).toEqual(["a@1", "a@1", "a@1"]);
    expect(await ask("a", 1)).toBe("a@1");
    expect(await ask("b", 1)).toBe("b@1");
    expect(made).toEqual(["a", "b"]);
  });

  it("makes the answer again once the revision moved, and serves a newer answer to a caller who read an older revision", async () => {
    const { ask, made, askedBefore } = cacheOf();
    await askedBefore("a");
    await ask("a", 1);
    expect(await ask("a", 2)).toBe("a@2");
    expect(await ask("a", 1)).toBe("a@2");
    expect(made).toEqual(["a", "a"]);
  });

  it("serves an answer for its time to live at most, counted from when its making started", async () => {
    const { ask, made, clock, askedBefore } = cacheOf({ ttlMs: 5_000 });
    await askedBefore("a");
    await ask("a", 1);
    clock.now = 4_999;
    await ask("a", 1);
    clock.now = 5_000;
    await ask("a", 1);
    expect(made).toEqual(["a", "a"]);
  });

  it("keeps at most its entries, the least recently asked going first", async () => {
    const { ask, made, cache, askedBefore } = cacheOf({ entries: 2 });
    await askedBefore("a", "b");
    await ask("a", 1);
    await ask("b", 1);
    await ask("a", 1);
    await askedBefore("c");
    await ask("c", 1);
    expect(cache.size.entries).toBe(2);
    await ask("a", 1);
    await ask("c", 1);
    await ask("b", 1);
    expect(made).toEqual(["c", "b"]);
  });

  it("keeps at most its bytes, and never an answer larger than all of them", async () => {
    const { ask, made, cache, askedBefore } = cacheOf({ bytes: 10 });
    await askedBefore("a", "b", "c", "huge");
    await ask("a", 1, "aaaa");
    await ask("b", 1, "bbbb");
    await ask("c", 1, "cccc");
    expect(cache.size).toEqual({ entries: 2, bytes: 8 });
    await ask("huge", 1, "x".repeat(11));
    expect(cache.size).toEqual({ entries: 2, bytes: 8 });
    await ask("b", 1);
    await ask("c", 1);
    await ask("huge", 1, "x".repeat(11));
    expect(made).toEqual(["a", "b", "c", "huge", "huge"]);
  });

  it("keeps no failure: the next caller makes the answer again", async () => {
    const { cache, askedBefore } = cacheOf();
    await askedBefore("a");
    const revision = async () => 1;
    await expect(cache.get("a", revision, () => Promise.reject(new Error("database away")))).rejects.toThrow("database away");
    expect(cache.size.entries).toBe(0);
    expect(await cache.get("a", revision, async () => "a")).toBe("a");
  });
});
