import type { Options } from "express-rate-limit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client.ts";
import { openTestDatabase } from "../../test/helpers/test-database.ts";
import { incrementHits } from "./rate-limit-repository.ts";
import { DatabaseRateLimitStore } from "./rate-limit-store.ts";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

function storeWithWindow(prefix: string, windowMs: number) {
  const store = new DatabaseRateLimitStore(database.db, prefix);
  store.init({ windowMs } as Options);
  return store;
}

describe("DatabaseRateLimitStore", () => {
  it("counts hits within a window and starts again once it is over", async () => {
    const store = storeWithWindow("window:", 400);
    const first = await store.increment("ana");
    expect(first.totalHits).toBe(1);
    expect((await store.increment("ana")).totalHits).toBe(2);
    expect((await store.increment("ana")).resetTime).toEqual(first.resetTime);

    await new Promise((resolve) => setTimeout(resolve, 500));
    const next = await store.increment("ana");
    expect(next.totalHits).toBe(1);
    expect(next.resetTime!.getTime()).toBeGreaterThan(first.resetTime!.getTime());
  });

  it("keeps keys and prefixes apart, decrements without going below zero, and resets a key", async () => {
    const signIn = storeWithWindow("sign-in:", 60_000);
    const upload = storeWithWindow("upload:", 60_000);
    await signIn.increment("bea");
    await signIn.increment("bea");
    await upload.increment("bea");

    expect((await signIn.get("bea"))?.totalHits).toBe(2);
    expect((await upload.get("bea"))?.totalHits).toBe(1);
    await upload.decrement("bea");
    await upload.decrement("bea");
    expect((await upload.get("bea"))?.totalHits).toBe(0);
    await signIn.resetKey("bea");
    expect(await signIn.get("bea")).toBeUndefined();
  });

  it("counts every one of many simultaneous hits", async () => {
    const store = storeWithWindow("burst:", 60_000);
    const totals = await Promise.all(Array.from({ length: 25 }, () => store.increment("carla")));
    expect(totals.map(({ totalHits }) => totalHits).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it("adds weighted hits (the reader's kilobytes) and saturates at the counter's largest integer rather than overflow", async () => {
    expect((await incrementHits(database.db, "read-bytes-account:ana", 60_000, 2_147_483_000)).totalHits).toBe(2_147_483_000);
    expect((await incrementHits(database.db, "read-bytes-account:ana", 60_000, 600)).totalHits).toBe(2_147_483_600);
    expect((await incrementHits(database.db, "read-bytes-account:ana", 60_000, 51_200)).totalHits).toBe(2_147_483_647);
    expect((await incrementHits(database.db, "read-bytes-account:ana", 60_000)).totalHits).toBe(2_147_483_647);
  });
});
